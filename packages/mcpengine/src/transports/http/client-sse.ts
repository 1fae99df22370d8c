/**
 * The client side of the HTTP+SSE transport of 2024-11-05 (deprecated since 2025-03-26; kept to reach older
 * servers): a GET opens the SSE stream, whose first `endpoint` event names the URL to POST messages to; the
 * server's messages arrive as `message` events on the stream. The stream cannot be resumed: when it ends, the
 * connection is over.
 */
import { isRequestId } from '../../protocol/jsonrpc.js';
import type { Transport, TransportHandlers } from '../transport.js';
import { HttpError, HttpTransportError, reportRequestFailure } from './client-errors.js';
import {
  discard,
  errorBodyOf,
  extraHeaders,
  fetchWithin,
  httpClientSettings,
  isTimeout,
  mediaTypeOf,
  readEventStream,
  type HttpClientOptions,
  type HttpClientSettings,
} from './client-fetch.js';
import { SseParser } from './sse-parser.js';

export type SseClientTransportOptions = HttpClientOptions;

type State = 'idle' | 'starting' | 'open' | 'closed';

export class SseClientTransport implements Transport {
  readonly #url: URL;
  readonly #options: SseClientTransportOptions;
  readonly #settings: HttpClientSettings;
  #state: State = 'idle';
  #handlers: TransportHandlers | undefined;
  #endpoint: URL | undefined;
  readonly #stream = new AbortController();
  readonly #posting = new Set<AbortController>();

