import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { Client } from '../../client/client.js';
import { listenLocally } from '../../test/http-harness.js';
import type { RequestId } from '../../protocol/types.js';
import type { TransportHandlers } from '../transport.js';
import { connectHttp } from './client-auto.js';
import { HttpError, HttpTransportError } from './client-errors.js';
import { SseClientTransport } from './client-sse.js';

/**
 * A 2024-11-05 HTTP+SSE server: GET /sse opens the stream and announces POST /messages; every request posted
 * there is answered on the stream. POSTs to /sse (a Streamable HTTP attempt) get `postStatus`.
 */
interface SseServer {
  url: string;
  requests: { method: string; path: string; headers: IncomingHttpHeaders; body: string }[];
  stream(): ServerResponse | undefined;
  close(): Promise<void>;
}

const servers: SseServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

interface SseScript {
  postStatus?: number;
  /** The endpoint announced; null announces none. */
  endpoint?: string | null;
  /** Status for POST /messages. Default 202. */
  messageStatus?: (body: any) => number;
}

async function sseServer(script: SseScript = {}): Promise<SseServer> {
  let stream: ServerResponse | undefined;
  const requests: SseServer['requests'] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      const path = (req.url ?? '').split('?')[0] ?? '';
      requests.push({ method: req.method ?? '', path, headers: req.headers, body });
      if (req.method === 'GET' && path === '/sse') {
        stream = res;
        res.writeHead(200, { 'Content-Type': 'text/event-stream' });
        res.write(': hello\n\n');
        if (script.endpoint !== null) {
          res.write(`event: endpoint\ndata: ${script.endpoint ?? '/messages?sessionId=abc'}\n\n`);
        }
        return;
      }
      if (req.method === 'POST' && path === '/messages') {
        const rpc = JSON.parse(body);
        const status = script.messageStatus?.(rpc) ?? 202;
        res.writeHead(status);
        res.end(status === 202 ? '' : 'refused');
        if (status === 202 && rpc.id !== undefined) stream?.write(`event: message\ndata: ${answer(rpc)}\n\n`);
        return;
      }
      res.writeHead(script.postStatus ?? 405);
      res.end();
    });
  });
  const listening = await listenLocally(server);
  const handle: SseServer = {
    url: `${listening.origin}/sse`,
    requests,
    stream: () => stream,
    close: listening.close,
  };
  servers.push(handle);
  return handle;
}

function answer(rpc: { id: RequestId; method: string }): string {
  const results: Record<string, unknown> = {
    initialize: {
      protocolVersion: '2024-11-05',
      capabilities: { tools: {} },
      serverInfo: { name: 'old-sse', version: '1' },
    },
    'tools/list': { tools: [{ name: 'echo', inputSchema: { type: 'object' } }] },
  };
  const result = results[rpc.method];
  return JSON.stringify(
    result === undefined
      ? { jsonrpc: '2.0', id: rpc.id, error: { code: -32601, message: 'Method not found' } }
      : { jsonrpc: '2.0', id: rpc.id, result },
  );
}

async function until(predicate: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 1_000; i++) {
    if (predicate()) return;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error(`timed out waiting for ${what}`);
}

function recorder() {
  const r = {
    messages: [] as string[],
    failures: [] as [RequestId, Error][],
    closes: [] as (Error | undefined)[],
    handlers: {} as TransportHandlers,
  };
  r.handlers = {
    message: (text) => r.messages.push(text),
    invalid: () => {},
    close: (error) => r.closes.push(error),
    requestFailed: (id, error) => r.failures.push([id, error]),
  };
  return r;
}

