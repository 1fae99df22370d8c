/**
 * A logical SSE stream: the response stream of one POST, or a session's standalone GET stream. It outlives its
 * HTTP connections: in the legacy era a client may lose the connection (or the server may close it to make the
 * client poll, SEP-1699) and resume with `Last-Event-ID`, and the stream continues on the new connection.
 *
 * Without an event store a stream has no event ids and cannot be resumed: it is exactly its one connection.
 */
import type { EventStore, StoredEvent } from './event-store.js';
import type { SseConnection } from './sse-writer.js';

export interface StreamOptions {
  /** Set for resumable (legacy) streams. */
  readonly store?: { readonly store: EventStore; readonly sessionId: string } | undefined;
  /** Reports failures of the event store. */
  readonly report: (error: unknown, where: string) => void;
}

/** `<stream>-<seq>`: the stream comes first so that a `Last-Event-ID` names the stream to resume. */
export function eventId(streamId: string, seq: number): string {
  return `${streamId}-${seq}`;
}

export function parseEventId(value: string): { streamId: string; seq: number } | undefined {
  const match = /^([0-9a-z]{1,12})-(\d{1,15})$/.exec(value.trim());
  if (!match) return undefined;
  return { streamId: match[1]!, seq: Number(match[2]) };
}

export class ResponseStream {
  private seq = 0;
  private connection: SseConnection | undefined;
  private resuming = false;
  private ended = false;
  /** A connection was attached at least once: until then nobody listens and sends fail. */
  private opened = false;
  private readonly endListeners: (() => void)[] = [];

  constructor(
    readonly id: string,
    private readonly options: StreamOptions,
  ) {}

  get resumable(): boolean {
    return this.options.store !== undefined;
  }

  /** The request this stream answers has been answered (never true for a standalone stream until the session ends). */
  get done(): boolean {
    return this.ended;
  }

  get connected(): boolean {
    return this.connection !== undefined && !this.connection.closed;
  }

  onEnd(listener: () => void): void {
    if (this.ended) listener();
    else this.endListeners.push(listener);
  }

  /**
   * Starts the stream on its first connection. A resumable stream begins with a priming event (an id and empty
   * data) and a `retry` hint, so the client can reconnect from the very start.
   */
  open(connection: SseConnection, retryMs: number): void {
    this.connection?.close();
    this.opened = true;
    this.connection = connection;
    connection.onClose(() => {
      if (this.connection === connection) this.connection = undefined;
    });
    if (this.options.store) {
      const seq = this.seq === 0 ? 0 : ++this.seq;
      this.record({ streamId: this.id, seq, message: '' });
      connection.write(`id: ${eventId(this.id, seq)}\nretry: ${retryMs}\ndata: \n\n`);
    }
  }

  /** Sends one message; true if it was written or stored for a reconnecting client. */
  send(message: string): boolean {
    if (this.ended || !this.opened) return false;
    if (!this.options.store) return this.connection?.event(message) ?? false;
    const seq = ++this.seq;
    this.record({ streamId: this.id, seq, message });
    if (this.connection && !this.resuming) this.connection.event(message, eventId(this.id, seq));
    return true;
  }

  /**
   * Closes the current connection without ending the stream (SEP-1699 polling): the client reconnects after
   * `retryMs` and resumes. Only resumable streams can do this.
   */
  detach(retryMs?: number): boolean {
    if (!this.options.store || this.ended) return false;
    const connection = this.connection;
    this.connection = undefined;
    if (connection) {
      if (retryMs !== undefined) connection.write(`retry: ${retryMs}\n\n`);
      connection.close();
    }
    return true;
  }

  /**
   * Continues the stream on a new connection after `afterSeq`: replays what the client missed, then goes live
   * (or ends, if the stream is done). Returns false when the missed events are no longer available.
   */
  async resume(connection: SseConnection, afterSeq: number): Promise<boolean> {
    const stored = this.options.store;
    if (!stored) return false;
    this.detach();
    this.resuming = true;
    this.opened = true;
    try {
      let last = afterSeq;
      // Replay until caught up; events sent while an asynchronous store answers are picked up next round.
      for (let round = 0; round < 16; round++) {
        const events = await stored.store.after(stored.sessionId, this.id, last);
        if (events === undefined) return false;
        for (const event of events) {
          if (event.seq <= last) continue;
          last = event.seq;
          if (event.message !== '') connection.event(event.message, eventId(this.id, event.seq));
        }
        if (events.length === 0 || last >= this.seq) break;
      }
      if (connection.closed) return true;
      if (this.ended) {
        connection.close();
        return true;
      }
      this.connection = connection;
      connection.onClose(() => {
        if (this.connection === connection) this.connection = undefined;
      });
      return true;
    } finally {
      this.resuming = false;
    }
  }

  /** The stream's last message was sent: end the connection and the stream. */
  end(): void {
    if (this.ended) return;
    this.ended = true;
    const connection = this.connection;
    this.connection = undefined;
    connection?.close();
    for (const listener of this.endListeners.splice(0)) listener();
  }

  /** The client went away for good (modern era) or the session ended: drop the connection without a goodbye. */
  abort(): void {
    this.end();
  }

  private record(event: StoredEvent): void {
    const stored = this.options.store;
    if (!stored) return;
    try {
      stored.store.append(stored.sessionId, event);
    } catch (error) {
      this.options.report(error, 'event store');
    }
  }
}
