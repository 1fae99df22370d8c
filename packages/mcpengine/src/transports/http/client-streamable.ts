/**
 * The client side of Streamable HTTP, for both eras.
 *
 * Every message is its own POST to the MCP endpoint; the answer is a JSON body or an SSE stream scoped to the
 * request. What differs by era is read off the messages themselves:
 *
 * - **modern** (a request whose `_meta` names its protocol version, 2026-07-28+): `MCP-Protocol-Version`,
 *   `Mcp-Method`, `Mcp-Name` and the `Mcp-Param-*` headers mirrored from `x-mcp-header` annotations, learned
 *   from the `tools/list` results that pass through (tools with invalid annotations are removed from those
 *   results). No sessions and no resumption; cancelling a request closes its stream.
 * - **legacy** (after `initialize`, 2025-03-26 … 2025-11-25): `Mcp-Session-Id` from the initialize response,
 *   `MCP-Protocol-Version` where the revision defines it, a standalone GET stream for server-initiated
 *   messages, resumption of broken streams with `Last-Event-ID` after the server's `retry`, a new session
 *   when the server answers 404 (together with the owner, see `TransportHandlers.sessionExpired`), and DELETE
 *   on close.
 *
 * The transport reads the messages it carries only as far as HTTP needs; the owner still gets the text.
 */
import { isRequestId } from '../../protocol/jsonrpc.js';
import type { HeaderParam } from '../../protocol/param-headers.js';
import { isRevision, REVISION_SPECS } from '../../protocol/revisions.js';
import { MetaKey } from '../../protocol/meta.js';
import type { JsonObject, RequestId } from '../../protocol/types.js';
import type { Transport, TransportHandlers } from '../transport.js';
import { HttpError, HttpTransportError, reportRequestFailure, SessionExpiredError } from './client-errors.js';
import {
  delay,
  discard,
  errorBodyOf,
  extraHeaders,
  fetchWithin,
  httpClientSettings,
  isTimeout,
  mediaTypeOf,
  readEventStream,
  readText,
  type HttpClientOptions,
  type HttpClientSettings,
} from './client-fetch.js';
import { checkToolHeaders, standardHeaders, toolParamHeaders } from './client-headers.js';
import { SseParser } from './sse-parser.js';

/** How broken legacy streams are resumed. */
export interface ReconnectOptions {
  /** Reconnections in a row that bring no event before giving up. Default 3. */
  maxAttempts?: number;
  /** The first delay when the server sent no `retry`. Default 1 000 ms. */
  initialDelayMs?: number;
  /** The longest delay. Default 30 000 ms. */
  maxDelayMs?: number;
  /** Growth of the delay per attempt without a `retry` from the server. Default 1.5. */
  factor?: number;
}

export interface StreamableHttpClientTransportOptions extends HttpClientOptions {
  reconnect?: ReconnectOptions;
  /** Legacy era: open the standalone GET stream after initialization. Default true. */
  standaloneStream?: boolean;
  /** Legacy era: continue an existing session instead of waiting for `initialize` to create one. */
  sessionId?: string;
}

/**
 * The wait before reconnection attempt `attempt` (0-based): the server's `retry` when it sent one (the spec
 * says the client MUST respect it), else an exponential backoff.
 */
export function reconnectDelay(
  attempt: number,
  serverRetryMs: number | undefined,
  options: ReconnectOptions = {},
): number {
  if (serverRetryMs !== undefined) return serverRetryMs;
  const initial = options.initialDelayMs ?? 1_000;
  const factor = options.factor ?? 1.5;
  return Math.min(initial * factor ** attempt, options.maxDelayMs ?? 30_000);
}

/** One outbound message, read as far as HTTP needs. */
interface Outbound {
  readonly text: string;
  readonly kind: 'request' | 'notification' | 'response' | 'other';
  readonly id: RequestId | undefined;
  readonly method: string | undefined;
  readonly params: JsonObject | undefined;
  /** The revision a modern request names in `_meta`. */
  readonly modernVersion: string | undefined;
  /** Already sent again after its session expired (a request is re-sent at most once). */
  resent: boolean;
}

/** Where an SSE stream stands, across resumptions. */
interface StreamState {
  lastEventId: string;
  retryMs: number | undefined;
  /** Reconnections since the last event. */
  attempts: number;
}

