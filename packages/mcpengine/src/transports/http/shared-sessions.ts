/**
 * One node of a scaled-out server (see shared.ts): brings legacy sessions of other nodes back from the shared
 * store, keeps their state saved, and carries server→client traffic over the bus.
 *
 * Every request of a shared session loads its record (one store round trip, which also extends its life): a
 * session deleted or expired anywhere is gone everywhere at once, and the state another node saved (log level,
 * subscriptions) is in force. A node keeps a copy of the sessions it served (their streams, requests in flight,
 * server→client requests awaiting answers) and drops it when idle; the record stays in the store.
 */
import { randomBytes } from 'node:crypto';
import type { JsonRpcNotification, JsonRpcResponse } from '../../protocol/jsonrpc.js';
import type { RequestId } from '../../protocol/types.js';
import type { BroadcastEvent } from '../../server/broadcast.js';
import type { LegacySession } from '../../server/legacy-session.js';
import type { Outbox } from '../../rpc/outbox.js';
import type { HttpContext } from './server-context.js';
import { errorResponse, SESSION_NOT_FOUND, TRANSPORT_ERROR } from './server-responses.js';
import { HttpSession, type SessionRegistry } from './session-store.js';
import {
  BROADCAST_CHANNEL,
  sessionChannel,
  type SessionBusMessage,
  type SharedSessionRecord,
  type SharedState,
} from './shared.js';

/** Base-36 characters of the random prefix of stream ids (event ids allow 12 characters for a stream). */
const STREAM_PREFIX_LENGTH = 5;

function streamPrefix(): string {
  let prefix = '';
  for (const byte of randomBytes(STREAM_PREFIX_LENGTH)) prefix += (byte % 36).toString(36);
  return prefix;
}

/** What a record says about the session's mutable state, to notice changes cheaply. */
function fingerprint(legacy: LegacySession): string {
  let text = `${legacy.initialized ? 1 : 0}|${legacy.logLevel ?? ''}`;
  for (const uri of legacy.resourceSubscriptions) text += `|${uri}`;
  return text;
}

export class SharedSessions {
  /** Tells this node's broadcasts from others' on the bus. */
  private readonly nodeId = randomBytes(8).toString('hex');
  /** Sessions being brought back, so that concurrent requests share one copy. */
  private readonly restoring = new Map<string, Promise<HttpSession | undefined>>();
  private readonly listeners = new Map<string, (message: string) => void>();
  private subscription: Promise<void> | undefined;
  private readonly broadcastListener = (message: string) => this.onBroadcast(message);

  constructor(
    private readonly http: HttpContext,
    private readonly registry: SessionRegistry,
    readonly shared: SharedState,
  ) {
    const broadcaster = http.core.broadcaster;
    broadcaster.relay = (event) => {
      shared.bus
        .publish(BROADCAST_CHANNEL, JSON.stringify({ n: this.nodeId, e: event }))
        .catch((error: unknown) => http.report(error, 'shared broadcast'));
    };
    // Reported here; requests meeting a failed subscription try again, or answer 503 (see `whenReady`).
    this.whenReady().catch((error: unknown) => http.report(error, 'shared broadcast'));
  }

  private get ttlMs(): number {
    return this.http.options.idleTimeoutMs;
  }

  /** A 503 for a request that needs the shared store while it is unreachable. */
  unavailable(id: RequestId | null | undefined, error: unknown): Response {
    this.http.report(error, 'shared sessions');
    return errorResponse(
      503,
      id,
      { code: TRANSPORT_ERROR, message: 'Service Unavailable: the session store cannot be reached' },
      { 'retry-after': '1' },
    );
  }

  /** The record of a session this node has just opened (`initialize`). */
  record(session: HttpSession): SharedSessionRecord {
    return { ...session.legacy.snapshot(), principal: session.principal, quotaKey: session.quotaKey };
  }

