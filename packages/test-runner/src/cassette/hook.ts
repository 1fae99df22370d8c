/**
 * The cassette hook: loaded into the server process with `node --import` (the runner puts it in NODE_OPTIONS, so
 * it also reaches a node started through npx or a shell), it replaces `globalThis.fetch` and the `request`/`get`
 * functions of `node:http` and `node:https`. Every framework on Node calls out through one of those (axios, got,
 * node-fetch and SDKs use `http(s).request`; the built-in fetch, ky and the official MCP SDKs use fetch), so the
 * server needs no change to be recorded or replayed.
 *
 * record: the real request is made, its exchange redacted and appended to the journal; the server gets the real
 * answer. replay: the answer comes from the cassette; a request it does not hold fails inside the server (a fetch
 * TypeError / an `error` event, as a network failure would) and is written to the journal as a miss, which fails
 * the test that caused it. Responses are buffered whole (streamed upstream bodies are replayed in one piece).
 */
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import type * as HttpModule from 'node:http';
import { createRequire, syncBuiltinESMExports } from 'node:module';
import { Readable, Writable } from 'node:stream';
import {
  describeRequest,
  ENV,
  Player,
  redactRequest,
  redactResponse,
  secretValues,
  type CassetteFile,
  type JournalEntry,
  type RecordedRequest,
  type RecordedResponse,
} from './format.js';

export interface CassetteHookOptions {
  readonly mode: 'record' | 'replay';
  /** The cassette to replay from (replay mode). */
  readonly cassette?: CassetteFile;
  /** Why there is nothing to replay, when the cassette file is missing. */
  readonly missingCassette?: string;
  readonly journal: (entry: JournalEntry) => void;
  /** Secret values by variable name. */
  readonly secrets: Readonly<Record<string, string>>;
}

// The CommonJS module objects, which (unlike ESM namespaces) can be patched; syncBuiltinESMExports then updates
// the named ESM exports too.
const require = createRequire(import.meta.url);
const http = require('node:http') as typeof HttpModule;
const https = require('node:https') as typeof HttpModule;
type RequestFn = typeof http.request;

function encodeBody(buffer: Buffer): { body: string; encoding: 'utf8' | 'base64' } {
  const text = buffer.toString('utf8');
  return Buffer.from(text, 'utf8').equals(buffer)
    ? { body: text, encoding: 'utf8' }
    : { body: buffer.toString('base64'), encoding: 'base64' };
}

function decodeBody(response: RecordedResponse): Buffer {
  return Buffer.from(response.body, response.encoding === 'base64' ? 'base64' : 'utf8');
}

function missMessage(request: RecordedRequest, options: CassetteHookOptions): string {
  return `mcpengine cassette: no recorded response for ${describeRequest(request)}${options.missingCassette === undefined ? '' : ` (${options.missingCassette})`}`;
}

