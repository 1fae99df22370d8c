/**
 * A hand-driven HTTP peer for tests: it speaks Streamable HTTP (both eras) to a web-standard handler or a real
 * server, parses JSON and SSE answers, and records every message on a `WireTap`, so that each one the server
 * emits is checked against the official schema of the conversation's revision. It depends on no MCP
 * implementation, so the engine's tests and the repository's conformance tests share it.
 */
// Its callers assert on raw wire messages, whose shape is what they check: answers are typed `any` on purpose.
/* eslint-disable @typescript-eslint/no-explicit-any */
import { WireTap } from './wire-tap.js';

export type Fetcher = (request: Request) => Promise<Response>;

export interface SseEvent {
  id?: string;
  event?: string;
  data: string;
  retry?: number;
}

const openTaps: WireTap[] = [];

/** Asserts that every tap opened since the last call saw only schema-valid server messages. */
export function assertHttpTapsClean(): void {
  for (const tap of openTaps.splice(0)) tap.assertClean();
}

/** Incremental SSE parser over a response body. */
export class SseReader {
  readonly events: SseEvent[] = [];
  comments = 0;
  done = false;
  private consumed = 0;
  private buffer = '';
  private readonly reader: ReadableStreamDefaultReader<Uint8Array>;
  private readonly decoder = new TextDecoder();
  private pump: Promise<void> | undefined;
  private wake: (() => void) | undefined;
  error: unknown;

  constructor(
    body: ReadableStream<Uint8Array>,
    private readonly onEvent: (event: SseEvent) => void = () => {},
  ) {
    this.reader = body.getReader();
  }

  private start(): Promise<void> {
    this.pump ??= (async () => {
      try {
        for (;;) {
          const { value, done } = await this.reader.read();
          if (done) break;
          this.buffer += this.decoder.decode(value, { stream: true });
          this.parse();
          this.wake?.();
        }
      } catch (error) {
        this.error = error;
      } finally {
        this.done = true;
        this.wake?.();
      }
    })();
    return this.pump;
  }

  private parse(): void {
    let index: number;
    while ((index = this.buffer.search(/\r?\n\r?\n/)) >= 0) {
      const block = this.buffer.slice(0, index);
      this.buffer = this.buffer.slice(index + (this.buffer[index] === '\r' ? 4 : 2));
      const event: SseEvent = { data: '' };
      const data: string[] = [];
      let fields = 0;
      for (const line of block.split(/\r?\n/)) {
        if (line.startsWith(':')) {
          this.comments++;
          continue;
        }
        const colon = line.indexOf(':');
        const name = colon < 0 ? line : line.slice(0, colon);
        const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
        fields++;
        if (name === 'data') data.push(value);
        else if (name === 'id') event.id = value;
        else if (name === 'event') event.event = value;
        else if (name === 'retry') event.retry = Number(value);
      }
      if (fields === 0) continue;
      event.data = data.join('\n');
      this.events.push(event);
      this.onEvent(event);
    }
  }

  /** The next event not yet returned by `next` that matches, waiting up to `timeoutMs`. */
  async next(predicate: (e: SseEvent) => boolean = () => true, timeoutMs = 3_000): Promise<SseEvent> {
    void this.start();
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      for (let i = this.consumed; i < this.events.length; i++) {
        const event = this.events[i]!;
        if (predicate(event)) {
          this.consumed = i + 1;
          return event;
        }
      }
      if (this.done)
        throw new Error(`SSE stream ended without a matching event (${this.events.length} events)`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error('SSE: no matching event in time');
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
  }

  /** The next JSON-RPC message (an event with JSON data). */
  async message(predicate: (m: any) => boolean = () => true, timeoutMs = 3_000): Promise<any> {
    const event = await this.next((e) => e.data !== '' && predicate(JSON.parse(e.data)), timeoutMs);
    return JSON.parse(event.data);
  }

  /** Reads until the stream ends (or the timeout), returning every event. */
  async all(timeoutMs = 3_000): Promise<SseEvent[]> {
    void this.start();
    const deadline = Date.now() + timeoutMs;
    while (!this.done) {
      if (Date.now() > deadline) throw new Error('SSE: stream did not end in time');
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    return this.events;
  }

  messages(): any[] {
    return this.events.filter((e) => e.data !== '').map((e) => JSON.parse(e.data));
  }

  async cancel(): Promise<void> {
    await this.reader.cancel().catch(() => {});
  }
}

export interface Answer {
  status: number;
  headers: Headers;
  /** The parsed JSON body (JSON answers). */
  json?: any;
  /** The text body of non-JSON, non-SSE answers. */
  text?: string;
  /** SSE answers. */
  sse?: SseReader;
}

export const MODERN_VERSION = '2026-07-28';

export function modernMeta(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    'io.modelcontextprotocol/protocolVersion': MODERN_VERSION,
    'io.modelcontextprotocol/clientInfo': { name: 'http-test', version: '1.0.0' },
    'io.modelcontextprotocol/clientCapabilities': {},
    ...overrides,
  };
}

/** The Mcp-Name source of a method, for building modern headers. */
function nameOf(method: string, params: Record<string, unknown> | undefined): string | undefined {
  const key =
    method === 'tools/call' || method === 'prompts/get'
      ? 'name'
      : method === 'resources/read'
        ? 'uri'
        : undefined;
  const value = key ? params?.[key] : undefined;
  return typeof value === 'string' ? value : undefined;
}

/** One client conversation over HTTP (a legacy session, or a series of modern requests). */
export class HttpPeer {
  readonly tap: WireTap;
  sessionId: string | undefined;
  protocolVersion: string | undefined;

