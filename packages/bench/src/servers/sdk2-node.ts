/**
 * The Node adapter for the SDK 2.x web-standard handler. The SDK documents `toNodeHandler` from
 * `@modelcontextprotocol/node`; when that package is installed it is used. Otherwise this file supplies the
 * same conversion (Node request → `Request` with the body as text → `handler.fetch` → `Response` streamed back
 * with backpressure), so that the measurement still reflects what a Node deployment of SDK 2.x does.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

interface FetchHandler {
  fetch(request: Request): Promise<Response>;
}

type NodeHandler = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

export async function nodeAdapterFor(): Promise<{
  toNodeHandler: (handler: FetchHandler) => NodeHandler;
  source: string;
}> {
  const specifier = '@modelcontextprotocol/node';
  try {
    const official = (await import(specifier)) as { toNodeHandler: (handler: FetchHandler) => NodeHandler };
    return { toNodeHandler: official.toNodeHandler, source: specifier };
  } catch {
    return {
      toNodeHandler: fallbackToNodeHandler,
      source: 'the bench fallback (equivalent of @modelcontextprotocol/node)',
    };
  }
}

function toWebRequest(req: IncomingMessage, body: string | undefined, signal: AbortSignal): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || name.startsWith(':')) continue;
    if (Array.isArray(value)) for (const item of value) headers.append(name, item);
    else headers.set(name, value);
  }
  const url = `http://${req.headers.host ?? 'localhost'}${req.url ?? '/'}`;
  return new Request(url, {
    method: req.method ?? 'GET',
    headers,
    signal,
    ...(body !== undefined && { body }),
  });
}

function fallbackToNodeHandler(handler: FetchHandler): NodeHandler {
  return async (req, res) => {
    let finished = false;
    const abort = new AbortController();
    res.on('close', () => {
      if (!finished) abort.abort();
    });
    let body: string | undefined;
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      const decoder = new TextDecoder();
      let collected = '';
      for await (const chunk of req) collected += decoder.decode(chunk as Uint8Array, { stream: true });
      collected += decoder.decode();
      if (collected.length > 0) body = collected;
    }
    const response = await handler.fetch(toWebRequest(req, body, abort.signal));
    const headers: Record<string, string> = {};
    for (const [name, value] of response.headers) headers[name] = value;
    res.writeHead(response.status, headers);
    if (response.body === null) {
      finished = true;
      res.end();
      return;
    }
    for await (const chunk of response.body) {
      if (abort.signal.aborted) break;
      if (!res.write(chunk)) await new Promise((resolve) => res.once('drain', resolve));
    }
    finished = true;
    res.end();
  };
}
