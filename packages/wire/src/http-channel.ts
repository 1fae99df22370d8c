/**
 * The Streamable HTTP transport, driven with raw `fetch`: every status, header and byte of the answer is kept,
 * because the HTTP checks judge exactly those. One channel is one client: it remembers the legacy session id and
 * negotiated version (sent back as headers), and derives the modern request headers (`MCP-Protocol-Version`,
 * `Mcp-Method`, `Mcp-Name`, `Mcp-Param-*`) from each request body.
 */
import {
  isObject,
  requestIdsIn,
  sameId,
  type CallOptions,
  type CallResult,
  type Channel,
  type HttpInfo,
  type JsonObject,
  type RawOptions,
  type RawResult,
  type Received,
  type SseEvent,
} from './channel.js';
import { SseParser } from './sse.js';
import { DEFAULT_SERVER_REQUEST_POLICY, type ServerRequestPolicy } from './stream-channel.js';

export interface HttpTargetOptions {
  readonly url: string;
  /** Headers sent on every request (from `--header`, and `Authorization` from `--bearer-env`). */
  readonly headers: Readonly<Record<string, string>>;
  readonly timeoutMs: number;
}

/** Where a tool's `x-mcp-header` parameters live in its arguments. */
export interface ParamHeader {
  readonly path: readonly string[];
  readonly header: string;
}

export interface ExchangeOptions {
  readonly method?: string;
  readonly body?: string | Uint8Array;
  readonly headers: Readonly<Record<string, string>>;
  readonly timeoutMs: number;
  readonly until?: (received: Received) => boolean;
  readonly onMessage?: (received: Received) => void;
  /** Stop reading once this many bytes of an event stream arrived (bounded evidence). */
  readonly maxBytes?: number;
  /** Stop the exchange once this is aborted. */
  readonly signal?: AbortSignal;
  /** Called when the response's status and headers arrived (before its body or events are read). */
  readonly onResponse?: (response: { readonly status: number; readonly contentType: string }) => void;
}

export interface ExchangeResult {
  readonly http: HttpInfo;
  readonly messages: Received[];
  readonly timedOut: boolean;
  /** The connection failed before any response (refused, reset, DNS). */
  readonly networkError?: string;
  /** SSE framing problems. */
  readonly sseProblems: readonly string[];
  /** The event stream's bytes were not valid UTF-8. */
  readonly invalidUtf8?: boolean;
  /** The server ended the event stream (rather than the validator stopping to read it). */
  readonly ended?: boolean;
}

const NAMED_METHODS = new Set(['tools/call', 'resources/read', 'prompts/get']);
const SAFE_HEADER_VALUE = /^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/;

/** The Value Encoding of 2026-07-28 Streamable HTTP: plain when header-safe, else `=?base64?…?=`. */
export function encodeHeaderValue(value: string): string {
  const sentinel = value.startsWith('=?base64?') && value.endsWith('?=');
  if (SAFE_HEADER_VALUE.test(value) && !sentinel) return value;
  return `=?base64?${Buffer.from(value, 'utf8').toString('base64')}?=`;
}

function headerValueOf(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number' && Number.isInteger(value)) return String(value);
  return undefined;
}

export class HttpChannel implements Channel {
  readonly kind = 'streamable-http' as const;
  readonly options: HttpTargetOptions;
  readonly received: Received[] = [];
  readonly sentIds = new Set<unknown>();
  /** Every exchange, in order. */
  readonly exchanges: ExchangeResult[] = [];
  readonly serverRequests: { request: JsonObject; answer: JsonObject | undefined }[] = [];
  policy: ServerRequestPolicy = DEFAULT_SERVER_REQUEST_POLICY;
  /** The legacy session id, once the server assigned one. */
  sessionId: string | undefined;
  /** Whether to send the session id back (tests of a missing session id turn this off). */
  sendSessionId = true;
  /** The negotiated legacy revision, sent as `MCP-Protocol-Version` from 2025-06-18 on. */
  protocolVersion: string | undefined;
  /** Streams the server closed before their response, and the GET that resumed each (Last-Event-ID). */
  readonly resumptions: { stream: ExchangeResult; resumed: ExchangeResult }[] = [];
  /** `x-mcp-header` parameters per tool, mirrored into `Mcp-Param-*` headers on `tools/call`. */
  toolHeaders = new Map<string, readonly ParamHeader[]>();
  #id = 0;
  readonly #started = Date.now();
  readonly #controllers = new Set<AbortController>();