describe('SseClientTransport (HTTP+SSE, 2024-11-05)', () => {
  it('waits for the endpoint event, POSTs there, and reads answers from the stream', async () => {
    const server = await sseServer();
    const r = recorder();
    const transport = new SseClientTransport(server.url);
    await transport.start(r.handlers);
    expect(transport.endpoint?.href).toBe(new URL('/messages?sessionId=abc', server.url).href);
    const request = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} });
    transport.send(request);
    await until(() => r.messages.length === 1, 'the answer');
    expect(JSON.parse(r.messages[0]!).result.tools[0].name).toBe('echo');
    const post = server.requests.find((q) => q.method === 'POST')!;
    expect([post.path, post.body, post.headers['content-type']]).toEqual([
      '/messages',
      request,
      'application/json',
    ]);
    expect(server.requests[0]!.headers.accept).toBe('text/event-stream');
    await transport.close();
    expect(r.closes).toEqual([undefined]);
  });

  it('refuses an endpoint on another origin', async () => {
    const server = await sseServer({ endpoint: 'http://evil.example/messages' });
    const transport = new SseClientTransport(server.url);
    await expect(transport.start(recorder().handlers)).rejects.toThrow('is on another origin');
  });

  it('rejects start() when no endpoint event arrives within timeoutMs', async () => {
    const server = await sseServer({ endpoint: null });
    const transport = new SseClientTransport(server.url, { timeoutMs: 50 });
    const error = await transport.start(recorder().handlers).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpTransportError);
    expect((error as HttpTransportError).reason).toBe('timeout');
  });

  it('refuses an empty endpoint', async () => {
    const server = await sseServer({ endpoint: '' });
    const error = await new SseClientTransport(server.url)
      .start(recorder().handlers)
      .catch((e: unknown) => e);
    expect((error as HttpTransportError).reason).toBe('invalid-response');
  });

  it('rejects start() when the URL does not serve an event stream', async () => {
    const server = await sseServer();
    const transport = new SseClientTransport(server.url.replace('/sse', '/nothing'));
    const error = await transport.start(recorder().handlers).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpError);
    expect((error as HttpError).status).toBe(405);
  });

  it('fails a request whose POST is refused, and closes when the stream ends', async () => {
    const server = await sseServer({ messageStatus: () => 400 });
    const r = recorder();
    const transport = new SseClientTransport(server.url);
    await transport.start(r.handlers);
    transport.send(JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/list' }));
    await until(() => r.failures.length === 1, 'the failure');
    expect(r.failures[0]![0]).toBe(9);
    expect((r.failures[0]![1] as HttpError).status).toBe(400);
    server.stream()!.end();
    await until(() => r.closes.length === 1, 'the close');
    expect(r.closes[0]).toBeInstanceOf(HttpTransportError);
    expect(() => transport.send('{}')).toThrow('not open');
  });
});

describe('createHttpTransport / connectHttp: the backwards-compatible fallback', () => {
  it('falls back to HTTP+SSE when Streamable HTTP refuses initialize with 4xx', async () => {
    for (const status of [400, 404, 405]) {
      const server = await sseServer({ postStatus: status });
      const { session: client, transport } = await connectHttp(
        new Client({ name: 'test', version: '1' }),
        server.url,
      );
      expect(transport.mode).toBe('http+sse');
      expect([client.era, client.revision, client.serverInfo?.name]).toEqual([
        'legacy',
        '2024-11-05',
        'old-sse',
      ]);
      expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['echo']);
      await client.close();
      // The modern probe and the Streamable HTTP initialize came first, both refused.
      const attempts = server.requests.filter((q) => q.path === '/sse' && q.method === 'POST');
      expect(attempts.map((q) => JSON.parse(q.body).method)).toEqual(['server/discover', 'initialize']);
    }
  });

  it('fails with both reasons when neither transport works', async () => {
    const server = await sseServer({ postStatus: 404 });
    const client = new Client({ name: 'test', version: '1' });
    const url = server.url.replace('/sse', '/neither');
    const error = await connectHttp(client, url).catch((e: unknown) => e);
    expect((error as Error).message).toMatch(
      /refused Streamable HTTP \(.*HTTP 404.*\) and HTTP\+SSE failed too/,
    );
  });

  it('does not fall back when told not to', async () => {
    const server = await sseServer({ postStatus: 405 });
    const client = new Client({ name: 'test', version: '1' });
    const error = await connectHttp(client, server.url, { sseFallback: false }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpError);
    expect((error as HttpError).status).toBe(405);
    expect(server.requests.some((q) => q.method === 'GET')).toBe(false);
  });
});