  constructor(url: string | URL, options: SseClientTransportOptions = {}) {
    this.#url = new URL(url);
    this.#options = options;
    this.#settings = httpClientSettings(options, this.#url, {
      authorized: () => this.#handlers?.authorizationChanged?.(),
    });
  }

  /** The URL the server told us to POST to (after `start`). */
  get endpoint(): URL | undefined {
    return this.#endpoint;
  }

  /**
   * Opens the stream and waits for the `endpoint` event (at most `timeoutMs`). Rejects, without calling
   * `handlers.close`, when the server does not speak HTTP+SSE.
   */
  async start(handlers: TransportHandlers): Promise<void> {
    if (this.#state !== 'idle') throw new Error('SseClientTransport can be started only once');
    this.#state = 'starting';
    this.#handlers = handlers;
    const headers = new Headers(await extraHeaders(this.#options.headers));
    headers.set('Accept', 'text/event-stream');
    let response: Response;
    try {
      response = await fetchWithin(
        this.#settings.fetch,
        this.#url,
        { method: 'GET', headers },
        this.#stream,
        this.#settings.timeoutMs,
      );
    } catch (error) {
      this.#state = 'closed';
      if (isTimeout(error))
        throw new HttpTransportError('timeout', `GET ${this.#url.href}: no response`, { cause: error });
      throw new HttpTransportError('network', `GET ${this.#url.href} failed`, { cause: error });
    }
    if (!response.ok || mediaTypeOf(response) !== 'text/event-stream' || !response.body) {
      this.#state = 'closed';
      const body = response.ok
        ? `Content-Type ${response.headers.get('content-type') ?? 'missing'}`
        : await errorBodyOf(response, 1_000);
      discard(response);
      throw new HttpError(
        `GET ${this.#url.href} (HTTP+SSE)`,
        response.status,
        response.statusText,
        body.slice(0, 1_000),
      );
    }
    let announce!: (endpoint: URL) => void;
    let fail!: (error: Error) => void;
    const announced = new Promise<URL>((resolve, reject) => {
      announce = resolve;
      fail = reject;
    });
    const parser = new SseParser({
      maxEventSize: this.#settings.maxBytes,
      onOversized: (size) =>
        this.#handlers?.invalid({ kind: 'too-large', limit: this.#settings.maxBytes, size }),
      onEvent: (event) => {
        if (event.type === 'endpoint') {
          if (this.#endpoint) return;
          let endpoint: URL;
          try {
            if (event.data.trim() === '') throw new TypeError('empty');
            endpoint = new URL(event.data, this.#url);
          } catch {
            fail(
              new HttpTransportError(
                'invalid-response',
                `Invalid endpoint event ${JSON.stringify(event.data)}`,
              ),
            );
            return;
          }
          // The POST URL must stay with the server we connected to: never send messages to another origin.
          if (endpoint.origin !== this.#url.origin) {
            fail(
              new HttpTransportError(
                'invalid-response',
                `The endpoint ${endpoint.href} is on another origin`,
              ),
            );
            return;
          }
          this.#endpoint = endpoint;
          this.#state = 'open';
          announce(endpoint);
          return;
        }
        if (event.type === 'message' && event.data !== '' && this.#state === 'open')
          this.#handlers?.message(event.data);
      },
    });
    const body = response.body;
    const reading = readEventStream(body, parser).then(
      () => undefined,
      (error: unknown) => error,
    );
    void reading.then((error) => this.#streamEnded(error));
    const timer = setTimeout(
      () =>
        fail(new HttpTransportError('timeout', `No endpoint event within ${this.#settings.timeoutMs} ms`)),
      this.#settings.timeoutMs,
    );
    void reading.then(() =>
      fail(new HttpTransportError('stream-ended', 'The stream ended before the endpoint event')),
    );
    try {
      await announced;
    } catch (error) {
      this.#state = 'closed';
      this.#stream.abort(error);
      throw error;
    } finally {
      clearTimeout(timer);
    }
  }

  send(message: string): void {
    const endpoint = this.#endpoint;
    if (this.#state !== 'open' || !endpoint)
      throw new Error('SseClientTransport: cannot send, the transport is not open');
    void this.#post(endpoint, message);
  }

  async close(): Promise<void> {
    if (this.#state === 'closed') return;
    const wasOpen = this.#state === 'open';
    this.#state = 'closed';
    this.#stream.abort(new Error('transport closed'));
    for (const controller of this.#posting) controller.abort(new Error('transport closed'));
    this.#posting.clear();
    if (wasOpen) this.#handlers?.close();
  }

  #streamEnded(error: unknown): void {
    if (this.#state !== 'open') return;
    this.#state = 'closed';
    for (const controller of this.#posting) controller.abort(new Error('stream ended'));
    this.#posting.clear();
    const reason = error instanceof Error ? error.message : 'the server closed it';
    this.#handlers?.close(new HttpTransportError('stream-ended', `The HTTP+SSE stream ended: ${reason}`));
  }

  async #post(endpoint: URL, message: string): Promise<void> {
    const controller = new AbortController();
    this.#posting.add(controller);
    const id = requestIdOf(message);
    let failure: Error | undefined;
    try {
      const headers = new Headers(await extraHeaders(this.#options.headers));
      headers.set('Content-Type', 'application/json');
      const response = await fetchWithin(
        this.#settings.fetch,
        endpoint,
        { method: 'POST', headers, body: message },
        controller,
        this.#settings.timeoutMs,
      );
      if (!response.ok) {
        const body = await errorBodyOf(response, 1_000);
        failure = new HttpError(
          `POST ${endpoint.pathname}`,
          response.status,
          response.statusText,
          body.slice(0, 1_000),
        );
      } else {
        discard(response);
      }
    } catch (error) {
      if (this.#state !== 'open') return;
      failure = isTimeout(error)
        ? new HttpTransportError(
            'timeout',
            `POST ${endpoint.pathname}: no response within ${this.#settings.timeoutMs} ms`,
          )
        : new HttpTransportError('network', `POST ${endpoint.pathname} failed`, { cause: error });
    } finally {
      this.#posting.delete(controller);
    }
    if (!failure || this.#state !== 'open' || !this.#handlers) return;
    if (id !== undefined) reportRequestFailure(this.#handlers, id, failure);
    else this.#settings.logger.warn(failure.message);
  }
}

/** The id of a request (not of a response): only requests wait for an answer. */
function requestIdOf(message: string): string | number | undefined {
  try {
    const value = JSON.parse(message) as { id?: unknown; method?: unknown };
    return typeof value.method === 'string' && isRequestId(value.id) ? value.id : undefined;
  } catch {
    return undefined;
  }
}
