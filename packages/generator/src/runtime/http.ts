/**
 * One API call with a deadline per attempt, retries with exponential backoff and full jitter on 408, 429, 5xx
 * and network errors (idempotent methods only unless configured), honouring `Retry-After`, and a bounded read of
 * the answer. Redirects are followed by hand (at most `MAX_REDIRECTS`) so that no configured credential reaches
 * another origin: fetch's own following drops only `Authorization` and `Cookie`.
 */
import type { ResolvedOptions } from './config.js';
import type { BuiltRequest } from './request.js';

export interface ApiResponse {
  readonly status: number;
  readonly headers: Headers;
  readonly contentType: string;
  readonly bytes: Uint8Array;
  /** The body was longer than the download limit and was cut. */
  readonly cut: boolean;
  readonly attempts: number;
}

/** The API could not be reached (after retries) or the call was cancelled. */
export class CallFailure extends Error {
  override readonly name = 'CallFailure';
}

const IDEMPOTENT = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE', 'TRACE']);
const RETRIED_STATUS = new Set([408, 429, 500, 502, 503, 504]);

/** Milliseconds a `Retry-After` header asks for (seconds or an HTTP date), or undefined. */
export function retryAfterMs(value: string | null, now = Date.now()): number | undefined {
  if (value === null) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** Full jitter: a random wait between 0 and base·2^attempt, capped. */
export function backoffMs(attempt: number, base: number, cap: number, random = Math.random): number {
  return Math.round(random() * Math.min(cap, base * 2 ** attempt));
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(new CallFailure('cancelled'));
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(new CallFailure('cancelled'));
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** Redirects followed per attempt; one more is a tool error naming the chain. */
export const MAX_REDIRECTS = 5;
const REDIRECT_STATUS = new Set([301, 302, 303, 307, 308]);
/** Always stripped on a change of origin, whatever set them (fetch drops the first three too). */
const ORIGIN_BOUND_HEADERS = ['authorization', 'proxy-authorization', 'cookie', 'cookie2'];
/** Headers that describe a body, dropped with it when a redirect turns the request into a GET. */
const BODY_HEADERS = [
  'content-type',
  'content-length',
  'content-encoding',
  'content-language',
  'content-location',
];

function where(url: URL): string {
  // Origin and path only: a query string may hold a credential.
  return `${url.origin}${url.pathname}`;
}

function withoutHeaders(headers: Readonly<Record<string, string>>, names: readonly string[]) {
  const drop = new Set(names.map((name) => name.toLowerCase()));
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !drop.has(name.toLowerCase())));
}

/**
 * The request a redirect (`status` with `location`) asks for, following fetch's rules (301/302 turn a POST into a
 * GET, 303 anything but GET/HEAD; 307/308 keep method and body), except that on a change of origin (scheme, host
 * or port) every credential the runtime added from configuration is stripped, not only `Authorization`. A
 * redirect from https to http, to another scheme, or to a URL with user info is refused (CallFailure).
 */