  constructor(
    readonly fetcher: Fetcher,
    readonly url = 'http://127.0.0.1/mcp',
    options: { validate?: boolean } = {},
  ) {
    this.tap = new WireTap({ validate: ['server'] });
    if (options.validate !== false) openTaps.push(this.tap);
  }

  private record(text: string): void {
    let value: any;
    try {
      value = JSON.parse(text);
    } catch {
      this.tap.record(text, 'server');
      return;
    }
    // Whole-request refusals carry an error without an id member, as the transport specs allow.
    const messages = Array.isArray(value) ? value : [value];
    if (messages.some((m) => m && typeof m === 'object' && ('id' in m || 'method' in m))) {
      this.tap.record(value, 'server');
    }
  }

  headers(extra: Record<string, string | undefined> = {}): Headers {
    const headers = new Headers({
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    });
    if (this.sessionId !== undefined) headers.set('mcp-session-id', this.sessionId);
    if (this.protocolVersion !== undefined) headers.set('mcp-protocol-version', this.protocolVersion);
    for (const [name, value] of Object.entries(extra)) {
      if (value === undefined) headers.delete(name);
      else headers.set(name, value);
    }
    return headers;
  }

  async send(
    body: unknown,
    options: { headers?: Record<string, string | undefined>; signal?: AbortSignal; method?: string } = {},
  ): Promise<Answer> {
    const text = typeof body === 'string' ? body : JSON.stringify(body);
    if (typeof body !== 'string' && body !== undefined) this.tap.record(body, 'client');
    const method = options.method ?? 'POST';
    const init: RequestInit = { method, headers: this.headers(options.headers) };
    if (method === 'POST') init.body = text;
    if (options.signal) init.signal = options.signal;
    const response = await this.fetcher(new Request(this.url, init));
    return this.read(response);
  }

  async read(response: Response): Promise<Answer> {
    const type = response.headers.get('content-type') ?? '';
    if (type.startsWith('text/event-stream') && response.body) {
      return {
        status: response.status,
        headers: response.headers,
        sse: new SseReader(response.body, (event) => {
          if (event.data !== '') this.record(event.data);
        }),
      };
    }
    const text = await response.text();
    if (type.startsWith('application/json') && text !== '') {
      this.record(text);
      return { status: response.status, headers: response.headers, json: JSON.parse(text) };
    }
    return { status: response.status, headers: response.headers, text };
  }

  /** Sends a request and returns its response message, whether it came as JSON or on an SSE stream. */
  async call(
    id: string | number,
    method: string,
    params?: Record<string, unknown>,
    headers?: Record<string, string | undefined>,
  ): Promise<{ answer: Answer; response: any; notifications: any[] }> {
    const message =
      params === undefined ? { jsonrpc: '2.0', id, method } : { jsonrpc: '2.0', id, method, params };
    const answer = await this.send(message, headers ? { headers } : {});
    if (answer.sse) {
      const response = await answer.sse.message((m) => m.id === id && ('result' in m || 'error' in m));
      const notifications = answer.sse.messages().filter((m) => !('id' in m));
      return { answer, response, notifications };
    }
    return { answer, response: answer.json, notifications: [] };
  }

  /** Legacy handshake: `initialize` then `notifications/initialized`. */
  async initialize(protocolVersion = '2025-11-25', capabilities: Record<string, unknown> = {}): Promise<any> {
    const answer = await this.send(
      {
        jsonrpc: '2.0',
        id: 'init',
        method: 'initialize',
        params: { protocolVersion, capabilities, clientInfo: { name: 'http-test', version: '1.0.0' } },
      },
      { headers: { 'mcp-protocol-version': undefined, 'mcp-session-id': undefined } },
    );
    if (answer.status !== 200) throw new Error(`initialize answered ${answer.status}`);
    this.sessionId = answer.headers.get('mcp-session-id') ?? undefined;
    this.protocolVersion = answer.json.result.protocolVersion;
    const initialized = await this.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    if (initialized.status !== 202)
      throw new Error(`notifications/initialized answered ${initialized.status}`);
    return answer.json.result;
  }

  /** A modern request with the right headers and `_meta` (each part overridable). */
  async modern(
    id: string | number,
    method: string,
    params: Record<string, unknown> = {},
    options: {
      meta?: Record<string, unknown>;
      headers?: Record<string, string | undefined>;
      signal?: AbortSignal;
    } = {},
  ): Promise<Answer> {
    const body = { jsonrpc: '2.0', id, method, params: { ...params, _meta: modernMeta(options.meta) } };
    const name = nameOf(method, params);
    const headers: Record<string, string | undefined> = {
      'mcp-protocol-version': MODERN_VERSION,
      'mcp-method': method,
      ...(name === undefined ? {} : { 'mcp-name': name }),
      ...options.headers,
    };
    return this.send(body, { headers, ...(options.signal ? { signal: options.signal } : {}) });
  }

  /** The modern response message of a request, JSON or SSE. */
  async modernCall(
    id: string | number,
    method: string,
    params: Record<string, unknown> = {},
    meta?: Record<string, unknown>,
  ): Promise<any> {
    const answer = await this.modern(id, method, params, meta ? { meta } : {});
    if (answer.sse) return answer.sse.message((m) => m.id === id && ('result' in m || 'error' in m));
    return answer.json;
  }

  /** GET (the standalone stream, or a resumption). */
  async get(headers: Record<string, string | undefined> = {}, signal?: AbortSignal): Promise<Answer> {
    return this.send(undefined, {
      method: 'GET',
      headers: { 'content-type': undefined, accept: 'text/event-stream', ...headers },
      ...(signal ? { signal } : {}),
    });
  }

  async delete(): Promise<Answer> {
    return this.send(undefined, { method: 'DELETE', headers: { 'content-type': undefined } });
  }
}