  /** The `shared` part of an `HttpSession` served by this node. */
  sessionShared(id: string) {
    return {
      streamPrefix: streamPrefix(),
      ended: () => this.endEverywhere(id),
    };
  }

  /**
   * Where messages unrelated to any request go: the standalone stream here, else the bus (to the node that has
   * one). Always accepted: the node holding the stream is not known here.
   */
  outbox(holder: { session?: HttpSession }): Outbox {
    return {
      send: (text) => {
        const session = holder.session;
        if (!session || session.closed) return false;
        if (session.hasStandalone) return session.sendUnrelated(text);
        this.publish(session.id, { t: 'unrelated', m: text });
        return true;
      },
    };
  }

  /** Saves a new session and starts listening to its channel; rejects when the store cannot be reached. */
  async opened(session: HttpSession): Promise<void> {
    await this.whenReady();
    await this.shared.sessions.create(this.record(session), this.ttlMs);
    await this.listen(session);
  }

  /**
   * The session named `id` for `principal`: loaded from the store (extending its life) and served by this
   * node's copy, made now if needed. A `Response` refuses the request: 404 unknown/foreign, 503 store down.
   */
  async load(
    id: string,
    principal: string,
    requestId: RequestId | null | undefined,
  ): Promise<HttpSession | Response> {
    let record: SharedSessionRecord | undefined;
    try {
      await this.whenReady();
      record = await this.shared.sessions.load(id, this.ttlMs);
    } catch (error) {
      return this.unavailable(requestId, error);
    }
    const local = this.registry.get(id);
    if (!record) {
      // Ended (or expired) elsewhere: this node's copy goes too.
      local?.close('session ended', 'remote');
      return this.notFound(requestId);
    }
    // A session opened by another principal is reported as unknown: ids must not be probeable.
    if (record.principal !== principal) return this.notFound(requestId);
    if (local) {
      local.legacy.apply(record);
      return local;
    }
    let pending = this.restoring.get(id);
    if (!pending) {
      pending = this.restore(record).finally(() => this.restoring.delete(id));
      this.restoring.set(id, pending);
    }
    let session: HttpSession | undefined;
    try {
      session = await pending;
    } catch (error) {
      return this.unavailable(requestId, error);
    }
    return session ?? this.notFound(requestId);
  }

  /** Saves the session's state if a request changed it (log level, subscriptions, `initialized`). */
  /** Resolves with the state now saved (`before` when nothing changed). */
  async persistIfChanged(session: HttpSession, before: string): Promise<string> {
    const now = fingerprint(session.legacy);
    if (session.closed || now === before) return before;
    const record = this.record(session);
    await this.shared.sessions.save(record, this.ttlMs);
    this.publish(session.id, { t: 'state', r: record });
    return now;
  }

  stateOf(session: HttpSession): string {
    return fingerprint(session.legacy);
  }

  /** A client response no request here was waiting for: to the node that sent the request. */
  forwardResponse(session: HttpSession, response: JsonRpcResponse): void {
    this.publish(session.id, { t: 'response', m: response });
  }

  /** A cancellation of a request not running here: to the node running it. */
  forwardNotification(session: HttpSession, notification: JsonRpcNotification): void {
    if (notification.method !== 'notifications/cancelled') return;
    const requestId = notification.params?.requestId as RequestId | undefined;
    if (requestId !== undefined && session.legacy.inflight.has(requestId)) return;
    this.publish(session.id, { t: 'notification', m: notification });
  }

  /** DELETE: ends the session in the store first (so that no node serves it any more), then here. */
  async delete(session: HttpSession): Promise<Response | undefined> {
    try {
      await this.shared.sessions.delete(session.id);
    } catch (error) {
      return this.unavailable(undefined, error);
    }
    session.close('session terminated by the client');
    return undefined;
  }

