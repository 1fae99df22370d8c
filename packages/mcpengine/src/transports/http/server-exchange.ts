/**
 * One POST that carries requests: decides whether the answer is a single JSON body or an SSE stream.
 *
 * The answer is JSON when the final response is ready before anything else has to be sent; the exchange
 * switches to SSE as soon as a notification or a server→client request must go out first, when the request
 * runs longer than `streamAfterMs` (so long calls get keep-alives and, in the legacy era, resumability), or
 * when a handler asks to close the stream for polling (SEP-1699). Both forms are allowed by every revision;
 * clients must accept both.
 */
import type { ResponseOut } from '../../server/core.js';
import type { Outbox } from '../../rpc/outbox.js';
import type { ResponseStream } from './session-stream.js';
import { SSE_HEADERS, type SseConnection } from './sse-writer.js';
import { jsonAnswer } from './json-reply.js';
import { onRequestAbort } from './server-request.js';

const JSON_HEADERS: Readonly<Record<string, string>> = Object.freeze({ 'content-type': 'application/json' });

export interface ExchangeOptions {
  /** Responses expected: 1, or the number of requests in a batch. */
  readonly expected: number;
  /** Answer a JSON array (a 2025-03-26 batch) rather than one object. */
  readonly batch: boolean;
  /**
   * Makes the stream that carries the answer once it switches to SSE. Called at most once, and only then: most
   * exchanges answer JSON and never need one.
   */
  openStream(): ResponseStream;
  /** Opens the SSE connection (registered for keep-alives by the caller). */
  connect(): SseConnection;
  readonly retryMs: number;
  /** Switch to SSE after this long without an answer; Infinity never does. */
  readonly streamAfterMs: number;
  /** The request came through an adapter: a JSON answer can skip the web `Response` (json-reply.ts). */
  readonly lightReply: boolean;
  /** The HTTP status of a JSON answer, from its error code. */
  statusOf(errorCode: number | undefined): number;
  /** The client went away (connection closed or aborted) before everything was sent. */
  onGone(): void;
  /** The HTTP response is over (answered, switched connection closed, or client gone). Called once. */
  onClosed(): void;
}

export class Exchange {
  readonly outbox: Outbox;
  private decided: 'pending' | 'json' | 'sse' = 'pending';
  private clientGone = false;
  private closedNotified = false;
  private remaining: number;
  private readonly buffered: ResponseOut[] = [];
  /** The response, once decided. */
  private decidedResponse: Response | undefined;
  /** Made only when the answer is asked for before it is decided. */
  private pending: { promise: Promise<Response>; resolve(response: Response): void } | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private madeStream: ResponseStream | undefined;

  /** `request`: the HTTP request carrying the exchange; the exchange is gone when it is aborted. */
  constructor(
    private readonly options: ExchangeOptions,
    request: Request,
  ) {
    this.remaining = options.expected;
    this.outbox = { send: (message) => this.send(message) };
    onRequestAbort(request, () => this.gone());
  }

  /** The response: itself when it is already decided (a synchronous handler answered), else its promise. */
  get answer(): Response | Promise<Response> {
    if (this.decidedResponse !== undefined) return this.decidedResponse;
    if (this.pending === undefined) {
      let resolve!: (response: Response) => void;
      const promise = new Promise<Response>((settle) => (resolve = settle));
      this.pending = { promise, resolve };
    }
    return this.pending.promise;
  }

  private resolve(response: Response): void {
    if (this.decidedResponse !== undefined) return;
    this.decidedResponse = response;
    this.pending?.resolve(response);
  }

  private get stream(): ResponseStream {
    return (this.madeStream ??= this.options.openStream());
  }

  /**
   * Starts the `streamAfterMs` clock. The endpoint calls it once the requests are dispatched: an exchange that was
   * answered meanwhile (a synchronous handler) then never makes a timer.
   */
  startClock(): void {
    if (this.decided !== 'pending' || this.clientGone || this.timer !== undefined) return;
    if (!Number.isFinite(this.options.streamAfterMs)) return;
    this.timer = setTimeout(() => this.switchToStream(), Math.max(0, this.options.streamAfterMs));
    this.timer.unref?.();
  }

  get isStreaming(): boolean {
    return this.decided === 'sse';
  }

  /** A notification or server→client request related to the exchange's request(s). */
  send(message: string): boolean {
    if (this.decided === 'pending') {
      if (this.clientGone) return false;
      this.switchToStream();
    }
    return this.decided === 'sse' ? this.stream.send(message) : false;
  }

  /** One final response (or null: the request was cancelled and gets no response). */
  respond(out: ResponseOut | null): void {
    if (this.remaining <= 0) return;
    this.remaining--;
    if (this.decided === 'sse') {
      if (out) this.stream.send(out.json);
      if (this.remaining === 0) this.stream.end();
      return;
    }
    if (out) this.buffered.push(out);
    if (this.remaining === 0) this.answerJson();
  }

  /** SEP-1699 polling: closes the connection, keeping the stream open for a reconnect. */
  closeConnection(retryMs?: number): boolean {
    if (this.remaining === 0 || this.clientGone || !this.stream.resumable) return false;
    if (this.decided === 'pending') this.switchToStream();
    return this.decided === 'sse' && this.stream.detach(retryMs);
  }

  private answerJson(): void {
    this.clearTimer();
    this.decided = 'json';
    // The stream was never used; ending it (if it was made) releases it from its session.
    this.madeStream?.end();
    if (this.clientGone) return;
    const out = this.buffered;
    let response: Response;
    if (out.length === 0) {
      // Every request was cancelled: nothing to answer.
      response = new Response(null, { status: 202 });
    } else if (this.options.batch) {
      response = jsonAnswer(
        `[${out.map((o) => o.json).join(',')}]`,
        200,
        JSON_HEADERS,
        this.options.lightReply,
      );
    } else {
      const status = this.options.statusOf(out[0]!.errorCode);
      response = jsonAnswer(out[0]!.json, status, JSON_HEADERS, this.options.lightReply, out[0]!.parts);
    }
    this.resolve(response);
    this.closed();
  }

  private switchToStream(): void {
    if (this.decided !== 'pending' || this.clientGone) return;
    this.clearTimer();
    this.decided = 'sse';
    const connection = this.options.connect();
    connection.onClose((reason) => {
      if (reason !== 'closed') this.gone();
      this.closed();
    });
    this.stream.open(connection, this.options.retryMs);
    this.resolve(new Response(connection.body, { status: 200, headers: SSE_HEADERS }));
    for (const out of this.buffered.splice(0)) this.stream.send(out.json);
  }

  private gone(): void {
    if (this.clientGone) return;
    const finished = this.remaining === 0;
    this.clientGone = true;
    this.clearTimer();
    if (this.decided === 'pending') this.resolve(new Response(null, { status: 204 }));
    if (!finished) this.options.onGone();
    this.closed();
  }

  private closed(): void {
    if (this.closedNotified) return;
    this.closedNotified = true;
    this.options.onClosed();
  }

  private clearTimer(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }
}
