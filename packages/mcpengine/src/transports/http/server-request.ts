/**
 * The request seam of the HTTP server: what the web-standard handler needs from a request beyond the `Request`
 * itself, and the fast path an adapter may offer for it.
 *
 * The handler takes any web `Request`. An adapter (today the Node one, node.ts) may hand it a request that
 * also carries a `RequestSeam` under `REQUEST_SEAM`: the path without parsing the URL, the body read straight
 * from the socket, abort callbacks without an `AbortSignal`, the peer address, header occurrence counts. The
 * handler asks through the functions below and falls back to the web `Request` when there is no seam. This
 * module imports nothing from Node and nothing from an adapter: adapters depend on it, never the reverse.
 */

/** How reading a whole request body ended. */
export type BodyOutcome =
  | { readonly kind: 'body'; readonly bytes: Uint8Array }
  /** More than the limit arrived; the rest is left unread. */
  | { readonly kind: 'too-large' }
  /** The client went away mid-body, or the stream failed. */
  | { readonly kind: 'failed' }
  /** `cancel()` was called first. */
  | { readonly kind: 'cancelled' };

/** Reads a request body whole, up to a limit. `cancel()` stops reading and settles `collect` as cancelled. */
export interface BodyCollector {
  collect(limit: number): Promise<BodyOutcome>;
  cancel(): void;
}

export const TOO_LARGE: BodyOutcome = Object.freeze({ kind: 'too-large' });
export const FAILED: BodyOutcome = Object.freeze({ kind: 'failed' });
export const CANCELLED: BodyOutcome = Object.freeze({ kind: 'cancelled' });

/** The chunks of a body as one byte array (the chunk itself when there is one). */
export function concatenated(chunks: readonly Uint8Array[], size: number): Uint8Array {
  if (chunks.length === 1) return chunks[0]!;
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

/** What an adapter's request offers the handler beyond the web `Request`. */
export interface RequestSeam {
  /** The URL's path, known without parsing the URL. */
  readonly pathname: string;
  /** The request's URL, parsed once. */
  parsedUrl(): URL;
  /**
   * The body read by the adapter, once: `null` without a body, `undefined` when it cannot (the body is already
   * a web stream, or was taken), so the web body is read instead.
   */
  takeBody(): BodyCollector | null | undefined;
  /** Calls `listener` once the client goes away (at once if it already has). */
  onAbort(listener: () => void): void;
  /** The client's address (of the last proxy, behind one). */
  peer(): string | undefined;
}

/** The key under which an adapter's request carries its `RequestSeam`. */
export const REQUEST_SEAM: unique symbol = Symbol('mcpengine.requestSeam');

/** The key under which an adapter's headers count how often a header was sent. */
export const HEADER_OCCURRENCES: unique symbol = Symbol('mcpengine.headerOccurrences');

interface SeamedRequest {
  readonly [REQUEST_SEAM]?: RequestSeam;
}

interface CountingHeaders {
  readonly [HEADER_OCCURRENCES]?: (name: string) => number;
}

function seamOf(request: Request): RequestSeam | undefined {
  return (request as SeamedRequest)[REQUEST_SEAM];
}

/** A web body stream read whole, up to a limit. */
class WebBodyCollector implements BodyCollector {
  readonly #body: ReadableStream<Uint8Array>;
  #reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  #cancelled = false;

  constructor(body: ReadableStream<Uint8Array>) {
    this.#body = body;
  }

  async collect(limit: number): Promise<BodyOutcome> {
    const chunks: Uint8Array[] = [];
    let size = 0;
    try {
      // Throws when the body is already being read (or was read) by someone else.
      const reader = (this.#reader = this.#body.getReader());
      for (;;) {
        const { value, done } = await reader.read();
        if (this.#cancelled) return CANCELLED;
        if (done) return { kind: 'body', bytes: concatenated(chunks, size) };
        size += value.byteLength;
        if (size > limit) {
          void reader.cancel().catch(() => {});
          return TOO_LARGE;
        }
        chunks.push(value);
      }
    } catch {
      return this.#cancelled ? CANCELLED : FAILED;
    }
  }

  cancel(): void {
    this.#cancelled = true;
    void this.#reader?.cancel().catch(() => {});
  }
}

/**
 * A collector for the body of `request`, or `null` when it has none. Through an adapter's seam the body is read
 * the adapter's way (unless the web body exists already).
 */
export function bodyCollector(request: Request): BodyCollector | null {
  const seam = seamOf(request);
  if (seam !== undefined) {
    const collector = seam.takeBody();
    if (collector !== undefined) return collector;
  }
  const body = request.body;
  return body === null ? null : new WebBodyCollector(body);
}

/** The request's URL as a `URL` (parsed once for a request that came through an adapter). */
export function requestUrl(request: Request): URL {
  const seam = seamOf(request);
  return seam !== undefined ? seam.parsedUrl() : new URL(request.url);
}

/** The URL's path of a request that came through an adapter, known without parsing; undefined otherwise. */
export function requestPathname(request: Request): string | undefined {
  return seamOf(request)?.pathname;
}

/** Calls `listener` once `request` is aborted (the client went away), without an `AbortSignal` when it can. */
export function onRequestAbort(request: Request, listener: () => void): void {
  const seam = seamOf(request);
  if (seam !== undefined) {
    seam.onAbort(listener);
    return;
  }
  const signal = request.signal;
  if (signal.aborted) listener();
  else signal.addEventListener('abort', listener, { once: true });
}

/**
 * How many times a header was sent, when that is known: for requests from an adapter that keeps the raw header
 * list. A web-standard `Headers` has already joined repeated headers into one value: undefined.
 */
export function headerOccurrences(headers: Headers, name: string): number | undefined {
  return (headers as CountingHeaders)[HEADER_OCCURRENCES]?.(name);
}

/** The client's address, when the request came through an adapter that knows it. */
export function peerAddress(request: Request): string | undefined {
  return seamOf(request)?.peer();
}

/** Whether `request` came through an adapter (its JSON answers can then be light, see json-reply.ts). */
export function cameThroughAdapter(request: Request): boolean {
  return seamOf(request) !== undefined;
}

/**
 * Makes `target` (the prototype of a light stand-in) answer every member of `proto` it does not define itself
 * by delegating to the real object `real(self)` returns; `instanceof` the real class then holds too.
 */
export function delegateTo<T extends object>(
  target: object,
  proto: T,
  own: ReadonlySet<PropertyKey>,
  real: (self: never) => T,
): void {
  for (const key of Reflect.ownKeys(proto)) {
    if (key === 'constructor' || own.has(key)) continue;
    const descriptor = Object.getOwnPropertyDescriptor(proto, key)!;
    if (descriptor.get) {
      Object.defineProperty(target, key, {
        configurable: true,
        enumerable: descriptor.enumerable ?? false,
        get(this: never) {
          return Reflect.get(proto, key, real(this));
        },
      });
    } else if (typeof descriptor.value === 'function') {
      const method = descriptor.value as (...args: unknown[]) => unknown;
      Object.defineProperty(target, key, {
        configurable: true,
        writable: true,
        enumerable: descriptor.enumerable ?? false,
        value(this: never, ...args: unknown[]) {
          return method.apply(real(this), args);
        },
      });
    }
  }
  Object.setPrototypeOf(target, proto);
}
