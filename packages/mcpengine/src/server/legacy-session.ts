/**
 * A legacy-era session: what one `initialize` handshake established. It lives for a stdio process or for one
 * `Mcp-Session-Id` on Streamable HTTP, and it is independent of the transport: messages go to outboxes.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { serializeNotification } from '../protocol/jsonrpc.js';
import type { RevisionSpec } from '../protocol/revisions.js';
import type {
  InputRequest,
  InputResponse,
  JsonObject,
  LoggingLevel,
  RequestId,
  ServerCapabilities,
} from '../protocol/types.js';
import { OutgoingRequests, type RequestOptions } from '../rpc/outgoing.js';
import { CLOSED_OUTBOX, type Outbox } from '../rpc/outbox.js';
import type { LegacySubscriber, ListKind } from './broadcast.js';
import type { ClientIdentity, InputOptions, RequestContext, RequestIO } from './context.js';
import { checkInputResponse, requireCapability } from './input.js';
import { clientRunsAsTask, requestAsTask } from './task-input.js';
import { abortRequest } from './context.js';

/**
 * What a legacy session is beyond one process: the serialisable state that lets any node of a scaled-out server
 * serve its requests (see transports/http/shared.ts). Plain JSON.
 */
export interface LegacySessionSnapshot {
  readonly id: string;
  /** The negotiated protocol revision. */
  readonly revision: string;
  readonly client: ClientIdentity;
  readonly initialized: boolean;
  readonly logLevel?: LoggingLevel | undefined;
  readonly subscriptions: readonly string[];
}

/** How a session is brought back on another node (`ServerCore.restoreLegacySession`). */
export interface LegacySessionRestore {
  readonly id: string;
  /** First id of this node's server→client requests, so that ids of several nodes do not collide. */
  readonly firstOutgoingId?: number;
}

export class LegacySession implements LegacySubscriber {
  /** Cryptographically random, visible ASCII only (0x21–0x7E), as Streamable HTTP requires. */
  readonly id: string;
  readonly revision: RevisionSpec;
  readonly client: ClientIdentity;
  readonly capabilities: ServerCapabilities;
  /** Set by `notifications/initialized`. */
  initialized = false;
  /** Undefined until the client sets one: then every level is sent. */
  logLevel: LoggingLevel | undefined;
  readonly resourceSubscriptions = new Set<string>();
  /** Server→client requests (sampling, elicitation, roots, ping) awaiting answers. */
  readonly outgoing: OutgoingRequests;
  /** Client requests still running after their handler returned (asynchronous ones), for cancellation. */
  readonly inflight = new Map<RequestId, RequestContext>();
  /** Where unrelated notifications and requests go (stdout, or the HTTP standalone stream). */
  defaultOutbox: Outbox;
  closed = false;
  /**
   * Closed in this process only: the session lives on in a shared store and other nodes (a scaled-out server
   * dropping its local copy). Close listeners must not delete what belongs to the session everywhere.
   */
  detached = false;
  /**
   * Whether list-changed and resource-updated broadcasts reach this copy of the session. A scaled-out server
   * delivers them only where the client's standalone stream is. Default: always.
   */
  receivesBroadcasts: (() => boolean) | undefined;
  private readonly closeListeners: (() => void)[] = [];
  /** The plumbing of requests answered on the default outbox (every request on stdio): made once, not per request. */
  private defaultIO: LegacyIO | undefined;

  constructor(
    revision: RevisionSpec,
    client: ClientIdentity,
    capabilities: ServerCapabilities,
    defaultOutbox: Outbox,
    restore?: LegacySessionRestore,
  ) {
    this.id = restore?.id ?? randomBytes(16).toString('base64url');
    this.outgoing = new OutgoingRequests(
      restore?.firstOutgoingId === undefined ? {} : { firstId: restore.firstOutgoingId },
    );
    this.revision = revision;
    this.client = client;
    this.capabilities = capabilities;
    this.defaultOutbox = defaultOutbox;
  }

  /** The plumbing for a request answered on `outbox`. */
  ioFor(outbox: Outbox, timeoutMs: number): LegacyIO {
    if (outbox !== this.defaultOutbox) return new LegacyIO(this, outbox, timeoutMs);
    const io = this.defaultIO;
    if (io?.outbox === outbox && io.timeoutMs === timeoutMs) return io;
    return (this.defaultIO = new LegacyIO(this, outbox, timeoutMs));
  }

  setLogLevel(level: LoggingLevel): void {
    this.logLevel = level;
  }

  subscribe(uri: string): void {
    this.resourceSubscriptions.add(uri);
  }

  unsubscribe(uri: string): void {
    this.resourceSubscriptions.delete(uri);
  }

  listChangedEnabled(kind: ListKind): boolean {
    return this.capabilities[kind]?.listChanged === true;
  }

  /** Sends a notification on the default outbox, if the negotiated revision defines it. */
  notify(method: string, params?: JsonObject): void {
    if (this.closed || !this.revision.serverNotifications.has(method)) return;
    this.defaultOutbox.send(serializeNotification(method, params));
  }

