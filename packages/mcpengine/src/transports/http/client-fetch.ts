/**
 * What the HTTP client transports share: the options every one of them takes, and bounded reading of bodies
 * and event streams from a `fetch` Response.
 */
import { HttpTransportError } from './client-errors.js';
import type { SseParser } from './sse-parser.js';

/** `fetch` or anything shaped like it (a proxy-aware fetch, an auth wrapper, a test double). */
export type FetchLike = (url: URL, init: RequestInit) => Promise<Response>;

/** Where the transports report what the owner may want to know. `warn` is for spec-mandated warnings. */
export interface HttpClientLogger {
  warn(message: string): void;
  debug?(message: string): void;
}

/** Extra headers on every HTTP request (authorization, tracing...): fixed, or computed per request. */
export type ExtraHeaders =
  | Readonly<Record<string, string>>
  | (() => Readonly<Record<string, string>> | Promise<Readonly<Record<string, string>>>);

/**
 * Authorization for every HTTP request of a transport: adds credentials and, on 401/403, obtains new ones and
 * sends the request again. `OAuthClient` of `mcpengine/auth` is one.
 */
export interface HttpClientAuth {
  /**
   * `serverUrl` is the transport's MCP endpoint: what credentials are kept for, whatever URL a request goes to.
   * `events.authorized` is called after a flow obtained new credentials.
   */
  wrapFetch(fetch: FetchLike, serverUrl: URL, events?: HttpClientAuthEvents): FetchLike;
}

export interface HttpClientAuthEvents {
  authorized?(): void;
}

export interface HttpClientOptions {
  /** Default: the global `fetch`. */
  fetch?: FetchLike;
  /** OAuth for this server (`OAuthClient` from `mcpengine/auth`). */
  auth?: HttpClientAuth;
  headers?: ExtraHeaders;
  logger?: HttpClientLogger;
  /** Largest JSON body or SSE event accepted, in bytes. Default 4 MiB. */
  maxMessageBytes?: number;
  /**
   * How long to wait for response headers on everything but a request's own POST (notifications, responses,
   * GET streams, DELETE, the HTTP+SSE handshake). A request's POST is bounded by the owner's request timeout,
   * which cancels it. Default 30 s.
   */
  timeoutMs?: number;
}

/** The fetch a transport uses: the given one (default: global `fetch`), behind `auth` when there is one. */
export function transportFetch(
  options: HttpClientOptions,
  serverUrl: URL,
  events?: HttpClientAuthEvents,
): FetchLike {
  const base: FetchLike = options.fetch ?? ((input, init) => fetch(input, init));
  return options.auth ? options.auth.wrapFetch(base, serverUrl, events) : base;
}

export const DEFAULT_MAX_MESSAGE_BYTES = 4 * 1024 * 1024;
export const DEFAULT_TIMEOUT_MS = 30_000;

/** What a transport makes of its `HttpClientOptions`: the defaults filled in, `fetch` behind `auth`. */
export interface HttpClientSettings {
  readonly fetch: FetchLike;
  readonly logger: HttpClientLogger;
  readonly maxBytes: number;
  readonly timeoutMs: number;
}

const consoleLogger: HttpClientLogger = {
  warn: (message) => console.warn(`[mcpengine] ${message}`),
};

export function httpClientSettings(
  options: HttpClientOptions,
  serverUrl: URL,
  events?: HttpClientAuthEvents,
): HttpClientSettings {
  return {
    fetch: transportFetch(options, serverUrl, events),
    logger: options.logger ?? consoleLogger,
    maxBytes: options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES,
    timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
  };
}

export async function extraHeaders(headers: ExtraHeaders | undefined): Promise<Record<string, string>> {
  if (headers === undefined) return {};
  return { ...(typeof headers === 'function' ? await headers() : headers) };
}

/** The media type of a response, lower case, without parameters (`application/json`). */
export function mediaTypeOf(response: Response): string {
  const type = response.headers.get('content-type') ?? '';
  return (type.split(';')[0] ?? '').trim().toLowerCase();
}

export function isTimeout(error: unknown): boolean {
  return error instanceof Error && error.name === 'TimeoutError';
}

/** Resolves after `ms`, or rejects as soon as `signal` aborts. */
export function delay(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** Discards a body we do not need, without waiting for it. */
export function discard(response: Response): void {
  response.body?.cancel().catch(() => {});
}

/**
 * Reads a whole body as UTF-8 text, refusing more than `limit` bytes (checked against Content-Length first,
 * then while reading) and invalid UTF-8.
 */
export async function readText(response: Response, limit: number): Promise<string> {
  const declared = Number(response.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > limit) {
    discard(response);
    throw new HttpTransportError('too-large', `The response body (${declared} bytes) exceeds ${limit} bytes`);
  }
  const body = response.body;
  if (!body) return '';
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      reader.cancel().catch(() => {});
      throw new HttpTransportError('too-large', `The response body exceeds ${limit} bytes`);
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch (error) {
    throw new HttpTransportError('invalid-response', 'The response body is not valid UTF-8', {
      cause: error,
    });
  }
}

/** The start of an error body, for messages; never throws. */
export async function errorBodyOf(response: Response, limit: number): Promise<string> {
  try {
    return await readText(response, limit);
  } catch {
    return '';
  }
}

/**
 * Reads an event stream into `parser` until it ends. Rejects when reading fails, including when the fetch's
 * signal aborts; the parser keeps what it saw (last event id, retry) either way.
 */
export async function readEventStream(body: ReadableStream<Uint8Array>, parser: SseParser): Promise<void> {
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      parser.pushBytes(value);
    }
  } finally {
    reader.releaseLock();
  }
  parser.end();
}

/** `fetch`, aborting `controller` if the response headers take longer than `timeoutMs`. */
export async function fetchWithin(
  fetchImpl: FetchLike,
  url: URL,
  init: RequestInit,
  controller: AbortController,
  timeoutMs: number,
): Promise<Response> {
  const timer = Number.isFinite(timeoutMs)
    ? setTimeout(
        () => controller.abort(new DOMException(`No response within ${timeoutMs} ms`, 'TimeoutError')),
        timeoutMs,
      )
    : undefined;
  try {
    return await fetchImpl(url, { ...init, signal: controller.signal });
  } finally {
    clearTimeout(timer);
  }
}
