/**
 * The `Request` that `toNodeHandler` hands to a handler: method, URL, headers, signal and body come straight
 * from Node's `IncomingMessage`.
 *
 * A real web `Request` costs more than everything else in a small MCP exchange: undici validates every header
 * into a `Headers`, wraps the body in a web stream (`Readable.toWeb`) and follows the abort signal. This object
 * is a `Request` (`instanceof` holds, and every member works): it answers `method`, `url`, `headers.get/has`
 * and `signal` itself, and builds the real `Request` — exactly the one the adapter used to build — only when
 * something asks for anything else (an `authenticate` hook calling `request.json()`, say), then delegates to
 * it. It also carries the handler's request seam (server-request.ts): the handler reads the body straight from
 * the Node stream and routes on `pathname` without parsing the URL. The dependency goes one way: this adapter
 * imports the seam; the web-standard handler never imports this module.
 */
import type { IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import {
  CANCELLED,
  concatenated,
  delegateTo,
  FAILED,
  HEADER_OCCURRENCES,
  REQUEST_SEAM,
  TOO_LARGE,
  type BodyCollector,
  type BodyOutcome,
  type RequestSeam,
} from './server-request.js';

/**
 * The body read straight from the Node stream: one promise for the whole body, settled from the stream's events
 * (a web stream in between would cost a promise per chunk). What is over the limit, or arrives after `cancel()`,
 * is left unread, not destroyed: the socket must still carry the answer (413, 408), and `toNodeHandler` closes
 * the connection after it because the request is incomplete.
 */
class NodeBodyCollector implements BodyCollector {
  readonly #req: IncomingMessage;
  #finish: ((outcome: BodyOutcome) => void) | undefined;
  #settled = false;

  constructor(req: IncomingMessage) {
    this.#req = req;
  }

  collect(limit: number): Promise<BodyOutcome> {
    const req = this.#req;
    return new Promise((resolve) => {
      if (this.#settled) {
        resolve(CANCELLED);
        return;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      const onData = (chunk: Buffer): void => {
        size += chunk.byteLength;
        if (size > limit) finish(TOO_LARGE);
        else chunks.push(chunk);
      };
      const onEnd = (): void => finish({ kind: 'body', bytes: concatenated(chunks, size) });
      const onFailure = (): void => finish(FAILED);
      // 'close' after 'end' finds the body settled; before it, the client went away mid-body.
      const finish = (outcome: BodyOutcome): void => {
        if (this.#settled) return;
        this.#settled = true;
        this.#finish = undefined;
        req.off('data', onData);
        req.off('end', onEnd);
        req.off('close', onFailure);
        // The 'error' listener stays: an error emitted later with none would crash the process.
        if (outcome.kind !== 'body') req.pause();
        resolve(outcome);
      };
      this.#finish = finish;
      req.on('data', onData);
      req.on('end', onEnd);
      req.on('error', onFailure);
      req.on('close', onFailure);
    });
  }

  cancel(): void {
    if (this.#finish !== undefined) this.#finish(CANCELLED);
    else this.#settled = true;
  }
}

/** The URL of a Node request: its target resolved against its `Host` (may throw on a malformed one). */
export function nodeRequestUrl(req: IncomingMessage): URL {
  return new URL(req.url ?? '/', `http://${rawHost(req) ?? 'localhost'}`);
}

/** The first `Host` header of a Node request, read from the raw headers (`req.headers` is built lazily). */
export function rawHost(req: IncomingMessage): string | undefined {
  const raw = req.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) if (isHeaderName(raw[i]!, 'host')) return raw[i + 1];
  return undefined;
}

/**
 * Whether header name `raw` (as sent) is `lower` (a lowercase name): compared without lowercasing `raw`, which
 * would allocate a string per header per lookup. Only ASCII letters fold; every other character must be equal.
 */
function isHeaderName(raw: string, lower: string): boolean {
  const length = lower.length;
  if (raw.length !== length) return false;
  for (let i = 0; i < length; i++) {
    const want = lower.charCodeAt(i);
    const got = raw.charCodeAt(i);
    if (got !== want && ((got | 0x20) !== want || want < 0x61 || want > 0x7a)) return false;
  }
  return true;
}

/** `name` in lower case; the engine asks in lower case already, and checking is cheaper than converting. */
function lowerCased(name: string): string {
  for (let i = 0; i < name.length; i++) {
    const c = name.charCodeAt(i);
    if (c >= 0x41 && c <= 0x5a) return name.toLowerCase();
  }
  return name;
}

/**
 * Request headers, joined per name like `Headers.append` joins them (", "), read without building `Headers`.
 * A lookup scans the raw name/value list: a request carries about ten headers and the engine asks for a
 * handful, so this is cheaper than building a map of lowercased names for every request.
 */
class NodeHeaders {
  readonly #raw: readonly string[];
  #real: Headers | undefined;

  constructor(raw: readonly string[]) {
    this.#raw = raw;
  }

  get(name: string): string | null {
    if (this.#real !== undefined) return this.#real.get(name);
    const lower = lowerCased(name);
    const raw = this.#raw;
    let value: string | null = null;
    for (let i = 0; i + 1 < raw.length; i += 2) {
      if (!isHeaderName(raw[i]!, lower)) continue;
      value = value === null ? raw[i + 1]! : `${value}, ${raw[i + 1]!}`;
    }
    return value;
  }

  has(name: string): boolean {
    if (this.#real !== undefined) return this.#real.has(name);
    const lower = lowerCased(name);
    const raw = this.#raw;
    for (let i = 0; i + 1 < raw.length; i += 2) if (isHeaderName(raw[i]!, lower)) return true;
    return false;
  }

  /** How many times a header occurs in the request as sent (`get` joins repeated ones). */
  [HEADER_OCCURRENCES](name: string): number {
    const lower = lowerCased(name);
    const raw = this.#raw;
    let count = 0;
    for (let i = 0; i + 1 < raw.length; i += 2) if (isHeaderName(raw[i]!, lower)) count++;
    return count;
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

export class NodeRequest implements RequestSeam {
  readonly method: string;
  readonly headers: Headers;
  /** The URL's path, which is all that routing needs: the whole `URL` is parsed only when asked for. */
  readonly pathname: string;
  #url: URL | undefined;
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

  /**
   * `pathname`: the path of `url`, or, when the adapter has not parsed the URL (it saw the same target and Host
   * just before), the path that parsing it would give.
   */
  constructor(req: IncomingMessage, pathname: string, url?: URL) {
    this.#req = req;
    this.method = req.method ?? 'GET';
    this.pathname = pathname;
    this.#url = url;
    this.headers = new NodeHeaders(req.rawHeaders) as unknown as Headers;
    this.#hasBody = this.method !== 'GET' && this.method !== 'HEAD';
  }

  /** This request's seam for the handler (server-request.ts): the request itself. */
  get [REQUEST_SEAM](): RequestSeam {
    return this;
  }

  get url(): string {
    return this.parsedUrl().href;
  }

  /** The request's URL: the request target resolved against its Host, as the adapter validated it. */
  parsedUrl(): URL {
    return (this.#url ??= nodeRequestUrl(this.#req));
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
  onAbort(listener: () => void): void {
    if (this.#aborted) listener();
    else (this.#onAbort ??= []).push(listener);
  }

  /**
   * The body read straight from the Node stream, once: `null` without a body, `undefined` when the real
   * `Request` (and so the body) exists already or the body was taken.
   */
  takeBody(): BodyCollector | null | undefined {
    if (!this.#hasBody) return null;
    if (this.#real !== undefined || this.#bodyTaken) return undefined;
    this.#bodyTaken = true;
    return new NodeBodyCollector(this.#req);
  }

  /** The address of the client (of the last proxy, behind one). */
  peer(): string | undefined {
    return this.#req.socket?.remoteAddress;
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

delegateTo(
  NodeRequest.prototype,
  Request.prototype,
  new Set(['method', 'url', 'headers', 'signal']),
  (self: NodeRequest) => NodeRequest.real(self),
);
delegateTo(NodeHeaders.prototype, Headers.prototype, new Set(['get', 'has']), (self: NodeHeaders) =>
  NodeHeaders.real(self),
);