  private async restore(record: SharedSessionRecord): Promise<HttpSession | undefined> {
    const { core, options } = this.http;
    const holder: { session?: HttpSession } = {};
    const legacy = core.restoreLegacySession(
      record,
      this.outbox(holder),
      // Server→client request ids of this copy: random, so that they cannot collide with another node's.
      2 ** 31 + randomBytes(4).readUInt32BE(0) * 1024,
    );
    if (!legacy) return undefined;
    const session = new HttpSession(
      legacy,
      record.principal,
      options.eventStore,
      this.http.report,
      record.quotaKey,
      undefined,
      this.sessionShared(record.id),
    );
    holder.session = session;
    legacy.receivesBroadcasts = () => session.hasStandalone;
    try {
      await this.listen(session);
    } catch (error) {
      legacy.close('session store unavailable', { detach: true });
      throw error;
    }
    if (session.closed) return undefined;
    this.registry.add(session);
    return session;
  }

  /** Subscribes to the session's channel until this node's copy closes. */
  private async listen(session: HttpSession): Promise<void> {
    const channel = sessionChannel(session.id);
    const listener = (message: string) => this.onSessionMessage(session, message);
    this.listeners.set(session.id, listener);
    session.legacy.onClose(() => {
      if (this.listeners.get(session.id) === listener) this.listeners.delete(session.id);
      this.shared.bus
        .unsubscribe(channel, listener)
        .catch((error: unknown) => this.http.report(error, 'shared bus'));
    });
    await this.shared.bus.subscribe(channel, listener);
  }

  private onSessionMessage(session: HttpSession, text: string): void {
    if (session.closed) return;
    let message: SessionBusMessage;
    try {
      message = JSON.parse(text) as SessionBusMessage;
    } catch {
      return;
    }
    const { core } = this.http;
    switch (message.t) {
      case 'response':
        // Only the node that sent the request knows its id; the others ignore it.
        core.handleLegacyResponse(session.legacy, message.m as JsonRpcResponse);
        return;
      case 'notification': {
        const notification = message.m as JsonRpcNotification;
        const requestId = notification.params?.requestId as RequestId | undefined;
        if (requestId !== undefined && session.legacy.inflight.has(requestId)) {
          core.handleLegacyNotification(session.legacy, notification);
        }
        return;
      }
      case 'unrelated':
        if (session.hasStandalone && typeof message.m === 'string') session.sendUnrelated(message.m);
        return;
      case 'state':
        if (message.r?.id === session.id) session.legacy.apply(message.r);
        return;
      case 'close':
        session.close('session terminated', 'remote');
        return;
    }
  }

  private onBroadcast(text: string): void {
    let message: { n?: unknown; e?: BroadcastEvent };
    try {
      message = JSON.parse(text) as typeof message;
    } catch {
      return;
    }
    if (message.n === this.nodeId || typeof message.e !== 'object' || message.e === null) return;
    this.http.core.broadcaster.receive(message.e);
  }

  /** The session ended everywhere from this node (DELETE, eviction): store, events and other nodes. */
  private endEverywhere(id: string): void {
    this.shared.sessions.delete(id).catch((error: unknown) => this.http.report(error, 'shared sessions'));
    this.publish(id, { t: 'close' });
  }

  private publish(id: string, message: SessionBusMessage): void {
    this.shared.bus
      .publish(sessionChannel(id), JSON.stringify(message))
      .catch((error: unknown) => this.http.report(error, 'shared bus'));
  }

  /** The broadcast channel is subscribed; a failed subscription (the bus was down) is tried again. */
  private whenReady(): Promise<void> {
    if (!this.subscription) {
      const attempt = this.shared.bus.subscribe(BROADCAST_CHANNEL, this.broadcastListener);
      this.subscription = attempt;
      attempt.catch(() => {
        if (this.subscription === attempt) this.subscription = undefined;
      });
    }
    return this.subscription;
  }

  private notFound(id: RequestId | null | undefined): Response {
    return errorResponse(404, id, { code: SESSION_NOT_FOUND, message: 'Session not found' });
  }
}