  /** Sends a server→client request; `outbox` is the stream of the client request it belongs to, if any. */
  request(
    method: string,
    params: JsonObject | undefined,
    outbox: Outbox | undefined,
    options?: RequestOptions,
  ) {
    return this.outgoing.request(method, params, outbox ?? this.defaultOutbox, options);
  }

  /** The serialisable state (see `LegacySessionSnapshot`). */
  snapshot(): LegacySessionSnapshot {
    const snapshot: LegacySessionSnapshot = {
      id: this.id,
      revision: this.revision.id,
      client: this.client,
      initialized: this.initialized,
      subscriptions: [...this.resourceSubscriptions],
    };
    return this.logLevel === undefined ? snapshot : { ...snapshot, logLevel: this.logLevel };
  }

  /** Takes the mutable state of a snapshot saved by another node. */
  apply(snapshot: LegacySessionSnapshot): void {
    this.initialized = snapshot.initialized;
    this.logLevel = snapshot.logLevel;
    const subscriptions = this.resourceSubscriptions;
    if (
      subscriptions.size !== snapshot.subscriptions.length ||
      snapshot.subscriptions.some((uri) => !subscriptions.has(uri))
    ) {
      subscriptions.clear();
      for (const uri of snapshot.subscriptions) subscriptions.add(uri);
    }
  }

  onClose(listener: () => void): void {
    this.closeListeners.push(listener);
  }

  /** Ends the session; `detach` ends only this process's copy of a shared session (see `detached`). */
  close(reason = 'session closed', options?: { detach?: boolean }): void {
    if (this.closed) return;
    this.closed = true;
    this.detached = options?.detach === true;
    this.defaultOutbox = CLOSED_OUTBOX;
    for (const ctx of this.inflight.values()) abortRequest(ctx, new Error(reason));
    this.inflight.clear();
    this.outgoing.closeAll(reason);
    for (const listener of this.closeListeners.splice(0)) {
      try {
        listener();
      } catch {
        // Close listeners must not prevent others from running.
      }
    }
  }
}

/** Legacy-era plumbing: notifications and server→client requests on the request's stream. */
export class LegacyIO implements RequestIO {
  constructor(
    readonly session: LegacySession,
    /** The stream of the request this serves (stdout, or the request's own HTTP response). */
    readonly outbox: Outbox,
    readonly timeoutMs: number,
  ) {}

  get logLevel(): LoggingLevel {
    return this.session.logLevel ?? 'debug';
  }

  get progressMessage(): boolean {
    return this.session.revision.progressMessage;
  }

  notify(method: string, params: JsonObject): void {
    if (this.session.revision.serverNotifications.has(method))
      this.outbox.send(serializeNotification(method, params));
  }

  notifyClient(method: string, params: JsonObject): boolean {
    const session = this.session;
    if (session.closed || !session.revision.serverNotifications.has(method)) return false;
    const text = serializeNotification(method, params);
    if (this.outbox.send(text)) return true;
    return this.outbox !== session.defaultOutbox && session.defaultOutbox.send(text);
  }

  async input(request: InputRequest, options: InputOptions, ctx: RequestContext): Promise<InputResponse> {
    const revision = this.session.revision;
    if (!revision.serverRequests[request.method]) {
      throw new Error(`${request.method} is not available in protocol revision ${revision.id}`);
    }
    if (
      request.method === 'elicitation/create' &&
      !revision.elicitationModes.includes(request.params.mode ?? 'form')
    ) {
      throw new Error(
        `Elicitation mode "${request.params.mode ?? 'form'}" is not available in protocol revision ${revision.id}`,
      );
    }
    try {
      requireCapability(request, this.session.client.capabilities);
    } catch (error) {
      // Legacy revisions have no missing-capability error code: this is a plain failure of the handler.
      throw new Error(error instanceof Error ? error.message : String(error), { cause: error });
    }
    let params = (request.params ?? {}) as JsonObject;
    // 2025-11-25 requires an elicitationId on URL-mode elicitation; give one when the handler did not.
    if (
      request.method === 'elicitation/create' &&
      params.mode === 'url' &&
      params.elicitationId === undefined
    ) {
      params = { ...params, elicitationId: randomUUID() };
    }
    const timeoutMs = options.timeoutMs ?? this.timeoutMs;
    const send = (method: string, sent: JsonObject, detached = false) =>
      this.session.request(
        method,
        sent,
        this.outbox,
        detached ? { timeoutMs } : { signal: ctx.signal, timeoutMs },
      );
    const asTask =
      options.task !== undefined &&
      revision.serverRequests['tasks/get'] !== undefined &&
      clientRunsAsTask(request.method, this.session.client.capabilities);
    const result = asTask
      ? await requestAsTask({ ...request, params } as InputRequest, options.task!, send, ctx.signal)
      : await send(request.method, params);
    return checkInputResponse('result', request.method, result);
  }
}
