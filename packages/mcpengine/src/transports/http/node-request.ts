/**
 * The `Request` that `toNodeHandler` hands to a handler: method, URL, headers, signal and body come straight
 * from Node's `IncomingMessage`.
 *
 * A real web `Request` costs more than everything else in a small MCP exchange: undici validates every header
 * into a `Headers`, wraps the body in a web stream (`Readable.toWeb`) and follows the abort signal. This object
 * is a `Request` (`instanceof` holds, and every member works): it answers `method`, `url`, `headers.get/has`
 * and `signal` itself, and builds the real `Request` — exactly the one the adapter used to build — only when
 * something asks for anything else (an `authenticate` hook calling `request.json()`, say), then delegates to
 * it. The engine's own handler reads the body through `nodeBodyReader`, straight from the Node stream.
 */
import type { IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';

/** What the handler needs from a body reader (the subset of `ReadableStreamDefaultReader` it uses). */
export interface BodyReader {
  read(): Promise<{ done: true; value?: undefined } | { done: false; value: Uint8Array }>;
  cancel(): Promise<void>;
}

const NODE_BODY = Symbol('mcpengine.nodeBody');
const NODE_URL = Symbol('mcpengine.nodeUrl');

/** The request's URL as a `URL`: the one `toNodeHandler` already parsed, or parsed now. */
export function requestUrl(request: Request): URL {
  return (request as { [NODE_URL]?: URL })[NODE_URL] ?? new URL(request.url);
}

/** The first `Host` header of a Node request, read from the raw headers (`req.headers` is built lazily). */
export function rawHost(req: IncomingMessage): string | undefined {
  const raw = req.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i]!;
    if (name.length === 4 && name.toLowerCase() === 'host') return raw[i + 1];
  }
  return undefined;
}

/**
 * The Node stream as a body reader. Like the web stream it replaces: chunks in order, `{ done: true }` at the
 * end, a rejection when the client goes away mid-body, and `cancel()` stops reading (settling a pending read as
 * done). At most one chunk waits here: the stream is paused until it is read.
 */
class NodeBodyReader implements BodyReader {
  readonly #req: IncomingMessage;
  readonly #queue: Buffer[] = [];
  #ended = false;
  #failure: Error | undefined;
  #waiting:
    | { resolve(result: Awaited<ReturnType<BodyReader['read']>>): void; reject(error: Error): void }
    | undefined;

