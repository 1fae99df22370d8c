/**
 * Scale-out seams: what several processes serving one logical MCP server behind a plain (non-sticky) load
 * balancer share. The engine defines the contracts and keeps no dependency; `@mcpengine/redis` implements them
 * on Redis. Without `shared` (the default) everything stays in process, exactly as before.
 *
 * - Legacy sessions (`Mcp-Session-Id`): a `SharedSessionRecord` per session, loaded by whichever node a request
 *   reaches; loading also extends its life, so the store's expiry is the session's idle timeout.
 * - Resumable SSE: the `EventStore` (its `after` may be asynchronous): a stream written on one node can be
 *   resumed with `Last-Event-ID` on any other.
 * - Server→client traffic: a `MessageBus`. A client's answer to a sampling/elicitation/roots request that
 *   reaches another node is forwarded to the node waiting for it; unrelated messages go to the node holding
 *   the client's standalone GET stream; list-changed and resource-updated broadcasts, and so
 *   `subscriptions/listen` streams, reach every node.
 * - Tasks: the `TaskStore` of `new McpServer({ tasks: { store } })`.
 */
import type { LegacySessionSnapshot } from '../../server/legacy-session.js';
import type { EventStore } from './event-store.js';

/** A legacy session as shared between nodes: its protocol state, and whom it belongs to. Plain JSON. */
export interface SharedSessionRecord extends LegacySessionSnapshot {
  /** Who opened it (`principalOf`); requests of anyone else get 404. */
  readonly principal: string;
  /** Whose session quota it counts against. */
  readonly quotaKey: string;
}

/** Where legacy sessions are kept. Every method rejects when the store is unreachable (the node answers 503). */
export interface SharedSessionStore {
  /** Saves a new session, to expire after `ttlMs` unless loaded. */
  create(record: SharedSessionRecord, ttlMs: number): Promise<void>;
  /** The session, its life extended to `ttlMs` from now; undefined when unknown, expired or deleted. */
  load(id: string, ttlMs: number): Promise<SharedSessionRecord | undefined>;
  /** Saves changed state of an existing session (a deleted one stays deleted). */
  save(record: SharedSessionRecord, ttlMs: number): Promise<void>;
  /** Ends the session everywhere. */
  delete(id: string): Promise<void>;
}

/** Publish/subscribe between the nodes. Delivery is at most once, to every node subscribed at the time. */
export interface MessageBus {
  publish(channel: string, message: string): Promise<void>;
  /** Resolves once messages published afterwards are delivered to `listener`. */
  subscribe(channel: string, listener: (message: string) => void): Promise<void>;
  unsubscribe(channel: string, listener: (message: string) => void): Promise<void>;
}

/** Everything `createMcpHttpHandler({ shared })` needs to serve as one node of many. */
export interface SharedState {
  readonly sessions: SharedSessionStore;
  readonly bus: MessageBus;
  /** Events of resumable streams; replaces `eventStore`. */
  readonly events: EventStore;
}

/** The bus channel of one session (responses, cancellations, unrelated messages, state, the end). */
export function sessionChannel(id: string): string {
  return `session:${id}`;
}

/** The bus channel of list-changed and resource-updated broadcasts. */
export const BROADCAST_CHANNEL = 'broadcast';

/** What travels on a session channel. */
export type SessionBusMessage =
  /** A client's response to a server→client request, for the node that sent the request. */
  | { readonly t: 'response'; readonly m: unknown }
  /** A client notification about a request running on another node (`notifications/cancelled`). */
  | { readonly t: 'notification'; readonly m: unknown }
  /** A message unrelated to any request, for the node holding the standalone stream. */
  | { readonly t: 'unrelated'; readonly m: string }
  /** The session's state changed. */
  | { readonly t: 'state'; readonly r: SharedSessionRecord }
  /** The session ended. */
  | { readonly t: 'close' };
