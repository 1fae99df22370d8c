/**
 * Bounded HTTP for the authorization flows: every metadata document, registration and token response is read
 * with a size limit and a deadline, over HTTPS (plain HTTP only to loopback unless allowed), and redirects are
 * followed only within the same origin and only for GET.
 */
import type { FetchLike } from '../transports/http/client-fetch.js';
import { AuthorizationError } from './errors.js';

export interface AuthHttpOptions {
  /** Default: the global `fetch`. */
  fetch?: FetchLike;
  /** Deadline for each request (headers and body). Default 10 s. */
  timeoutMs?: number;
  /** Largest response body. Default 256 KiB. */
  maxBytes?: number;
  /**
   * Plain `http:` URLs: `'loopback'` (default) allows them only for localhost, 127.0.0.0/8 and [::1]; `true`
   * allows them anywhere (tests, private networks); `false` never.
   */
  allowHttp?: boolean | 'loopback';
}

export interface AuthResponse {
  readonly url: URL;
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
}

const MAX_REDIRECTS = 3;

export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase();
  return (
    host === 'localhost' ||
    host.endsWith('.localhost') ||
    host === '[::1]' ||
    host === '::1' ||
    /^127(\.\d{1,3}){3}$/.test(host)
  );
}

/** Parses an absolute http(s) URL and checks that this flow may use it. */
export function checkUrl(value: string | URL, what: string, allowHttp: AuthHttpOptions['allowHttp']): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new AuthorizationError('invalid-response', `The ${what} is not an absolute URL`);
  }
  if (url.protocol === 'https:') return url;
  if (url.protocol === 'http:') {
    const allowed =
      allowHttp === true || ((allowHttp ?? 'loopback') === 'loopback' && isLoopbackHost(url.hostname));
    if (allowed) return url;
    throw new AuthorizationError('insecure', `The ${what} ${url.origin} does not use HTTPS`);
  }
  throw new AuthorizationError('insecure', `The ${what} must be an http(s) URL`);
}

async function readBounded(response: Response, limit: number, what: string): Promise<string> {
  const declared = Number(response.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > limit) {
    response.body?.cancel().catch(() => {});
    throw new AuthorizationError('invalid-response', `The ${what} is larger than ${limit} bytes`);
  }
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      reader.cancel().catch(() => {});
      throw new AuthorizationError('invalid-response', `The ${what} is larger than ${limit} bytes`);
    }
    chunks.push(value);
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Buffer.concat(chunks));
  } catch {
    throw new AuthorizationError('invalid-response', `The ${what} is not UTF-8`);
  }
}

/**
 * Sends one request and reads the whole answer. Network failures and timeouts reject with
 * AuthorizationError('discovery'); a GET redirected within its origin is followed, any other redirect refused.
 */
export async function authRequest(
  url: URL,
  init: RequestInit,
  what: string,
  options: AuthHttpOptions = {},
): Promise<AuthResponse> {
  const fetchImpl: FetchLike = options.fetch ?? ((input, requestInit) => fetch(input, requestInit));
  const limit = options.maxBytes ?? 256 * 1024;
  let current = checkUrl(url, what, options.allowHttp);
  for (let hop = 0; ; hop++) {
    const signal = AbortSignal.timeout(options.timeoutMs ?? 10_000);
    let response: Response;
    try {
      response = await fetchImpl(current, { ...init, redirect: 'manual', signal });
    } catch (error) {
      throw new AuthorizationError('discovery', `Could not reach the ${what} at ${current.origin}`, {
        cause: error,
      });
    }
    if (response.status >= 300 && response.status < 400 && response.headers.has('location')) {
      response.body?.cancel().catch(() => {});
      const method = (init.method ?? 'GET').toUpperCase();
      let target: URL;
      try {
        target = new URL(response.headers.get('location')!, current);
      } catch {
        throw new AuthorizationError('invalid-response', `The ${what} redirected to an invalid URL`);
      }
      if (method !== 'GET' || target.origin !== current.origin || hop >= MAX_REDIRECTS) {
        throw new AuthorizationError(
          'insecure',
          `The ${what} at ${current.origin} redirected ${target.origin === current.origin ? 'too often or for a ' + method : `to another origin (${target.origin})`}; refused`,
        );
      }
      current = checkUrl(target, what, options.allowHttp);
      continue;
    }
    try {
      const text = await readBounded(response, limit, what);
      return { url: current, status: response.status, headers: response.headers, text };
    } catch (error) {
      if (error instanceof AuthorizationError) throw error;
      throw new AuthorizationError('discovery', `Reading the ${what} failed`, { cause: error });
    }
  }
}

/** Parses a response body that must be a JSON object. */
export function jsonObjectOf(response: AuthResponse, what: string): Record<string, unknown> {
  const type = (response.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/json' && !type.endsWith('+json')) {
    throw new AuthorizationError(
      'invalid-response',
      `The ${what} is not JSON (Content-Type ${type || 'missing'})`,
    );
  }
  let value: unknown;
  try {
    value = JSON.parse(response.text);
  } catch {
    throw new AuthorizationError('invalid-response', `The ${what} is not valid JSON`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new AuthorizationError('invalid-response', `The ${what} is not a JSON object`);
  }
  return value as Record<string, unknown>;
}