  constructor(options: HttpTargetOptions) {
    this.options = options;
  }

  nextId(): number {
    return ++this.#id;
  }

  alive(): boolean {
    return true;
  }

  /** Nothing arrives on its own on HTTP outside an exchange: waits, then returns what exchanges delivered. */
  async collect(ms: number): Promise<Received[]> {
    const before = this.received.length;
    await new Promise((resolve) => setTimeout(resolve, ms));
    return this.received.slice(before);
  }

  deathNote(): string | undefined {
    return undefined;
  }

  negotiated(revision: string): void {
    // The MCP-Protocol-Version header exists from 2025-06-18 on.
    if (revision >= '2025-06-18') this.protocolVersion = revision;
  }

  /** The headers a request carries by default: transport, session, version and (modern) mirrored fields. */
  headersFor(message: unknown): Record<string, string> {
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...lowerKeys(this.options.headers),
    };
    if (this.sessionId !== undefined && this.sendSessionId) headers['mcp-session-id'] = this.sessionId;
    if (this.protocolVersion !== undefined) headers['mcp-protocol-version'] = this.protocolVersion;
    Object.assign(headers, this.#modernHeaders(message));
    return headers;
  }

  #modernHeaders(message: unknown): Record<string, string> {
    if (!isObject(message) || typeof message['method'] !== 'string') return {};
    const params = isObject(message['params']) ? message['params'] : {};
    const meta = isObject(params['_meta']) ? params['_meta'] : {};
    const version = meta['io.modelcontextprotocol/protocolVersion'];
    if (typeof version !== 'string') return {};
    const method = message['method'];
    const headers: Record<string, string> = { 'mcp-protocol-version': version, 'mcp-method': method };
    if (NAMED_METHODS.has(method)) {
      const name = method === 'resources/read' ? params['uri'] : params['name'];
      if (typeof name === 'string') headers['mcp-name'] = encodeHeaderValue(name);
    }
    if (method === 'tools/call' && typeof params['name'] === 'string') {
      const args = isObject(params['arguments']) ? params['arguments'] : {};
      for (const { path, header } of this.toolHeaders.get(params['name']) ?? []) {
        let value: unknown = args;
        for (const key of path) value = isObject(value) ? value[key] : undefined;
        const text = headerValueOf(value);
        if (text !== undefined) headers[`mcp-param-${header.toLowerCase()}`] = encodeHeaderValue(text);
      }
    }
    return headers;
  }

  async call(message: JsonObject, options: CallOptions = {}): Promise<CallResult> {
    const sentText = JSON.stringify(message);
    const started = Date.now();
    const id = message['id'];
    const isResponseToUs = (received: Received): boolean =>
      isObject(received.message) && !('method' in received.message) && sameId(received.message['id'], id);
    const result = await this.exchange({
      body: sentText,
      headers: this.#merge(this.headersFor(message), options),
      timeoutMs: options.timeoutMs ?? this.options.timeoutMs,
      until: isResponseToUs,
      ...(options.onMessage === undefined ? {} : { onMessage: options.onMessage }),
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    });
    if (message['method'] === 'initialize' && result.http.status >= 200 && result.http.status < 300) {
      const session = result.http.headers['mcp-session-id'];
      if (session !== undefined) this.sessionId = session;
    }
    let match = result.messages.find(isResponseToUs);
    // 2025-11-25 SSE polling: the server may close the stream before the response, after an event with an id;
    // the client reconnects with GET and Last-Event-ID (waiting the `retry` it was given).
    let resumed: ExchangeResult | undefined;
    for (
      let attempt = 0;
      match === undefined && !result.timedOut && options.noResume !== true && attempt < 3;
      attempt++
    ) {
      const events = (resumed ?? result).http.events ?? [];
      const lastId = [...events].reverse().find((event) => event.id !== undefined && event.id !== '')?.id;
      if (lastId === undefined || this.sessionId === undefined) break;
      const retry = [...events].reverse().find((event) => event.retry !== undefined)?.retry ?? 500;
      await new Promise((resolve) => setTimeout(resolve, Math.min(retry, 2000)));
      resumed = await this.exchange({
        method: 'GET',
        headers: { ...this.headersFor(undefined), accept: 'text/event-stream', 'last-event-id': lastId },
        timeoutMs: options.timeoutMs ?? this.options.timeoutMs,
        until: isResponseToUs,
      });
      this.resumptions.push({ stream: result, resumed });
      result.messages.push(...resumed.messages);
      match = resumed.messages.find(isResponseToUs);
      if (resumed.http.status !== 200) break;
    }
    const during = result.messages.filter((received) => received !== match);
    const base = {
      sent: message,
      sentText,
      during,
      http: result.http,
      startedAt: started,
      elapsedMs: Date.now() - started,
    };
    if (match !== undefined)
      return {
        ...base,
        response: match.message as JsonObject,
        responseText: match.text,
        respondedAt: match.at,
      };
    return {
      ...base,
      failure: result.timedOut ? 'timeout' : result.networkError !== undefined ? 'closed' : 'no-response',
    };
  }

  async send(message: JsonObject | readonly unknown[], options: CallOptions = {}): Promise<RawResult> {
    const text = JSON.stringify(message);
    const result = await this.exchange({
      body: text,
      headers: this.#merge(this.headersFor(message), options),
      timeoutMs: options.timeoutMs || this.options.timeoutMs,
    });
    return { sentText: text, received: result.messages, timedOut: result.timedOut, http: result.http };
  }

  async raw(text: string, options: RawOptions = {}): Promise<RawResult> {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    const headers = this.#merge(this.headersFor(parsed), options);
    if (options.contentType !== undefined) headers['content-type'] = options.contentType;
    const result = await this.exchange({
      method: options.method ?? 'POST',
      body: options.method === 'GET' || options.method === 'DELETE' ? undefined : text,
      headers,
      timeoutMs: options.timeoutMs ?? this.options.timeoutMs,
      ...(options.until === undefined ? {} : { until: options.until }),
      ...(options.signal === undefined ? {} : { signal: options.signal }),
      ...(options.onSent === undefined ? {} : { onResponse: options.onSent }),
    });
    return { sentText: text, received: result.messages, timedOut: result.timedOut, http: result.http };
  }

  #merge(headers: Record<string, string>, options: CallOptions): Record<string, string> {
    const merged = { ...headers, ...lowerKeys(options.headers ?? {}) };
    for (const name of options.omitHeaders ?? []) delete merged[name.toLowerCase()];
    return merged;
  }

  /** One HTTP request and its complete (or bounded) answer. */
  async exchange(options: ExchangeOptions): Promise<ExchangeResult> {
    const controller = new AbortController();
    this.#controllers.add(controller);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, options.timeoutMs);
    const stop = (): void => controller.abort();
    if (options.signal?.aborted === true) stop();
    options.signal?.addEventListener('abort', stop, { once: true });
    const method = options.method ?? 'POST';
    const requestBody =
      options.body === undefined
        ? undefined
        : typeof options.body === 'string'
          ? options.body
          : Buffer.from(options.body).toString('utf8');
    if (requestBody !== undefined) for (const id of requestIdsIn(requestBody)) this.sentIds.add(id);
    const base = {
      method,
      url: this.options.url,
      requestHeaders: options.headers,
      ...(requestBody === undefined ? {} : { requestBody }),
    };
    const messages: Received[] = [];
    try {
      let response: Response;
      try {
        response = await fetch(this.options.url, {
          method,
          headers: options.headers,
          ...(options.body === undefined ? {} : { body: options.body }),
          signal: controller.signal,
          redirect: 'manual',
        });
      } catch (error) {
        const reason = timedOut ? 'no answer within the time limit' : describeFetchError(error);
        const result: ExchangeResult = {
          http: { ...base, status: 0, headers: {}, body: '', contentType: '' },
          messages,
          timedOut,
          ...(timedOut ? {} : { networkError: reason }),
          sseProblems: [],
        };
        this.exchanges.push(result);
        return result;
      }
      const headers: Record<string, string> = {};
      response.headers.forEach((value, name) => {
        headers[name] = value;
      });
      const contentType = headers['content-type'] ?? '';
      options.onResponse?.({ status: response.status, contentType });
      const deliver = (text: string): boolean => {
        const received = this.#deliver(text);
        messages.push(received);
        options.onMessage?.(received);
        return options.until?.(received) ?? false;
      };
      if (contentType.toLowerCase().startsWith('text/event-stream') && response.body !== null) {
        const { raw, events, problems, invalidUtf8, ended } = await this.#readEvents(
          response.body,
          controller,
          deliver,
          options.maxBytes,
        );
        const result: ExchangeResult = {
          http: { ...base, status: response.status, headers, body: raw, contentType, events },
          messages,
          timedOut: timedOut && messages.every((m) => !(options.until?.(m) ?? false)),
          sseProblems: problems,
          ...(invalidUtf8 ? { invalidUtf8 } : {}),
          ended,
        };
        this.exchanges.push(result);
        return result;
      }
      let body = '';
      try {
        body = await response.text();
      } catch {
        // Timed out while reading: keep what we have (nothing).
      }
      if (body.trim() !== '') {
        let parsed: unknown;
        try {
          parsed = JSON.parse(body);
        } catch {
          parsed = undefined;
        }
        if (Array.isArray(parsed)) for (const element of parsed) deliver(JSON.stringify(element));
        else deliver(body);
      }
      const result: ExchangeResult = {
        http: { ...base, status: response.status, headers, body, contentType },
        messages,
        timedOut,
        sseProblems: [],
      };
      this.exchanges.push(result);
      return result;
    } finally {
      options.signal?.removeEventListener('abort', stop);
      clearTimeout(timer);
      this.#controllers.delete(controller);
    }
  }

  async #readEvents(
    body: ReadableStream<Uint8Array>,
    controller: AbortController,
    deliver: (text: string) => boolean,
    maxBytes = 8 * 1024 * 1024,
  ): Promise<{ raw: string; events: SseEvent[]; problems: string[]; invalidUtf8: boolean; ended: boolean }> {
    let stop = false;
    let ended = false;
    let invalidUtf8 = false;
    const strict = new TextDecoder('utf-8', { fatal: true });
    const parser = new SseParser((event) => {
      if (stop || event.event !== 'message' || event.data === '') return;
      if (deliver(event.data)) stop = true;
    });
    const reader = body.getReader();
    const decoder = new TextDecoder();
    let bytes = 0;
    try {
      while (!stop) {
        const { done, value } = await reader.read();
        if (done) {
          parser.push(decoder.decode());
          parser.end();
          ended = true;
          if (!invalidUtf8) {
            try {
              strict.decode();
            } catch {
              invalidUtf8 = true;
            }
          }
          break;
        }
        if (!invalidUtf8) {
          try {
            strict.decode(value, { stream: true });
          } catch {
            invalidUtf8 = true;
          }
        }
        bytes += value.length;
        parser.push(decoder.decode(value, { stream: true }));
        if (bytes > maxBytes) {
          parser.problems.push(`the event stream exceeded ${maxBytes} bytes; reading stopped`);
          break;
        }
      }
    } catch {
      // Aborted (time limit) or reset: what was read is kept.
    } finally {
      if (stop || bytes > maxBytes) controller.abort();
      reader.cancel().catch(() => {});
    }
    return { raw: parser.raw, events: parser.events, problems: parser.problems, invalidUtf8, ended };
  }

  #deliver(text: string): Received {
    let received: Received;
    try {
      received = { at: Date.now() - this.#started, text, message: JSON.parse(text) as unknown, via: 'post' };
    } catch (error) {
      received = {
        at: Date.now() - this.#started,
        text,
        parseError: error instanceof Error ? error.message : String(error),
        via: 'post',
      };
    }
    this.received.push(received);
    const message = received.message;
    if (isObject(message) && typeof message['method'] === 'string' && 'id' in message) {
      const answer = this.policy(message);
      this.serverRequests.push({ request: message, answer });
      if (answer !== undefined) void this.send(answer, { timeoutMs: this.options.timeoutMs });
    }
    return received;
  }

  /** Ends the legacy session, if there is one (HTTP DELETE; 405 means the server does not allow it). */
  async endSession(): Promise<ExchangeResult | undefined> {
    if (this.sessionId === undefined) return undefined;
    const result = await this.exchange({
      method: 'DELETE',
      headers: this.#merge(this.headersFor(undefined), {}),
      timeoutMs: this.options.timeoutMs,
    });
    this.sessionId = undefined;
    return result;
  }

  async close(): Promise<void> {
    for (const controller of this.#controllers) controller.abort();
    await this.endSession().catch(() => undefined);
  }
}

export function lowerKeys(headers: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
}

function describeFetchError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = (error as Error & { cause?: unknown }).cause;
  const detail = cause instanceof Error ? `: ${cause.message}` : '';
  return `${error.message}${detail}`;
}
