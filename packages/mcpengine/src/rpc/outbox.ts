/**
 * Where a message goes. On stdio every message goes to stdout; on Streamable HTTP a response and the
 * notifications and requests related to it go to that request's stream, everything else to the session's
 * standalone stream. The protocol core only ever talks to an `Outbox`, so it never needs to know which.
 */
export interface Outbox {
  /** Sends one serialized JSON-RPC message. Returns false if it could not be delivered (stream gone). */
  send(message: string): boolean;
}

/** An outbox that drops everything: for requests whose stream has closed. */
export const CLOSED_OUTBOX: Outbox = { send: () => false };
