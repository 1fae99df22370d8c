/**
 * A legacy-era session: what one `initialize` handshake established. It lives for a stdio process or for one
 * `Mcp-Session-Id` on Streamable HTTP, and it is independent of the transport: messages go to outboxes.
 */
import { randomBytes } from 'node:crypto';
import { serializeNotification } from '../protocol/jsonrpc.js';
import type { RevisionSpec } from '../protocol/revisions.js';
import type { JsonObject, LoggingLevel, RequestId, ServerCapabilities } from '../protocol/types.js';
import { OutgoingRequests, type RequestOptions } from '../rpc/outgoing.js';
import { CLOSED_OUTBOX, type Outbox } from '../rpc/outbox.js';
import type { LegacySubscriber, ListKind } from './broadcast.js';
import type { ClientIdentity, RequestContext } from './context.js';

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
  readonly outgoing = new OutgoingRequests();
  /** Client requests being served, for cancellation. */
  readonly inflight = new Map<RequestId, RequestContext>();
  /** Where unrelated notifications and requests go (stdout, or the HTTP standalone stream). */
  defaultOutbox: Outbox;
  lastActivity = Date.now();
  closed = false;
  private readonly closeListeners: (() => void)[] = [];

  constructor(
    revision: RevisionSpec,
    client: ClientIdentity,
    capabilities: ServerCapabilities,
    defaultOutbox: Outbox,
  ) {
    this.id = randomBytes(16).toString('base64url');
    this.revision = revision;
    this.client = client;
    this.capabilities = capabilities;
    this.defaultOutbox = defaultOutbox;
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

  onClose(listener: () => void): void {
    this.closeListeners.push(listener);
  }

  close(reason = 'session closed'): void {
    if (this.closed) return;
    this.closed = true;
    this.defaultOutbox = CLOSED_OUTBOX;
    for (const ctx of this.inflight.values()) ctx._abort(new Error(reason));
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