/** Patches this process; returns a function that restores the originals. */
export function installCassetteHook(options: CassetteHookOptions): () => void {
  const player = new Player(options.cassette ?? { version: 1, interactions: [] });
  const originalFetch = globalThis.fetch;
  const originals = { http: http.request, httpGet: http.get, https: https.request, httpsGet: https.get };

  globalThis.fetch = async function cassetteFetch(
    input: Parameters<typeof fetch>[0],
    init?: RequestInit,
  ): Promise<Response> {
    const request = new Request(input, init);
    const body = request.body === null ? undefined : await request.clone().text();
    const live: RecordedRequest = {
      method: request.method,
      url: request.url,
      headers: Object.fromEntries(request.headers),
      ...(body === undefined ? {} : { body }),
    };
    const redacted = redactRequest(live, options.secrets);
    if (options.mode === 'replay') {
      const hit = player.find(redacted);
      if (hit === undefined) {
        options.journal({ miss: redacted, at: Date.now() });
        throw new TypeError(missMessage(redacted, options));
      }
      const status = hit.response.status;
      return new Response(status === 204 || status === 304 ? null : decodeBody(hit.response), {
        status,
        statusText: hit.response.statusText,
        headers: hit.response.headers,
      });
    }
    const response = await originalFetch(request);
    const buffer = Buffer.from(await response.arrayBuffer());
    const recorded: RecordedResponse = {
      status: response.status,
      statusText: response.statusText,
      headers: Object.fromEntries(response.headers),
      ...encodeBody(buffer),
    };
    options.journal({ recorded: { request: redacted, response: redactResponse(recorded, options.secrets) } });
    return new Response(response.status === 204 || response.status === 304 ? null : buffer, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };

  const patch = (original: RequestFn, protocol: 'http:' | 'https:'): RequestFn =>
    function cassetteRequest(...args: unknown[]) {
      return new CassetteClientRequest(args, protocol, original, player, options) as never;
    } as unknown as RequestFn;
  http.request = patch(originals.http, 'http:');
  https.request = patch(originals.https, 'https:');
  http.get = ((...args: unknown[]) => {
    const req = (http.request as (...a: unknown[]) => HttpModule.ClientRequest)(...args);
    req.end();
    return req;
  }) as typeof http.get;
  https.get = ((...args: unknown[]) => {
    const req = (https.request as (...a: unknown[]) => HttpModule.ClientRequest)(...args);
    req.end();
    return req;
  }) as typeof https.get;
  syncBuiltinESMExports();

  return () => {
    globalThis.fetch = originalFetch;
    http.request = originals.http;
    http.get = originals.httpGet;
    https.request = originals.https;
    https.get = originals.httpsGet;
    syncBuiltinESMExports();
  };
}

interface Target {
  url: URL;
  method: string;
  headers: Record<string, string>;
  options: HttpModule.RequestOptions;
}

function targetOf(
  args: unknown[],
  protocol: 'http:' | 'https:',
): { target: Target; callback?: (res: HttpModule.IncomingMessage) => void } {
  const callback = args.find(
    (arg): arg is (res: HttpModule.IncomingMessage) => void => typeof arg === 'function',
  );
  const first = args[0];
  const base = typeof first === 'string' || first instanceof URL ? new URL(String(first)) : undefined;
  const options = ((base === undefined ? first : args[1]) ?? {}) as HttpModule.RequestOptions & {
    href?: string;
  };
  const url = base ?? new URL(`${options.protocol ?? protocol}//localhost`);
  if (options.protocol) url.protocol = options.protocol;
  const host = options.hostname ?? options.host;
  if (host) {
    url.hostname = String(host).replace(/:\d+$/, '');
    if (/:\d+$/.test(String(host)) && options.hostname === undefined)
      url.port = String(host).split(':').pop()!;
  }
  if (options.port !== undefined && options.port !== null) url.port = String(options.port);
  if (options.path) {
    const [pathname, search] = options.path.split('?');
    url.pathname = pathname ?? '/';
    url.search = search === undefined ? '' : `?${search}`;
  }
  if (options.auth) {
    const [user, password] = options.auth.split(':');
    url.username = user ?? '';
    url.password = password ?? '';
  }
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(options.headers ?? {}))
    if (value !== undefined)
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
  return {
    target: { url, method: (options.method ?? 'GET').toUpperCase(), headers, options },
    ...(callback === undefined ? {} : { callback }),
  };
}

/** Stands in for `HttpModule.ClientRequest`: collects the body, then answers from the cassette or the real upstream. */
class CassetteClientRequest extends Writable {
  readonly #target: Target;
  readonly #chunks: Buffer[] = [];
  readonly #original: RequestFn;
  readonly #player: Player;
  readonly #options: CassetteHookOptions;
  aborted = false;
  readonly method: string;
  readonly path: string;
  readonly host: string;
  readonly protocol: string;

  constructor(
    args: unknown[],
    protocol: 'http:' | 'https:',
    original: RequestFn,
    player: Player,
    options: CassetteHookOptions,
  ) {
    super();
    const { target, callback } = targetOf(args, protocol);
    this.#target = target;
    this.#original = original;
    this.#player = player;
    this.#options = options;
    this.method = target.method;
    this.path = `${target.url.pathname}${target.url.search}`;
    this.host = target.url.hostname;
    this.protocol = target.url.protocol;
    if (callback !== undefined) this.once('response', callback);
  }