interface InFlight {
  readonly out: Outbound & { readonly id: RequestId };
  /** Aborts the POST, its stream and any resumption of it. */
  readonly controller: AbortController;
  stream?: StreamState;
}

type State = 'idle' | 'open' | 'closed';

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function outboundOf(text: string): Outbound {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    value = undefined;
  }
  const message = isObject(value) ? value : {};
  const method = typeof message.method === 'string' ? message.method : undefined;
  const id = isRequestId(message.id) ? message.id : undefined;
  const params = isObject(message.params) ? message.params : undefined;
  const meta = isObject(params?._meta) ? params._meta : undefined;
  const version = meta?.[MetaKey.protocolVersion];
  const kind =
    method !== undefined
      ? id !== undefined
        ? 'request'
        : 'notification'
      : id !== undefined && ('result' in message || 'error' in message)
        ? 'response'
        : 'other';
  return {
    text,
    kind,
    id,
    method,
    params,
    modernVersion: kind === 'request' && typeof version === 'string' ? version : undefined,
    resent: false,
  };
}

function describe(out: Outbound): string {
  if (out.kind === 'request') return `POST ${out.method} (id ${JSON.stringify(out.id)})`;
  if (out.kind === 'response') return `POST of the response to ${JSON.stringify(out.id)}`;
  return `POST ${out.method ?? 'message'}`;
}

export class StreamableHttpClientTransport implements Transport {
  readonly #url: URL;
  readonly #options: StreamableHttpClientTransportOptions;
  readonly #settings: HttpClientSettings;
  #state: State = 'idle';
  #handlers: TransportHandlers | undefined;
  readonly #inflight = new Map<RequestId, InFlight>();
  /** Controllers of POSTs that are not requests (notifications, responses), aborted on close. */
  readonly #posting = new Set<AbortController>();
  /** Messages waiting for the new session after the server ended the old one. */
  #held: Outbound[] = [];
  #renewing = false;
  #sessionId: string | undefined;
  /** The legacy revision `initialize` negotiated. */
  #legacyRevision: string | undefined;
  /** The revision of the latest modern request (modern mode while no legacy session was negotiated). */
  #modernVersion: string | undefined;
  /** `x-mcp-header` bindings by tool name, from the modern `tools/list` results seen. */
  readonly #toolHeaders = new Map<string, readonly HeaderParam[]>();
  /** Everything sent after `notifications/initialized` waits for its POST to complete. */
  #barrier: Promise<void> | undefined;
  #standalone: AbortController | undefined;
  #closing: Promise<void> | undefined;

