/**
 * The one contract every message transport implements.
 *
 * A transport moves serialized JSON-RPC messages. It never parses or interprets them: the protocol core does
 * that, so that malformed input is answered in one place with the spec's error codes. Outbound messages are
 * handed over already serialized so that pre-serialized payloads (list pages) are never re-encoded.
 */
import type { RequestId } from '../protocol/types.js';

/**
 * Internal: a transport's way to send a message the engine serialized itself, skipping the checks `send` makes
 * on text from elsewhere. Such a message is JSON.stringify output (pieces of it, joined), so it never holds a raw
 * line break; the stdio transports scan `send`'s argument for one, and that scan flattens the message (a rope),
 * a copy that cost more than serializing a small response.
 */
export const sendSerialized: unique symbol = Symbol('mcpengine.sendSerialized');

export interface Transport {
  /** Starts delivering inbound messages to `handlers`. Called exactly once, before any `send`. */
  start(handlers: TransportHandlers): void | Promise<void>;
  /** Sends one serialized JSON-RPC message (without a trailing newline). Throws if the transport is closed. */
  send(message: string): void;
  /** Optional: `send` for a message the engine serialized itself (see `sendSerialized`). */
  [sendSerialized]?(message: string): void;
  /** Closes the channel. Resolves once the transport has released its resources. Idempotent. */
  close(): Promise<void>;
}

export interface TransportHandlers {
  /** One inbound message, exactly as received (a single line for stdio; a body for HTTP). */
  message(text: string): void;
  /**
   * Inbound bytes that could not become a message: an oversized line, invalid UTF-8. The protocol core answers
   * with a JSON-RPC error and carries on.
   */
  invalid(problem: InboundProblem): void;
  /** The channel closed (peer hung up, stream ended, or `close()` was called). Called at most once. */
  close(error?: Error): void;
  /**
   * Optional: the peer will send nothing more, but outbound messages can still be delivered until `close()`.
   * A stdio server gets this when stdin ends, so it can still answer the requests it already received. When a
   * transport calls `end`, it waits for its owner to call `close()`.
   */
  end?(): void;
  /**
   * Optional, for transports that see requests and responses apart (HTTP): request `id` will get no response
   * (an HTTP error status without a JSON-RPC answer, a broken stream, an oversized body). The owner fails it now
   * instead of waiting for its timeout. `error` is local, never the peer's answer.
   */
  requestFailed?(id: RequestId, error: Error): void;
  /**
   * Optional: the server ended the session (legacy Streamable HTTP: HTTP 404 to a request in a session). The
   * owner starts a new one by sending `initialize` again; the transport holds what it was sending and sends
   * it once in the new session. Without this handler, held requests fail through `requestFailed`.
   */
  sessionExpired?(): void;
  /**
   * Optional, for transports with authorization (HTTP with OAuth): an authorization flow obtained new credentials
   * (after a 401, or a step-up for more scopes). What the owner learned with the old ones may be out of date: the
   * client drops its result cache.
   */
  authorizationChanged?(): void;
}

export type InboundProblem = { kind: 'too-large'; limit: number; size: number } | { kind: 'invalid-utf8' };
