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
      return response;
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