  constructor(url: string | URL, options: StreamableHttpClientTransportOptions = {}) {
    this.#url = new URL(url);
    this.#options = options;
    this.#settings = httpClientSettings(options, this.#url, {
      authorized: () => this.#handlers?.authorizationChanged?.(),
    });
    this.#sessionId = options.sessionId;
  }

  /** The legacy session id the server assigned, if any. */
  get sessionId(): string | undefined {
    return this.#sessionId;
  }

  /** The legacy revision negotiated by `initialize`, if any. */
  get protocolVersion(): string | undefined {
    return this.#legacyRevision ?? this.#modernVersion;
  }

  start(handlers: TransportHandlers): void {
    if (this.#state !== 'idle') throw new Error('StreamableHttpClientTransport can be started only once');
    this.#handlers = handlers;
    this.#state = 'open';
  }

  send(message: string): void {
    if (this.#state !== 'open') {
      throw new Error(
        `StreamableHttpClientTransport: cannot send, the transport is ${this.#state === 'idle' ? 'not started' : 'closed'}`,
      );
    }
    const out = outboundOf(message);
    if (out.kind === 'notification' && out.method === 'notifications/cancelled' && this.#cancel(out)) return;
    if (out.kind === 'request' && out.method === 'initialize') {
      // A new handshake starts a new session: nothing of the old one carries over.
      this.#sessionId = undefined;
      this.#legacyRevision = undefined;
      this.#modernVersion = undefined;
      this.#stopStandalone();
    } else if (out.kind === 'request' && out.modernVersion !== undefined) {
      this.#modernVersion = out.modernVersion;
    }
    const initialized = out.kind === 'notification' && out.method === 'notifications/initialized';
    if (this.#renewing && !initialized && out.method !== 'initialize') {
      this.#held.push(out);
      return;
    }
    this.#dispatch(out);
    if (initialized && this.#renewing) {
      this.#renewing = false;
      const held = this.#held;
      this.#held = [];
      for (const item of held) this.#dispatch(item);
    }
  }

  async close(): Promise<void> {
    if (this.#closing) return this.#closing;
    const wasOpen = this.#state === 'open';
    this.#state = 'closed';
    const inflight = [...this.#inflight.values()];
    this.#inflight.clear();
    for (const entry of inflight) entry.controller.abort(new Error('transport closed'));
    for (const controller of this.#posting) controller.abort(new Error('transport closed'));
    this.#posting.clear();
    this.#held = [];
    this.#stopStandalone();
    this.#closing = (async () => {
      if (wasOpen) this.#handlers?.close();
      if (this.#sessionId !== undefined) await this.#terminateSession(this.#sessionId);
    })();
    return this.#closing;
  }

  // ── sending ─────────────────────────────────────────────────────────────────────────────────────────

  #dispatch(out: Outbound): void {
    const barrier = this.#barrier;
    const posted = barrier ? barrier.then(() => this.#post(out)) : this.#post(out);
    if (out.kind === 'notification' && out.method === 'notifications/initialized') {
      const done = posted.then(
        () => undefined,
        () => undefined,
      );
      this.#barrier = done;
      void posted.then((accepted) => {
        if (this.#barrier === done) this.#barrier = undefined;
        if (accepted) this.#openStandalone();
      });
    }
  }

  /** POSTs one message; resolves true when the server accepted it (2xx). Never rejects. */
  async #post(out: Outbound): Promise<boolean> {
    if (this.#state !== 'open') return false;
    const inflight = out.kind === 'request' ? this.#track(out) : undefined;
    const controller = inflight?.controller ?? new AbortController();
    if (!inflight) this.#posting.add(controller);
    const sessionId = out.modernVersion === undefined ? this.#sessionId : undefined;
    let response: Response;
    try {
      const headers = await this.#headersFor(out, sessionId);
      const init: RequestInit = { method: 'POST', headers, body: out.text };
      // A request's own POST may legitimately take long (a JSON answer after a long tool call): the owner's
      // request timeout bounds it, by cancelling.
      response = await fetchWithin(
        this.#settings.fetch,
        this.#url,
        init,
        controller,
        inflight ? Infinity : this.#settings.timeoutMs,
      );
    } catch (error) {
      if (!inflight) this.#posting.delete(controller);
      if (this.#state !== 'open' || (inflight && !this.#isLive(inflight))) return false;
      const failure = isTimeout(error)
        ? new HttpTransportError(
            'timeout',
            `${describe(out)}: no response within ${this.#settings.timeoutMs} ms`,
            {
              cause: error,
            },
          )
        : new HttpTransportError('network', `${describe(out)} failed: ${messageOf(error)}`, { cause: error });
      this.#lost(out, failure);
      return false;
    }
    if (!inflight) this.#posting.delete(controller);
    if (inflight && !this.#isLive(inflight)) {
      discard(response);
      return false;
    }
    if (response.status === 404 && sessionId !== undefined) {
      discard(response);
      this.#expired(out, sessionId);
      return false;
    }
    if (!response.ok) {
      await this.#refused(out, response);
      return false;
    }
    if (out.kind === 'request' && out.method === 'initialize') {
      const assigned = response.headers.get('mcp-session-id');
      if (assigned !== null && assigned !== '') this.#sessionId = assigned;
    }
    if (!inflight) {
      discard(response);
      return true;
    }
    await this.#receive(inflight, response);
    return true;
  }

  async #headersFor(out: Outbound, sessionId: string | undefined): Promise<Headers> {
    const headers = new Headers(await extraHeaders(this.#options.headers));
    headers.set('Content-Type', 'application/json');
    headers.set('Accept', 'application/json, text/event-stream');
    const modern =
      out.modernVersion ?? (this.#legacyRevision === undefined ? this.#modernVersion : undefined);
    if (modern !== undefined) {
      headers.set('MCP-Protocol-Version', modern);
      if (out.method !== undefined) {
        for (const [name, value] of standardHeaders(out.method, out.params)) headers.set(name, value);
      }
      const tool = out.method === 'tools/call' ? out.params?.name : undefined;
      const bindings = typeof tool === 'string' ? this.#toolHeaders.get(tool) : undefined;
      if (bindings) {
        for (const [name, value] of toolParamHeaders(bindings, out.params?.arguments))
          headers.set(name, value);
      }
      return headers;
    }
    this.#legacyHeaders(headers, sessionId);
    return headers;
  }

  #legacyHeaders(headers: Headers, sessionId: string | undefined): void {
    if (sessionId !== undefined) headers.set('Mcp-Session-Id', sessionId);
    const revision = this.#legacyRevision;
    if (
      revision !== undefined &&
      (!isRevision(revision) || REVISION_SPECS[revision].http.protocolVersionHeader)
    ) {
      headers.set('MCP-Protocol-Version', revision);
    }
  }

  #track(out: Outbound): InFlight {
    const entry: InFlight = { out: out as InFlight['out'], controller: new AbortController() };
    this.#inflight.set(entry.out.id, entry);
    return entry;
  }

  #isLive(entry: InFlight): boolean {
    return this.#inflight.get(entry.out.id) === entry;
  }

  /** The message will get no answer: fail the request, or warn about a lost notification or response. */
  #lost(out: Outbound, error: Error): void {
    if (out.kind === 'request' && out.id !== undefined) {
      const entry = this.#inflight.get(out.id);
      if (entry && entry.out !== out) return; // a newer request reuses the id; this one was already settled
      this.#inflight.delete(out.id);
      if (this.#handlers && this.#state === 'open') reportRequestFailure(this.#handlers, out.id, error);
      return;
    }
    this.#settings.logger.warn(error.message);
  }

  /** A cancellation: modern requests are cancelled by closing their stream, never by a POST. */
  #cancel(out: Outbound): boolean {
    const id = out.params?.requestId;
    if (!isRequestId(id)) return false;
    const held = this.#held.findIndex((item) => item.id === id && item.kind === 'request');
    if (held !== -1) {
      // It never reached the new session: there is nothing to cancel there.
      this.#held.splice(held, 1);
      return true;
    }
    const entry = this.#inflight.get(id);
    if (!entry) return this.#legacyRevision === undefined && this.#modernVersion !== undefined;
    this.#inflight.delete(id);
    if (entry.out.modernVersion !== undefined) {
      entry.controller.abort(new Error('request cancelled'));
      return true;
    }
    // Legacy: the notification is the cancellation (a disconnection is not one), and the request's stream is
    // of no further use. While a new session is being opened, the old one, and the request, are gone anyway.
    if (!this.#renewing) this.#dispatch(out);
    entry.controller.abort(new Error('request cancelled'));
    return true;
  }

  /** HTTP 404 to a message sent in a session: the server ended it. */
  #expired(out: Outbound, sentSession: string): void {
    if (out.kind === 'request' && out.id !== undefined) {
      const entry = this.#inflight.get(out.id);
      if (entry?.out !== out) return; // cancelled meanwhile
      this.#inflight.delete(out.id);
    }
    const handlers = this.#handlers;
    if (this.#sessionId === sentSession) {
      this.#sessionId = undefined;
      this.#stopStandalone();
      this.#settings.logger.debug?.(`The server ended session ${sentSession} (HTTP 404)`);
      if (handlers?.sessionExpired) {
        this.#renewing = true;
        handlers.sessionExpired();
      }
    }
    if (out.kind !== 'request') {
      // A notification or a response belonged to the session that ended: it means nothing in a new one.
      this.#settings.logger.debug?.(`Dropped ${describe(out)}: its session ${sentSession} ended`);
      return;
    }
    const canRenew =
      handlers?.sessionExpired !== undefined && (this.#renewing || this.#sessionId !== undefined);
    if (!out.resent && canRenew) {
      out.resent = true;
      if (this.#renewing) this.#held.push(out);
      else this.#dispatch(out);
      return;
    }
    this.#lost(
      out,
      new SessionExpiredError(
        sentSession,
        out.resent
          ? `${describe(out)} was answered 404 in the new session too`
          : `${describe(out)} was answered 404`,
      ),
    );
  }

  /** A non-2xx answer: a JSON-RPC error answering the request is the server's answer; anything else is lost. */
  async #refused(out: Outbound, response: Response): Promise<void> {
    const body = await errorBodyOf(response, this.#settings.maxBytes);
    if (out.kind === 'request' && out.id !== undefined) {
      const entry = this.#inflight.get(out.id);
      if (!entry || entry.out !== out) return;
      if (answersWithError(body, out.id)) {
        this.#deliver(body, entry);
        return;
      }
    }
    this.#lost(out, new HttpError(describe(out), response.status, response.statusText, body.slice(0, 1_000)));
  }

  // ── receiving ───────────────────────────────────────────────────────────────────────────────────────

  async #receive(entry: InFlight, response: Response): Promise<void> {
    const type = mediaTypeOf(response);
    if (type === 'application/json') {
      let text: string;
      try {
        text = await readText(response, this.#settings.maxBytes);
      } catch (error) {
        if (!this.#isLive(entry)) return;
        if (error instanceof HttpTransportError && error.reason === 'too-large') {
          this.#handlers?.invalid({
            kind: 'too-large',
            limit: this.#settings.maxBytes,
            size: this.#settings.maxBytes + 1,
          });
        }
        this.#lost(entry.out, error instanceof Error ? error : new Error(String(error)));
        return;
      }
      if (!this.#isLive(entry)) return;
      this.#deliver(text, entry);
      if (this.#isLive(entry)) {
        this.#lost(
          entry.out,
          new HttpTransportError(
            'invalid-response',
            `${describe(entry.out)}: the JSON body does not answer it`,
          ),
        );
      }
      return;
    }
    if (type === 'text/event-stream' && response.body) {
      await this.#followStream(entry, response.body);
      return;
    }
    discard(response);
    this.#lost(
      entry.out,
      new HttpTransportError(
        'invalid-response',
        response.status === 202 || !response.body
          ? `${describe(entry.out)}: HTTP ${response.status} without a response`
          : `${describe(entry.out)}: unexpected Content-Type ${JSON.stringify(type)}`,
      ),
    );
  }

  /** Reads a request's stream until its response, resuming it (legacy) when it breaks first. */
  async #followStream(entry: InFlight, first: ReadableStream<Uint8Array>): Promise<void> {
    const stream: StreamState = (entry.stream ??= { lastEventId: '', retryMs: undefined, attempts: 0 });
    let body: ReadableStream<Uint8Array> | undefined = first;
    const resumable = entry.out.modernVersion === undefined;
    for (;;) {
      if (body) {
        const outcome = await this.#readStream(body, stream, entry);
        if (!this.#isLive(entry)) return;
        if (outcome === 'oversized') {
          entry.controller.abort(new Error('oversized event'));
          this.#lost(
            entry.out,
            new HttpTransportError(
              'too-large',
              `${describe(entry.out)}: an event exceeds ${this.#settings.maxBytes} bytes`,
            ),
          );
          return;
        }
      }
      if (!resumable || stream.lastEventId === '') {
        this.#lost(
          entry.out,
          new HttpTransportError(
            'stream-ended',
            resumable
              ? `${describe(entry.out)}: the stream ended before the response, without an event id to resume from`
              : `${describe(entry.out)}: the stream ended before the response (2026-07-28 streams cannot be resumed)`,
          ),
        );
        return;
      }
      const maxAttempts = this.#options.reconnect?.maxAttempts ?? 3;
      if (stream.attempts >= maxAttempts) {
        this.#lost(
          entry.out,
          new HttpTransportError(
            'stream-ended',
            `${describe(entry.out)}: the stream could not be resumed after ${maxAttempts} attempts`,
          ),
        );
        return;
      }
      const wait = reconnectDelay(stream.attempts, stream.retryMs, this.#options.reconnect);
      stream.attempts++;
      try {
        await delay(wait, entry.controller.signal);
      } catch {
        return; // cancelled or closed while waiting
      }
      if (!this.#isLive(entry)) return;
      body = await this.#resume(entry.controller, stream.lastEventId, Infinity);
      if (!this.#isLive(entry)) return;
    }
  }

  /** GET for a resumed or standalone stream. Returns the body, or undefined when it could not be opened. */
  async #resume(
    controller: AbortController,
    lastEventId: string,
    timeoutMs: number,
  ): Promise<ReadableStream<Uint8Array> | undefined> {
    const response = await this.#get(controller, lastEventId, timeoutMs);
    if (!response) return undefined;
    if (response.ok && mediaTypeOf(response) === 'text/event-stream' && response.body) return response.body;
    this.#settings.logger.debug?.(
      `GET (Last-Event-ID ${JSON.stringify(lastEventId)}) answered HTTP ${response.status}`,
    );
    discard(response);
    return undefined;
  }

  async #get(
    controller: AbortController,
    lastEventId: string,
    timeoutMs: number,
  ): Promise<Response | undefined> {
    try {
      const headers = new Headers(await extraHeaders(this.#options.headers));
      headers.set('Accept', 'text/event-stream');
      this.#legacyHeaders(headers, this.#sessionId);
      if (lastEventId !== '') headers.set('Last-Event-ID', lastEventId);
      return await fetchWithin(
        this.#settings.fetch,
        this.#url,
        { method: 'GET', headers },
        controller,
        timeoutMs,
      );
    } catch (error) {
      if (!controller.signal.aborted || isTimeout(controller.signal.reason)) {
        this.#settings.logger.debug?.(`GET stream failed: ${messageOf(error)}`);
      }
      return undefined;
    }
  }

  /** Reads one stream. 'ended': it ended or broke; 'oversized': a request stream carried a too large event. */
  async #readStream(
    body: ReadableStream<Uint8Array>,
    stream: StreamState,
    entry: InFlight | undefined,
  ): Promise<'ended' | 'oversized'> {
    let oversized = false;
    const parser = new SseParser({
      maxEventSize: this.#settings.maxBytes,
      lastEventId: stream.lastEventId,
      onRetry: (ms) => {
        stream.retryMs = ms;
      },
      onOversized: (size) => {
        this.#handlers?.invalid({ kind: 'too-large', limit: this.#settings.maxBytes, size });
        if (entry) {
          oversized = true;
          entry.controller.abort(new Error('oversized event'));
        }
      },
      onEvent: (event) => {
        stream.attempts = 0;
        stream.lastEventId = event.lastEventId;
        if (event.type !== 'message') {
          this.#settings.logger.debug?.(`Ignoring an SSE event of type ${JSON.stringify(event.type)}`);
          return;
        }
        // An event without data primes the client with an event id; it carries no message.
        if (event.data === '') return;
        if (entry && !this.#isLive(entry)) return;
        this.#deliver(event.data, entry);
      },
    });
    try {
      await readEventStream(body, parser);
    } catch {
      // A broken connection, or our own abort: the caller decides from the state.
    }
    stream.lastEventId = parser.lastEventId;
    return oversized ? 'oversized' : 'ended';
  }

  /** Hands one inbound body or event to the owner, after the bookkeeping its responses need. */
  #deliver(text: string, from: InFlight | undefined): void {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      const problem = new HttpTransportError(
        'invalid-response',
        'The server sent a message that is not JSON',
      );
      if (from && this.#isLive(from)) this.#lost(from.out, problem);
      else this.#settings.logger.warn(problem.message);
      return;
    }
    let delivered = text;
    for (const item of Array.isArray(value) ? value : [value]) {
      if (!isObject(item) || item.method !== undefined || !isRequestId(item.id)) continue;
      const target = this.#inflight.get(item.id);
      if (!target) continue;
      this.#inflight.delete(item.id);
      // The request is answered: whatever is still open for it (its stream, a resumption) can go.
      target.controller.abort(new Error('answered'));
      if (!Array.isArray(value)) delivered = this.#inspectAnswer(target.out, item) ?? text;
    }
    if (this.#state === 'open') this.#handlers?.message(delivered);
  }

  /** Learns from a response; returns a rewritten message when it must change (invalid tools removed). */
  #inspectAnswer(out: Outbound, response: JsonObject): string | undefined {
    const result = response.result;
    if (!isObject(result)) return undefined;
    if (out.method === 'initialize' && out.modernVersion === undefined) {
      const version = result.protocolVersion;
      if (typeof version === 'string') {
        this.#legacyRevision = version;
        this.#modernVersion = undefined;
      }
      return undefined;
    }
    if (out.method === 'tools/list' && out.modernVersion !== undefined && Array.isArray(result.tools)) {
      return this.#screenTools(response, result, result.tools);
    }
    return undefined;
  }

  /**
   * Streamable HTTP clients MUST exclude tools whose `x-mcp-header` annotations are invalid from `tools/list`
   * results, and SHOULD log why. The valid bindings are kept for `tools/call`.
   */
  #screenTools(response: JsonObject, result: JsonObject, tools: unknown[]): string | undefined {
    const kept: unknown[] = [];
    for (const tool of tools) {
      const name = isObject(tool) && typeof tool.name === 'string' ? tool.name : undefined;
      if (!isObject(tool) || name === undefined) {
        kept.push(tool);
        continue;
      }
      const check = checkToolHeaders(tool.inputSchema);
      if (!check.ok) {
        this.#toolHeaders.delete(name);
        this.#settings.logger.warn(`Rejected tool ${JSON.stringify(name)}: ${check.reason}`);
        continue;
      }
      if (check.params.length > 0) this.#toolHeaders.set(name, check.params);
      else this.#toolHeaders.delete(name);
      kept.push(tool);
    }
    if (kept.length === tools.length) return undefined;
    return JSON.stringify({ ...response, result: { ...result, tools: kept } });
  }

  // ── the legacy standalone stream and session end ────────────────────────────────────────────────────

  #openStandalone(): void {
    if (this.#state !== 'open' || this.#standalone || this.#options.standaloneStream === false) return;
    if (this.#legacyRevision === undefined) return;
    const controller = new AbortController();
    this.#standalone = controller;
    void this.#runStandalone(controller);
  }

  #stopStandalone(): void {
    this.#standalone?.abort(new Error('standalone stream closed'));
    this.#standalone = undefined;
  }

  async #runStandalone(controller: AbortController): Promise<void> {
    const stream: StreamState = { lastEventId: '', retryMs: undefined, attempts: 0 };
    const maxAttempts = this.#options.reconnect?.maxAttempts ?? 3;
    for (;;) {
      const response = await this.#get(controller, stream.lastEventId, this.#settings.timeoutMs);
      if (controller.signal.aborted) {
        // Closed, or no response headers within timeoutMs: either way, no standalone stream.
        if (this.#standalone === controller) this.#standalone = undefined;
        return;
      }
      if (response) {
        if (!response.ok || mediaTypeOf(response) !== 'text/event-stream' || !response.body) {
          // 405: the server offers no standalone stream. Other statuses: none for us either.
          this.#settings.logger.debug?.(
            `The server offers no standalone SSE stream (GET answered HTTP ${response.status})`,
          );
          discard(response);
          if (this.#standalone === controller) this.#standalone = undefined;
          return;
        }
        await this.#readStream(response.body, stream, undefined);
        if (controller.signal.aborted) return;
      }
      if (stream.attempts >= maxAttempts) {
        this.#settings.logger.warn(
          `The standalone SSE stream was lost after ${maxAttempts} reconnection attempts`,
        );
        if (this.#standalone === controller) this.#standalone = undefined;
        return;
      }
      const wait = reconnectDelay(stream.attempts, stream.retryMs, this.#options.reconnect);
      stream.attempts++;
      try {
        await delay(wait, controller.signal);
      } catch {
        return;
      }
    }
  }

  async #terminateSession(sessionId: string): Promise<void> {
    try {
      const headers = new Headers(await extraHeaders(this.#options.headers));
      this.#legacyHeaders(headers, sessionId);
      const response = await fetchWithin(
        this.#settings.fetch,
        this.#url,
        { method: 'DELETE', headers },
        new AbortController(),
        this.#settings.timeoutMs,
      );
      discard(response);
      // 405: the server does not let clients end sessions, which the spec allows.
      if (!response.ok && response.status !== 405) {
        this.#settings.logger.debug?.(`DELETE of session ${sessionId} answered HTTP ${response.status}`);
      }
    } catch (error) {
      this.#settings.logger.debug?.(`DELETE of session ${sessionId} failed: ${messageOf(error)}`);
    }
  }
}

function messageOf(error: unknown): string {
  if (error instanceof Error) {
    const cause = error.cause instanceof Error ? ` (${error.cause.message})` : '';
    return `${error.message}${cause}`;
  }
  return String(error);
}

/** True when `body` is a JSON-RPC error response to request `id`. */
function answersWithError(body: string, id: RequestId): boolean {
  try {
    const value: unknown = JSON.parse(body);
    return isObject(value) && value.id === id && isObject(value.error) && value.method === undefined;
  } catch {
    return false;
  }
}
