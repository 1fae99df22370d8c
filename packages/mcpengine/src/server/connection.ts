/**
 * Serving one message-stream transport (stdio, in-memory, a socket): one peer, both eras.
 *
 * The era is decided per message, as the 2026-07-28 versioning rules describe for a dual-era server: a request
 * carrying `_meta["io.modelcontextprotocol/protocolVersion"]` is served statelessly (modern); `initialize`
 * opens the legacy session of this stream, and later requests without modern `_meta` belong to it.
 */
import { ErrorCode, ProtocolError } from '../protocol/errors.js';
import {
  parseInbound,
  serializeError,
  serializeResult,
  type InboundMessage,
  type JsonRpcRequest,
} from '../protocol/jsonrpc.js';
import { declaresModernMeta } from '../protocol/meta.js';
import { REVISION_SPECS } from '../protocol/revisions.js';
import type { JsonObject, RequestId } from '../protocol/types.js';
import type { RequestOptions } from '../rpc/outgoing.js';
import type { Outbox } from '../rpc/outbox.js';
import { sendSerialized, type InboundProblem, type Transport } from '../transports/transport.js';
import type { AuthInfo, RequestContext } from './context.js';
import type { RequestEnv, ResponseOut, ServerCore } from './core.js';
import type { LegacySession } from './legacy-session.js';
import { abortRequest } from './context.js';

export interface ConnectionOptions {
  /** Identity for every request on this stream (stdio servers usually take credentials from the environment). */
  auth?: AuthInfo;
  /** When the peer stops sending, how long in-flight requests may still take before the connection closes. */
  drainTimeoutMs?: number;
}

const NOTHING = (): void => {};

export class ServerConnection {
  private session: LegacySession | undefined;
  private readonly modernInflight = new Map<RequestId, RequestContext>();
  private readonly outbox: Outbox;
  /** The environment of every legacy request on this stream: one object, not one per request. */
  private legacyEnv: RequestEnv;
  /** The identity of the requests that arrive from now on (see `setAuth`). */
  private auth: AuthInfo | undefined;
  private isClosed = false;
  private inputDone = false;
  private pending = 0;
  private idleWaiters: (() => void)[] = [];
  private resolveClosed!: () => void;
  /** Resolves when the connection has closed, whoever closed it. */
  readonly closed: Promise<void> = new Promise((resolve) => (this.resolveClosed = resolve));

  constructor(
    private readonly core: ServerCore,
    private readonly transport: Transport,
    private readonly options: ConnectionOptions = {},
  ) {
    // Everything sent here comes from the serializer: the transport may skip its checks on foreign text.
    const send = transport[sendSerialized]?.bind(transport) ?? transport.send.bind(transport);
    this.outbox = {
      send: (message) => {
        if (this.isClosed) return false;
        try {
          send(message);
          return true;
        } catch {
          return false;
        }
      },
    };
    this.auth = options.auth;
    this.legacyEnv = { outbox: this.outbox, auth: options.auth };
  }

  /**
   * The identity of the requests received from now on; those already running keep theirs. For transports
   * whose messages each carry credentials (HTTP+SSE: every POST has its own token).
   */
  setAuth(auth: AuthInfo | undefined): void {
    if (auth === this.auth) return;
    this.auth = auth;
    this.legacyEnv = { outbox: this.outbox, auth };
  }

  /** Requests of the peer being processed. */
  get inflight(): number {
    return this.pending;
  }

  /** The legacy session, once the peer has sent `initialize`. */
  get legacySession(): LegacySession | undefined {
    return this.session;
  }

  async start(): Promise<void> {
    await this.transport.start({
      message: (text) => this.receive(text),
      invalid: (problem) => this.invalidInput(problem),
      close: () => this.shutdown('transport closed'),
      end: () => void this.onInputEnd(),
    });
  }

