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
  /**
   * Refuse targets on loopback, private, link-local and other non-public addresses: by host name, by IP
   * literal, and by the addresses the name resolves to just before connecting. The OAuth client sets it when
   * the MCP server is not itself local, so that a remote server cannot aim this process at local services.
   */
  blockPrivateNetworks?: boolean;
  /**
   * Resolves a host name to its addresses, for `blockPrivateNetworks`. Default: the system resolver when the
   * built-in `fetch` is used; with a custom `fetch` (which owns its connections) names are not resolved.
   */
  lookup?: (hostname: string) => Promise<readonly string[]>;
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

function ipv4Private(address: string): boolean {
  const [a, b] = address.split('.').map(Number) as [number, number];
  return (
    a === 0 ||
    a === 10 ||
    a === 127 ||
    (a === 100 && b >= 64 && b <= 127) || // carrier-grade NAT
    (a === 169 && b === 254) || // link-local, cloud metadata services
    (a === 172 && b >= 16 && b <= 31) ||
    (a === 192 && b === 168) ||
    (a === 198 && (b === 18 || b === 19)) || // benchmarking
    a >= 224 // multicast, reserved, broadcast
  );
}

const IPV4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;

function isIpv4(address: string): boolean {
  const match = IPV4.exec(address);
  return match !== null && match.slice(1).every((part) => Number(part) <= 255);
}

/**
 * The eight 16-bit groups of an IPv6 address, or undefined if it is not one. The URL parser (available in every
 * runtime) validates it and serializes it canonically: hexadecimal groups only, at most one `::`.
 */
function ipv6Groups(address: string): number[] | undefined {
  if (!address.includes(':')) return undefined;
  let canonical: string;
  try {
    canonical = new URL(`http://[${address}]/`).hostname.slice(1, -1);
  } catch {
    return undefined;
  }
  const [head, tail] = canonical.split('::') as [string, string | undefined];
  const parse = (part: string) => (part === '' ? [] : part.split(':').map((g) => parseInt(g, 16)));
  const left = parse(head);
  const right = tail === undefined ? [] : parse(tail);
  return [...left, ...Array<number>(8 - left.length - right.length).fill(0), ...right];
}

/** Whether an IP address (v4 or v6, brackets allowed) is not a public unicast address. */
export function isPrivateAddress(value: string): boolean {
  const address = value.replace(/^\[|\]$/g, '').toLowerCase();
  if (isIpv4(address)) return ipv4Private(address);
  const g = ipv6Groups(address);
  if (!g) return false;
  const embeddedV4 = () => `${g[6]! >> 8}.${g[6]! & 255}.${g[7]! >> 8}.${g[7]! & 255}`;
  const zeroPrefix = g.slice(0, 5).every((x) => x === 0);
  if (zeroPrefix && g[5] === 0xffff) return ipv4Private(embeddedV4()); // IPv4-mapped
  if (g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((x) => x === 0))
    return ipv4Private(embeddedV4()); // NAT64
  if (zeroPrefix && g[5] === 0 && g[6] === 0 && (g[7] === 0 || g[7] === 1)) return true; // :: and ::1
  return (
    (g[0]! & 0xfe00) === 0xfc00 || // unique local fc00::/7
    (g[0]! & 0xffc0) === 0xfe80 || // link-local fe80::/10
    (g[0]! & 0xff00) === 0xff00 // multicast
  );
}

/** Every address of a name, by the system resolver (loaded on first use: only Node-like runtimes have it). */
async function systemLookup(name: string): Promise<string[]> {
  const { lookup } = await import('node:dns/promises');
  return (await lookup(name, { all: true })).map((entry) => entry.address);
}

/**
 * With `blockPrivateNetworks`, refuses a target on a local or private network — by name or literal first, then
 * by every address the name resolves to (a public-looking name may point at 127.0.0.1).
 */
async function checkTarget(url: URL, what: string, options: AuthHttpOptions): Promise<void> {
  if (!options.blockPrivateNetworks) return;
  const host = url.hostname;
  const refuse = () =>
    new AuthorizationError(
      'blocked-target',
      `The ${what} at ${url.origin} is on a local or private network; refused (allowPrivateNetworks opts in)`,
    );
  if (isLoopbackHost(host) || isPrivateAddress(host)) throw refuse();
  if (isIpv4(host) || host.startsWith('[')) return; // an IP literal, checked above
  const resolve = options.lookup ?? (options.fetch ? undefined : systemLookup);
  if (!resolve) return;
  let addresses: readonly string[];
  try {
    addresses = await resolve(host);
  } catch (error) {
    throw new AuthorizationError('discovery', `Could not resolve the ${what} host ${host}`, { cause: error });
  }
  if (addresses.some(isPrivateAddress)) throw refuse();
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
    await checkTarget(current, what, options);
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