export function redirectTarget(request: BuiltRequest, status: number, location: string): BuiltRequest {
  let url: URL;
  try {
    url = new URL(location, request.url);
  } catch {
    throw new CallFailure(
      `${request.method} ${where(request.url)} redirected to an invalid URL: ${JSON.stringify(location.slice(0, 200))}`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new CallFailure(
      `${request.method} ${where(request.url)} redirected to a ${url.protocol} URL; refused`,
    );
  if (request.url.protocol === 'https:' && url.protocol === 'http:')
    throw new CallFailure(
      `${request.method} ${where(request.url)} redirected from https to http (${where(url)}); refused`,
    );
  if (url.username !== '' || url.password !== '')
    throw new CallFailure(
      `${request.method} ${where(request.url)} redirected to a URL with user info; refused`,
    );
  let { method, headers, body } = request;
  if (
    ((status === 301 || status === 302) && method === 'POST') ||
    (status === 303 && method !== 'GET' && method !== 'HEAD')
  ) {
    method = 'GET';
    body = undefined;
    headers = withoutHeaders(headers, BODY_HEADERS);
  }
  let configured = request.configured;
  if (url.origin !== request.url.origin) {
    headers = withoutHeaders(headers, [...ORIGIN_BOUND_HEADERS, ...(configured?.headers ?? [])]);
    // The Location may repeat the query credential (an API echoing its own URL): no value of one goes on.
    const secrets = new Set((configured?.query ?? []).map(([, value]) => value));
    const pairs = [...url.searchParams];
    const kept = pairs.filter(([, value]) => !secrets.has(value));
    if (kept.length < pairs.length) url.search = new URLSearchParams(kept).toString();
    // Gone for good: a later hop back to the first origin does not get them again (as fetch does).
    configured = { headers: [], query: [] };
  } else {
    // Same origin, the host the user configured: a Location without the query credential gets it back, as
    // headers are kept.
    for (const [key, value] of configured?.query ?? [])
      if (!url.searchParams.has(key)) url.searchParams.append(key, value);
  }
  return {
    url,
    method,
    headers,
    ...(body === undefined ? {} : { body }),
    ...(configured === undefined ? {} : { configured }),
  };
}

/** One attempt: the request and the redirects it leads to, the final response unread. */
async function follow(
  request: BuiltRequest,
  options: ResolvedOptions,
  signal: AbortSignal,
): Promise<Response> {
  let current = request;
  const chain = [request.url.href];
  for (let hop = 0; ; hop++) {
    const response = await options.fetch(current.url, {
      method: current.method,
      headers: current.headers,
      ...(current.body === undefined ? {} : { body: current.body }),
      redirect: 'manual',
      signal,
    });
    const location = response.headers.get('location');
    // A 3xx without Location is an answer, as with fetch.
    if (!REDIRECT_STATUS.has(response.status) || location === null) return response;
    await response.body?.cancel().catch(() => undefined);
    const next = redirectTarget(current, response.status, location);
    chain.push(next.url.href);
    if (hop >= MAX_REDIRECTS) {
      const loop =
        new Set(chain).size < chain.length ? 'a redirect loop' : `more than ${MAX_REDIRECTS} redirects`;
      const hops = chain.map((href) => where(new URL(href))).join(' → ');
      throw new CallFailure(`${request.method} ${where(request.url)} failed: ${loop}: ${hops}`);
    }
    current = next;
  }
}

export async function readBounded(
  response: Response,
  limit: number,
): Promise<{ bytes: Uint8Array; cut: boolean }> {
  if (response.body === null) return { bytes: new Uint8Array(0), cut: false };
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  let cut = false;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (size + value.byteLength > limit) {
      chunks.push(value.subarray(0, limit - size));
      size = limit;
      cut = true;
      await reader.cancel().catch(() => undefined);
      break;
    }
    chunks.push(value);
    size += value.byteLength;
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return { bytes, cut };
}

export async function send(
  request: BuiltRequest,
  options: ResolvedOptions,
  signal: AbortSignal,
): Promise<ApiResponse> {
  const retryable = options.retryNonIdempotent || IDEMPOTENT.has(request.method);
  const retries = retryable ? options.maxRetries : 0;
  for (let attempt = 0; ; attempt++) {
    const deadline = AbortSignal.timeout(options.timeoutMs);
    const combined = AbortSignal.any([signal, deadline]);
    let wait: number | undefined;
    try {
      const response = await follow(request, options, combined);
      if (RETRIED_STATUS.has(response.status) && attempt < retries) {
        const asked = retryAfterMs(response.headers.get('retry-after'));
        await response.body?.cancel().catch(() => undefined);
        // A server asking for longer than we are willing to wait gets its answer passed on, not a retry.
        if (asked !== undefined && asked > options.maxBackoffMs)
          return finish(response, options, attempt + 1);
        wait = asked ?? backoffMs(attempt, options.backoffMs, options.maxBackoffMs);
      } else return await finish(response, options, attempt + 1);
    } catch (error) {
      if (signal.aborted) throw new CallFailure('cancelled');
      // A refused redirect is the API's answer, not a network error: retrying would get the same one.
      if (error instanceof CallFailure) throw error;
      const reason = deadline.aborted
        ? `no answer within ${Math.round(options.timeoutMs / 1000)} s`
        : `${(error as Error).message}${(error as { cause?: Error }).cause ? ` (${(error as { cause: Error }).cause.message})` : ''}`;
      if (attempt >= retries)
        throw new CallFailure(
          `${request.method} ${request.url.origin}${request.url.pathname} failed: ${reason}${attempt > 0 ? ` (after ${attempt + 1} attempts)` : ''}`,
        );
      wait = backoffMs(attempt, options.backoffMs, options.maxBackoffMs);
    }
    await sleep(wait, signal);
  }
}

async function finish(response: Response, options: ResolvedOptions, attempts: number): Promise<ApiResponse> {
  const { bytes, cut } = await readBounded(response, options.maxDownloadBytes);
  return {
    status: response.status,
    headers: response.headers,
    contentType: response.headers.get('content-type') ?? '',
    bytes,
    cut,
    attempts,
  };
}

/** Loads a file argument for an upload: an http(s) URL (fetched, bounded) or base64 / a `data:` URL. */
export function fileLoader(options: ResolvedOptions, signal: AbortSignal) {
  return async (value: string, field: string): Promise<Blob> => {
    if (/^https?:\/\//i.test(value)) {
      const response = await options.fetch(value, {
        signal: AbortSignal.any([signal, AbortSignal.timeout(options.timeoutMs)]),
      });
      if (!response.ok)
        throw new CallFailure(`${field}: fetching ${new URL(value).origin} answered HTTP ${response.status}`);
      const { bytes, cut } = await readBounded(response, options.maxDownloadBytes);
      if (cut) throw new CallFailure(`${field}: the file is larger than ${options.maxDownloadBytes} bytes`);
      return new Blob([bytes], { type: response.headers.get('content-type') ?? 'application/octet-stream' });
    }
    const data = /^data:([^;,]*)(;base64)?,(.*)$/s.exec(value);
    const base64 = data ? data[3]! : value;
    if (!/^[A-Za-z0-9+/=\s_-]*$/.test(base64))
      throw new CallFailure(`${field}: expected base64 content or an http(s) URL`);
    return new Blob([Buffer.from(base64, 'base64')], { type: data?.[1] || 'application/octet-stream' });
  };
}