  /** The peer sent its last message: answer what was already received (bounded), then close. */
  private async onInputEnd(): Promise<void> {
    if (this.inputDone) return;
    this.inputDone = true;
    // Subscriptions would never finish on their own: end them now, with the final result the spec asks for
    // when the server tears a subscription down (the peer may still be reading stdout).
    for (const ctx of this.modernInflight.values()) {
      if (ctx.method === 'subscriptions/listen' && !this.core.endSubscription(ctx))
        abortRequest(ctx, new Error('input ended'));
    }
    await this.drain(this.options.drainTimeoutMs ?? 2_000);
    await this.close();
  }

  /** Resolves once no request is in flight, or after `timeoutMs`. */
  drain(timeoutMs: number): Promise<void> {
    if (this.pending === 0) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(done, timeoutMs);
      timer.unref?.();
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.idleWaiters.push(done);
    });
  }

  /** Legacy era: ping the client. */
  async ping(options?: RequestOptions): Promise<void> {
    if (!this.session) throw new Error('ping needs an initialized legacy session');
    await this.session.request('ping', undefined, undefined, options);
  }

  async close(): Promise<void> {
    this.shutdown('connection closed by server');
    await this.transport.close();
  }

  private shutdown(reason: string): void {
    if (this.isClosed) return;
    this.isClosed = true;
    this.session?.close(reason);
    for (const ctx of this.modernInflight.values()) abortRequest(ctx, new Error(reason));
    this.modernInflight.clear();
    this.resolveClosed();
  }

  private invalidInput(problem: InboundProblem): void {
    const error =
      problem.kind === 'too-large'
        ? {
            code: ErrorCode.InvalidRequest,
            message: `Invalid Request: message of ${problem.size} bytes exceeds the ${problem.limit}-byte limit`,
          }
        : { code: ErrorCode.ParseError, message: 'Parse error: message is not valid UTF-8' };
    this.outbox.send(serializeError(null, error));
  }

  private receive(text: string): void {
    if (this.isClosed || this.inputDone) return;
    const parsed = parseInbound(text);
    if (parsed.kind === 'unparseable') {
      this.outbox.send(serializeError(null, parsed.error));
      return;
    }
    if (parsed.kind === 'batch') this.receiveBatch(parsed.items);
    else this.dispatch(parsed, this.sendJson);
  }

  /** JSON-RPC batches exist only in 2025-03-26; `initialize` is never allowed inside one. */
  private receiveBatch(items: InboundMessage[]): void {
    const revision = this.session?.revision;
    if (!revision?.batches || items.length === 0) {
      const why =
        items.length === 0
          ? 'an empty batch'
          : `batches (not supported by ${revision ? `protocol revision ${revision.id}` : 'this connection before initialization'})`;
      this.outbox.send(
        serializeError(null, { code: ErrorCode.InvalidRequest, message: `Invalid Request: ${why}` }),
      );
      return;
    }
    const responses: Promise<string | null>[] = [];
    for (const item of items) {
      if (item.kind === 'request' && item.message.method === 'initialize') {
        responses.push(
          Promise.resolve(
            serializeError(item.message.id, {
              code: ErrorCode.InvalidRequest,
              message: 'Invalid Request: initialize must not be part of a batch',
            }),
          ),
        );
        continue;
      }
      responses.push(new Promise((resolve) => this.dispatch(item, resolve, () => resolve(null))));
    }
    void Promise.all(responses).then((results) => {
      const present = results.filter((r): r is string => r !== null);
      if (present.length > 0) this.outbox.send(`[${present.join(',')}]`);
    });
  }

  /**
   * Handles one message. `respond` receives the serialized response of a request (or of an invalid message);
   * `noResponse` is called when nothing will be answered (notifications, responses, cancelled requests).
   */
  private dispatch(
    item: InboundMessage,
    respond: (json: string) => void,
    noResponse: () => void = NOTHING,
  ): void {
    switch (item.kind) {
      case 'invalid':
        if (item.answerable) respond(serializeError(item.id, item.error));
        else noResponse();
        return;
      case 'response':
        if (this.session) this.core.handleLegacyResponse(this.session, item.message);
        noResponse();
        return;
      case 'notification':
        this.notification(item.message.method, item.message.params ?? {});
        noResponse();
        return;
      case 'request': {
        this.pending++;
        let answer: string | null | Promise<string | null>;
        try {
          answer = this.request(item.message);
        } catch (error) {
          this.settled();
          throw error;
        }
        if (!(answer instanceof Promise)) {
          this.answer(answer, respond, noResponse);
          return;
        }
        answer.then(
          (json) => this.answer(json, respond, noResponse),
          (error: unknown) => {
            this.settled();
            throw error;
          },
        );
        return;
      }
    }
  }

  private answer(json: string | null, respond: (json: string) => void, noResponse: () => void): void {
    try {
      if (json === null) noResponse();
      else respond(json);
    } finally {
      this.settled();
    }
  }

  private readonly sendJson = (json: string): void => {
    this.outbox.send(json);
  };

  /** A request has been answered (or dropped): wake `drain()` waiters when none is left. */
  private settled(): void {
    if (--this.pending === 0 && this.idleWaiters.length > 0)
      for (const wake of this.idleWaiters.splice(0)) wake();
  }

  private notification(method: string, params: JsonObject): void {
    if (method === 'notifications/cancelled') {
      const ctx = this.modernInflight.get(params.requestId as RequestId);
      if (ctx) {
        const cancel = (passed: JsonObject) =>
          abortRequest(
            ctx,
            new Error(typeof passed.reason === 'string' ? passed.reason : 'cancelled by client'),
          );
        this.core.aroundNotification({ method, params, revision: REVISION_SPECS[ctx.revision] }, cancel);
        return;
      }
    }
    if (this.session) {
      this.core.handleLegacyNotification(this.session, { jsonrpc: '2.0', method, params });
    }
  }

  /** The serialized answer to one request: synchronous when the core answers synchronously (legacy era). */
  private request(request: JsonRpcRequest): string | null | Promise<string | null> {
    const id = request.id;
    // A server configured without modern revisions behaves like a legacy server: no modern path at all.
    const modern = declaresModernMeta(request.params) && this.core.modernRevisions.length > 0;
    // Ids must be unique among the requests in flight on this stream, whatever their era. (The core checks a
    // legacy request against its own session.)
    if (
      (this.modernInflight.size > 0 && this.modernInflight.has(id)) ||
      (modern && this.session?.inflight.has(id))
    ) {
      return serializeError(id, {
        code: ErrorCode.InvalidRequest,
        message: `Invalid Request: request id ${JSON.stringify(id)} is already in use`,
      });
    }
    if (modern) {
      const out = this.core.handleModern(request, {
        outbox: this.outbox,
        auth: this.auth,
        track: (requestId, ctx) => {
          this.modernInflight.set(requestId, ctx);
          return () => {
            if (this.modernInflight.get(requestId) === ctx) this.modernInflight.delete(requestId);
          };
        },
      });
      return out instanceof Promise ? out.then(jsonOf) : jsonOf(out);
    }
    if (this.session) {
      // The core refuses a second initialize.
      const out = this.core.handleLegacy(this.session, request, this.legacyEnv);
      return out instanceof Promise ? out.then(jsonOf) : jsonOf(out);
    }
    if (request.method === 'initialize') {
      const { session, response } = this.core.openLegacySession(request, this.outbox);
      this.session = session;
      return response.json;
    }
    // Before initialization, a legacy client may only ping; anything else is a malformed modern request.
    if (request.method === 'ping') return serializeResult(id, '{}');
    return this.core.errorResponse(
      id,
      new ProtocolError(
        ErrorCode.InvalidParams,
        'Invalid params: missing _meta["io.modelcontextprotocol/protocolVersion"]; send initialize first (legacy) or include the per-request _meta fields (2026-07-28)',
      ),
      undefined,
      request.method,
    ).json;
  }
}

const jsonOf = (out: ResponseOut | null): string | null => out?.json ?? null;
