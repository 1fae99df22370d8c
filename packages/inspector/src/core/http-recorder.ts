/**
 * A `fetch` that records each HTTP exchange into the timeline: method, URL, status, timing and the headers that
 * matter to MCP (`Mcp-*`, content type, `WWW-Authenticate`, `Last-Event-ID`). Credentials are never recorded.
 */
import type { Timeline } from './timeline.js';

type FetchLike = (url: URL, init: RequestInit) => Promise<Response>;

const KEPT_HEADERS = /^(mcp-|content-type$|accept$|www-authenticate$|last-event-id$|location$)/i;
const SECRET_HEADERS = /^(authorization|cookie|set-cookie|proxy-authorization)$/i;

function pick(headers: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  headers.forEach((value, name) => {
    if (SECRET_HEADERS.test(name)) out[name] = '(redacted)';
    else if (KEPT_HEADERS.test(name)) out[name] = value;
  });
  return out;
}

/** What the recorder learned that decides the CLI's exit class. */
export interface HttpObservations {
  /** The last 401/403 seen: the server wants credentials. */
  authStatus?: number;
}

export function recordingFetch(
  timeline: Timeline,
  observations: HttpObservations,
  base: FetchLike = (url, init) => fetch(url, init),
): FetchLike {
  return async (url, init) => {
    const started = Date.now();
    const method = init.method ?? 'GET';
    const requestHeaders = pick(new Headers(init.headers));
    try {
      const response = await base(url, init);
      if (response.status === 401 || response.status === 403) observations.authStatus = response.status;
      timeline.add({
        kind: 'http',
        method,
        url: redactUrl(url),
        status: response.status,
        durationMs: Date.now() - started,
        requestHeaders,
        responseHeaders: pick(response.headers),
      });
      if (response.body === null || !/text\/event-stream/i.test(response.headers.get('content-type') ?? ''))
        return response;
      // An SSE stream: read along to learn each event's id, passing the bytes through untouched.
      return new Response(response.body.pipeThrough(sseIdTap(timeline)), {
        status: response.status,
        statusText: response.statusText,
        headers: response.headers,
      });
    } catch (error) {
      timeline.add({
        kind: 'http',
        method,
        url: redactUrl(url),
        durationMs: Date.now() - started,
        requestHeaders,
        responseHeaders: {},
        error: error instanceof Error ? error.message : String(error),
      });
      throw error;
    }
  };
}

/** The URL without user info, and with query values hidden (they may carry keys). */
export function redactUrl(url: URL | string): string {
  const copy = new URL(url);
  copy.username = '';
  copy.password = '';
  for (const key of [...copy.searchParams.keys()]) copy.searchParams.set(key, '…');
  return copy.href;
}

/** Passes an SSE byte stream through, telling the timeline the id of each event that has one. */
function sseIdTap(timeline: Timeline): TransformStream<Uint8Array, Uint8Array> {
  const decoder = new TextDecoder();
  let buffer = '';
  let data: string[] = [];
  let id: string | undefined;
  const line = (text: string) => {
    if (text === '') {
      if (id !== undefined && data.length > 0) timeline.noteSseEvent(data.join('\n'), id);
      data = [];
      id = undefined;
      return;
    }
    const colon = text.indexOf(':');
    const field = colon < 0 ? text : text.slice(0, colon);
    let value = colon < 0 ? '' : text.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') data.push(value);
    else if (field === 'id' && !value.includes('\0')) id = value;
  };
  return new TransformStream({
    transform(chunk, controller) {
      controller.enqueue(chunk);
      // Bounded: a stream that never ends a line cannot grow the buffer without end.
      buffer = (buffer + decoder.decode(chunk, { stream: true })).slice(-4 * 1024 * 1024);
      const parts = buffer.split(/\r\n|\r|\n/);
      buffer = parts.pop() ?? '';
      for (const part of parts) line(part);
    },
  });
}