  constructor(req: IncomingMessage) {
    this.#req = req;
    req.on('data', (chunk: Buffer) => {
      const waiting = this.#waiting;
      if (waiting) {
        this.#waiting = undefined;
        waiting.resolve({ done: false, value: chunk });
      } else {
        this.#queue.push(chunk);
        req.pause();
      }
    });
    req.on('end', () => {
      this.#ended = true;
      this.#settle();
    });
    req.on('error', (error) => {
      this.#failure ??= error;
      this.#settle();
    });
    req.on('close', () => {
      if (!this.#ended) this.#failure ??= new Error('the request body was aborted');
      this.#settle();
    });
  }

  read(): Promise<{ done: true; value?: undefined } | { done: false; value: Uint8Array }> {
    const chunk = this.#queue.shift();
    if (chunk !== undefined) {
      if (this.#queue.length === 0 && !this.#ended) this.#req.resume();
      return Promise.resolve({ done: false, value: chunk });
    }
    if (this.#ended) return Promise.resolve({ done: true });
    if (this.#failure) return Promise.reject(this.#failure);
    return new Promise((resolve, reject) => (this.#waiting = { resolve, reject }));
  }

  /**
   * Stops reading. The rest of the body is left unread, not destroyed: the socket must still carry the answer
   * (413, 408), and `toNodeHandler` closes the connection after it because the request is incomplete.
   */
  cancel(): Promise<void> {
    this.#ended = true;
    this.#queue.length = 0;
    this.#settle();
    this.#req.pause();
    return Promise.resolve();
  }

  /** Settles a pending read once the stream has ended or failed. */
  #settle(): void {
    const waiting = this.#waiting;
    if (!waiting) return;
    if (this.#ended) {
      this.#waiting = undefined;
      waiting.resolve({ done: true });
    } else if (this.#failure) {
      this.#waiting = undefined;
      waiting.reject(this.#failure);
    }
  }
}

/**
 * The body of a request built by `toNodeHandler`, read from the Node stream: a reader, `null` when the request
 * has no body, or `undefined` when the request is not one of ours (or its body is already someone else's) and
 * must be read through `request.body`.
 */
export function nodeBodyReader(request: Request): BodyReader | null | undefined {
  const take = (request as { [NODE_BODY]?: () => BodyReader | null | undefined })[NODE_BODY];
  return take === undefined ? undefined : take.call(request);
}

/** Request headers, joined per name like `Headers.append` joins them (", "), read without building `Headers`. */
class NodeHeaders {
  readonly #raw: readonly string[];
  readonly #values = new Map<string, string>();
  #real: Headers | undefined;

  constructor(raw: readonly string[]) {
    this.#raw = raw;
    for (let i = 0; i + 1 < raw.length; i += 2) {
      const name = raw[i]!.toLowerCase();
      const previous = this.#values.get(name);
      this.#values.set(name, previous === undefined ? raw[i + 1]! : `${previous}, ${raw[i + 1]!}`);
    }
  }

  get(name: string): string | null {
    if (this.#real !== undefined) return this.#real.get(name);
    return this.#values.get(name.toLowerCase()) ?? null;
  }

  has(name: string): boolean {
    if (this.#real !== undefined) return this.#real.has(name);
    return this.#values.has(name.toLowerCase());
  }

  /** The real `Headers`, for every other member (and from then on for `get` and `has` too). */
  static real(headers: NodeHeaders): Headers {
    if (headers.#real === undefined) {
      const real = new Headers();
      for (let i = 0; i + 1 < headers.#raw.length; i += 2)
        real.append(headers.#raw[i]!, headers.#raw[i + 1]!);
      headers.#real = real;
    }
    return headers.#real;
  }
}

export class NodeRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: Headers;
  readonly #req: IncomingMessage;
  readonly #hasBody: boolean;
  #bodyTaken = false;
  #real: Request | undefined;
  /**
   * The abort state, kept without an `AbortSignal` until someone asks for `signal`: creating one and listening
   * to it costs several microseconds, more than a whole small MCP exchange, and the engine only needs a callback.
   */
  #aborted = false;
  #controller: AbortController | undefined;
  #onAbort: (() => void)[] | undefined;

  readonly [NODE_URL]: URL;

  constructor(req: IncomingMessage, url: URL) {
    this.#req = req;
    this.method = req.method ?? 'GET';
    this.url = url.href;
    this[NODE_URL] = url;
    this.headers = new NodeHeaders(req.rawHeaders) as unknown as Headers;
    this.#hasBody = this.method !== 'GET' && this.method !== 'HEAD';
  }

  /** Aborted when the client goes away before the response is complete. */
  get signal(): AbortSignal {
    if (this.#controller === undefined) {
      this.#controller = new AbortController();
      if (this.#aborted) this.#controller.abort();
    }
    return this.#controller.signal;
  }

  /** The client went away: fires `signal` and the listeners of `onRequestAbort`, once. */
  static abort(request: NodeRequest): void {
    if (request.#aborted) return;
    request.#aborted = true;
    request.#controller?.abort();
    const listeners = request.#onAbort;
    request.#onAbort = undefined;
    if (listeners) for (const listener of listeners) listener();
  }

  /** Calls `listener` once the request is aborted (at once if it already is). */
  static onAbort(request: NodeRequest, listener: () => void): void {
    if (request.#aborted) listener();
    else (request.#onAbort ??= []).push(listener);
  }

  /** The Node stream as a body reader, once, unless the real `Request` (and so the body) exists already. */
  [NODE_BODY](): BodyReader | null | undefined {
    if (!this.#hasBody) return null;
    if (this.#real !== undefined || this.#bodyTaken) return undefined;
    this.#bodyTaken = true;
    return new NodeBodyReader(this.#req);
  }

  /** The real `Request`: what the adapter built before this class existed. */
  static real(request: NodeRequest): Request {
    if (request.#real === undefined) {
      const body = request.#hasBody && !request.#bodyTaken ? Readable.toWeb(request.#req) : null;
      request.#real = new Request(request.url, {
        method: request.method,
        headers: NodeHeaders.real(request.headers as unknown as NodeHeaders),
        body: body as ReadableStream<Uint8Array> | null,
        signal: request.signal,
        // Node's fetch requires this for streaming request bodies.
        ...({ duplex: 'half' } as object),
      });
    }
    return request.#real;
  }
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

/** Calls `listener` once `request` is aborted (the client went away), without an `AbortSignal` when it can. */
export function onRequestAbort(request: Request, listener: () => void): void {
  if (request instanceof NodeRequest) {
    NodeRequest.onAbort(request, listener);
    return;
  }
  const signal = request.signal;
  if (signal.aborted) listener();
  else signal.addEventListener('abort', listener, { once: true });
}

/** Whether `request` was built by `toNodeHandler` (its answers can then be light, see node-reply.ts). */
export function cameThroughNode(request: Request): boolean {
  return request instanceof NodeRequest;
}

delegateTo(
  NodeRequest.prototype,
  Request.prototype,
  new Set(['method', 'url', 'headers', 'signal']),
  (self: NodeRequest) => NodeRequest.real(self),
);
delegateTo(NodeHeaders.prototype, Headers.prototype, new Set(['get', 'has']), (self: NodeHeaders) =>
  NodeHeaders.real(self),
);
