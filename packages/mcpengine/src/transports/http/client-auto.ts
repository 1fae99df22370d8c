/**
 * One URL, any HTTP server: Streamable HTTP first, and the deprecated HTTP+SSE transport of 2024-11-05 when
 * the server refuses the `initialize` POST with 400, 404 or 405 — the backwards-compatibility procedure of
 * 2025-03-26 … 2026-07-28. The era itself (modern `server/discover` or legacy `initialize`) is the client's
 * probe: a modern request first, and a 400 whose body is not a modern JSON-RPC error means a legacy server.
 */
import { isRequestId } from '../../protocol/jsonrpc.js';
import type { RequestId } from '../../protocol/types.js';
import type { Transport, TransportHandlers } from '../transport.js';
import { HttpError, HttpTransportError, reportRequestFailure } from './client-errors.js';
import { SseClientTransport } from './client-sse.js';
import {
  StreamableHttpClientTransport,
  type StreamableHttpClientTransportOptions,
} from './client-streamable.js';

export interface HttpClientTransportOptions extends StreamableHttpClientTransportOptions {
  /** Fall back to HTTP+SSE (2024-11-05) when Streamable HTTP refuses `initialize`. Default true. */
  sseFallback?: boolean;
  /** Where the HTTP+SSE stream is, when not at the same URL. */
  sseUrl?: string | URL;
}

/** Statuses the backwards-compatibility sections name as "not a Streamable HTTP server". */
const FALLBACK_STATUSES = new Set([400, 404, 405]);

/** A transport that speaks Streamable HTTP, or HTTP+SSE after a fallback. */
export class HttpClientTransport implements Transport {
  readonly #url: URL;
  readonly #options: HttpClientTransportOptions;
  readonly #streamable: StreamableHttpClientTransport;
  #sse: SseClientTransport | undefined;
  #handlers: TransportHandlers | undefined;
  /** The latest `initialize` sent over Streamable HTTP, to send again over HTTP+SSE. */
  #initialize: { id: RequestId; text: string } | undefined;
  /** While falling back: what the owner sends waits here. */
  #queue: string[] | undefined;
  #closed = false;

  constructor(url: string | URL, options: HttpClientTransportOptions = {}) {
    this.#url = new URL(url);
    this.#options = options;
    this.#streamable = new StreamableHttpClientTransport(this.#url, options);
  }

  /** Which transport carries the messages. */
  get mode(): 'streamable-http' | 'http+sse' {
    return this.#sse ? 'http+sse' : 'streamable-http';
  }

  /** The Streamable HTTP transport underneath (session id, negotiated version). */
  get streamable(): StreamableHttpClientTransport {
    return this.#streamable;
  }

  start(handlers: TransportHandlers): void {
    this.#handlers = handlers;
    this.#streamable.start(this.#relay(handlers, () => this.#sse === undefined));
  }

  send(message: string): void {
    if (this.#closed) throw new Error('HttpClientTransport: cannot send, the transport is closed');
    if (this.#queue) {
      this.#queue.push(message);
      return;
    }
    if (this.#sse) {
      this.#sse.send(message);
      return;
    }
    if (this.#options.sseFallback !== false) {
      const id = initializeIdOf(message);
      if (id !== undefined) this.#initialize = { id, text: message };
    }
    this.#streamable.send(message);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#queue = undefined;
    await Promise.all([this.#streamable.close(), this.#sse?.close()]);
  }

  /** Passes everything through, except that only the active transport may close the connection. */
  #relay(handlers: TransportHandlers, active: () => boolean): TransportHandlers {
    const relay: TransportHandlers = {
      message: (text) => handlers.message(text),
      invalid: (problem) => handlers.invalid(problem),
      close: (error) => {
        if (active()) handlers.close(error);
      },
      requestFailed: (id, error) => this.#failed(id, error),
    };
    if (handlers.sessionExpired) relay.sessionExpired = () => handlers.sessionExpired?.();
    return relay;
  }

  #failed(id: RequestId, error: Error): void {
    const initialize = this.#initialize;
    if (
      initialize?.id === id &&
      !this.#sse &&
      error instanceof HttpError &&
      FALLBACK_STATUSES.has(error.status)
    ) {
      this.#initialize = undefined;
      this.#queue = [];
      void this.#fallBack(initialize.id, initialize.text, error);
      return;
    }
    if (this.#handlers) reportRequestFailure(this.#handlers, id, error);
  }

  async #fallBack(id: RequestId, initialize: string, refusal: HttpError): Promise<void> {
    const handlers = this.#handlers;
    if (!handlers) return;
    const sse = new SseClientTransport(this.#options.sseUrl ?? this.#url, this.#options);
    try {
      await sse.start(this.#relay(handlers, () => this.#sse === sse));
    } catch (error) {
      const queued = this.#queue ?? [];
      this.#queue = undefined;
      const reason = error instanceof Error ? error.message : String(error);
      reportRequestFailure(
        handlers,
        id,
        new HttpTransportError(
          'invalid-response',
          `The server refused Streamable HTTP (${refusal.message}) and HTTP+SSE failed too: ${reason}`,
          { cause: error },
        ),
      );
      for (const message of queued) if (!this.#closed) this.#streamable.send(message);
      return;
    }
    if (this.#closed) {
      await sse.close();
      return;
    }
    this.#sse = sse;
    const queued = this.#queue ?? [];
    this.#queue = undefined;
    void this.#streamable.close();
    sse.send(initialize);
    for (const message of queued) sse.send(message);
  }
}

/** The id of an `initialize` request, else undefined. */
function initializeIdOf(message: string): RequestId | undefined {
  if (!message.includes('"initialize"')) return undefined;
  try {
    const value = JSON.parse(message) as { id?: unknown; method?: unknown };
    return value.method === 'initialize' && isRequestId(value.id) ? value.id : undefined;
  } catch {
    return undefined;
  }
}

/** A transport for an MCP server URL, whichever HTTP transport the server speaks. */
export function createHttpTransport(
  url: string | URL,
  options?: HttpClientTransportOptions,
): HttpClientTransport {
  return new HttpClientTransport(url, options);
}

/** What `connectHttp` needs of a client (the engine's `Client`): `connect` opens a session. */
export interface HttpConnectable<ConnectOptions, Session> {
  connect(transport: Transport, options?: ConnectOptions): Promise<Session>;
}

/**
 * Connects `client` to the server at `url`: the client's era probe over Streamable HTTP, with the HTTP+SSE
 * fallback. Resolves with the session and the transport under it; closes the transport when the connection
 * fails.
 */
export async function connectHttp<ConnectOptions, Session>(
  client: HttpConnectable<ConnectOptions, Session>,
  url: string | URL,
  options: HttpClientTransportOptions & { connect?: ConnectOptions } = {},
): Promise<{ session: Session; transport: HttpClientTransport }> {
  const transport = createHttpTransport(url, options);
  try {
    const session = await client.connect(transport, options.connect);
    return { session, transport };
  } catch (error) {
    await transport.close();
    throw error;
  }
}