  setHeader(name: string, value: string | number | readonly string[]): this {
    this.#target.headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
    return this;
  }
  getHeader(name: string): string | undefined {
    return this.#target.headers[name.toLowerCase()];
  }
  getHeaders(): Record<string, string> {
    return { ...this.#target.headers };
  }
  hasHeader(name: string): boolean {
    return name.toLowerCase() in this.#target.headers;
  }
  removeHeader(name: string): void {
    delete this.#target.headers[name.toLowerCase()];
  }
  setTimeout(_ms: number, callback?: () => void): this {
    void callback;
    return this;
  }
  setNoDelay(): void {}
  setSocketKeepAlive(): void {}
  flushHeaders(): void {}
  abort(): void {
    this.aborted = true;
    this.destroy();
  }

  override _write(
    chunk: Buffer | string,
    encoding: BufferEncoding,
    done: (error?: Error | null) => void,
  ): void {
    this.#chunks.push(typeof chunk === 'string' ? Buffer.from(chunk, encoding) : chunk);
    done();
  }

  override _final(done: (error?: Error | null) => void): void {
    done();
    const body = Buffer.concat(this.#chunks);
    const live: RecordedRequest = {
      method: this.#target.method,
      url: this.#target.url.toString(),
      headers: this.#target.headers,
      ...(body.length === 0 ? {} : { body: body.toString('utf8') }),
    };
    const redacted = redactRequest(live, this.#options.secrets);
    if (this.#options.mode === 'replay') {
      const hit = this.#player.find(redacted);
      if (hit === undefined) {
        this.#options.journal({ miss: redacted, at: Date.now() });
        process.nextTick(() => this.emit('error', new Error(missMessage(redacted, this.#options))));
        return;
      }
      process.nextTick(() => this.#respond(hit.response, decodeBody(hit.response)));
      return;
    }
    const { url } = this.#target;
    const real = this.#original(
      {
        ...this.#target.options,
        protocol: url.protocol,
        hostname: url.hostname,
        port: url.port === '' ? undefined : Number(url.port),
        path: `${url.pathname}${url.search}`,
        method: this.#target.method,
        headers: this.#target.headers,
      },
      (res: HttpModule.IncomingMessage) => {
        const parts: Buffer[] = [];
        res.on('data', (chunk: Buffer) => parts.push(chunk));
        res.on('error', (error: Error) => this.emit('error', error));
        res.on('end', () => {
          const buffer = Buffer.concat(parts);
          const headers: Record<string, string> = {};
          for (const [name, value] of Object.entries(res.headers))
            if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : String(value);
          const recorded: RecordedResponse = {
            status: res.statusCode ?? 0,
            statusText: res.statusMessage ?? '',
            headers,
            ...encodeBody(buffer),
          };
          this.#options.journal({
            recorded: { request: redacted, response: redactResponse(recorded, this.#options.secrets) },
          });
          this.#respond(recorded, buffer);
        });
      },
    );
    real.on('error', (error: Error) => this.emit('error', error));
    real.end(body.length === 0 ? undefined : body);
  }

  #respond(response: RecordedResponse, body: Buffer): void {
    const res = Readable.from(body.length === 0 ? [] : [body]) as Readable & Record<string, unknown>;
    res['statusCode'] = response.status;
    res['statusMessage'] = response.statusText;
    res['headers'] = { ...response.headers };
    res['rawHeaders'] = Object.entries(response.headers).flat();
    res['httpVersion'] = '1.1';
    res['complete'] = true;
    this.emit('response', res);
  }
}

function installFromEnvironment(): void {
  const mode = process.env[ENV.mode];
  if (mode !== 'record' && mode !== 'replay') return;
  const file = process.env[ENV.file] ?? '';
  const journalPath = process.env[ENV.journal];
  let cassette: CassetteFile | undefined;
  let missingCassette: string | undefined;
  if (mode === 'replay') {
    if (existsSync(file)) cassette = JSON.parse(readFileSync(file, 'utf8')) as CassetteFile;
    else missingCassette = `the cassette ${file} does not exist: record it first`;
  }
  installCassetteHook({
    mode,
    ...(cassette === undefined ? {} : { cassette }),
    ...(missingCassette === undefined ? {} : { missingCassette }),
    secrets: secretValues((process.env[ENV.secrets] ?? '').split(',').filter(Boolean), process.env),
    journal: (entry) => {
      if (journalPath !== undefined) appendFileSync(journalPath, `${JSON.stringify(entry)}\n`);
    },
  });
}

installFromEnvironment();
