/**
 * Resumability for legacy Streamable HTTP (2025-03-26 … 2025-11-25): every SSE event of a session's streams is
 * recorded so that a client that lost its connection can reconnect with `Last-Event-ID` and receive what it
 * missed, on the stream it missed it on.
 *
 * Event ids are `<stream>-<seq>` and are assigned by the transport; a store only keeps events. The default
 * `MemoryEventStore` is bounded by count, bytes and age. A custom store (a database, a shared cache) implements
 * the same three methods.
 */

export interface StoredEvent {
  /** The stream within the session (`0` is the standalone GET stream). */
  readonly streamId: string;
  /** Position in the stream, from 0 (the priming event, stored with an empty message). */
  readonly seq: number;
  /** One serialized JSON-RPC message; empty for the priming event. */
  readonly message: string;
}

export interface EventStore {
  /**
   * Records one event. Must make it visible to `after` at once (buffer it locally if the backing store is
   * remote): a reconnect may arrive immediately.
   */
  append(sessionId: string, event: StoredEvent): void;
  /**
   * The events of `streamId` with `seq > afterSeq`, oldest first. `undefined` when the store no longer holds the
   * event `afterSeq` or anything after it that was recorded (evicted or expired): the stream cannot be resumed
   * without a gap.
   */
  after(
    sessionId: string,
    streamId: string,
    afterSeq: number,
  ): readonly StoredEvent[] | undefined | Promise<readonly StoredEvent[] | undefined>;
  /** Forgets every event of a session (it ended). */
  dropSession(sessionId: string): void;
}

export interface MemoryEventStoreOptions {
  /** Events kept across all sessions. Default 10 000. */
  maxEvents?: number;
  /** Bytes of messages kept across all sessions (UTF-16 length as an estimate). Default 16 MiB. */
  maxBytes?: number;
  /** How long an event is kept. Default 5 minutes. */
  maxAgeMs?: number;
}

interface Entry {
  readonly sessionId: string;
  readonly event: StoredEvent;
  readonly at: number;
  evicted: boolean;
}

interface StreamLog {
  /** Entries in seq order; evicted ones are removed from the front. */
  entries: Entry[];
  /** The lowest seq ever evicted + 1, i.e. the first seq that can still be replayed without a gap. */
  firstRetained: number;
}

/** An in-process event store with global bounds; oldest events go first. */
export class MemoryEventStore implements EventStore {
  private readonly maxEvents: number;
  private readonly maxBytes: number;
  private readonly maxAgeMs: number;
  private readonly sessions = new Map<string, Map<string, StreamLog>>();
  /** Every live entry in insertion order, for eviction. */
  private queue: Entry[] = [];
  private head = 0;
  private count = 0;
  private bytes = 0;

  constructor(options: MemoryEventStoreOptions = {}) {
    this.maxEvents = options.maxEvents ?? 10_000;
    this.maxBytes = options.maxBytes ?? 16 * 1024 * 1024;
    this.maxAgeMs = options.maxAgeMs ?? 5 * 60_000;
  }

  /** Events and bytes currently held (for tests and metrics). */
  get size(): { events: number; bytes: number; sessions: number } {
    this.expire(Date.now());
    return { events: this.count, bytes: this.bytes, sessions: this.sessions.size };
  }

  append(sessionId: string, event: StoredEvent): void {
    const now = Date.now();
    let streams = this.sessions.get(sessionId);
    if (!streams) this.sessions.set(sessionId, (streams = new Map()));
    let log = streams.get(event.streamId);
    if (!log) streams.set(event.streamId, (log = { entries: [], firstRetained: event.seq }));
    const entry: Entry = { sessionId, event, at: now, evicted: false };
    log.entries.push(entry);
    this.queue.push(entry);
    this.count++;
    this.bytes += event.message.length;
    this.expire(now);
    while (this.count > this.maxEvents || this.bytes > this.maxBytes) this.evictOldest();
  }

  after(sessionId: string, streamId: string, afterSeq: number): readonly StoredEvent[] | undefined {
    this.expire(Date.now());
    const log = this.sessions.get(sessionId)?.get(streamId);
    // The client must hold an event we still have (or the one just before the oldest we have).
    if (!log || afterSeq + 1 < log.firstRetained) return undefined;
    const lastSeq = log.entries.at(-1)?.event.seq;
    if (lastSeq === undefined || afterSeq > lastSeq) return lastSeq === undefined ? undefined : [];
    return log.entries.filter((e) => e.event.seq > afterSeq).map((e) => e.event);
  }

  dropSession(sessionId: string): void {
    const streams = this.sessions.get(sessionId);
    if (!streams) return;
    this.sessions.delete(sessionId);
    for (const log of streams.values()) {
      for (const entry of log.entries) this.forget(entry);
    }
    this.compact();
  }

  private expire(now: number): void {
    while (this.head < this.queue.length) {
      const entry = this.queue[this.head]!;
      if (entry.evicted) {
        this.head++;
        continue;
      }
      if (now - entry.at <= this.maxAgeMs) break;
      this.evictOldest();
    }
  }

  private evictOldest(): void {
    while (this.head < this.queue.length) {
      const entry = this.queue[this.head++]!;
      if (entry.evicted) continue;
      const streams = this.sessions.get(entry.sessionId);
      const log = streams?.get(entry.event.streamId);
      if (log && streams) {
        // Appends are in seq order per stream, so the oldest entry overall is the first of its stream.
        if (log.entries[0] === entry) log.entries.shift();
        log.firstRetained = Math.max(log.firstRetained, entry.event.seq + 1);
        if (log.entries.length === 0) {
          streams.delete(entry.event.streamId);
          if (streams.size === 0) this.sessions.delete(entry.sessionId);
        }
      }
      this.forget(entry);
      break;
    }
    this.compact();
  }

  private forget(entry: Entry): void {
    if (entry.evicted) return;
    entry.evicted = true;
    this.count--;
    this.bytes -= entry.event.message.length;
  }

  private compact(): void {
    // Drop consumed and evicted entries once they outnumber the live ones (they pin their messages).
    if (
      this.queue.length - this.head > 2 * this.count + 1024 ||
      (this.head > 1024 && this.head * 2 > this.queue.length)
    ) {
      this.queue = this.queue.slice(this.head).filter((e) => !e.evicted);
      this.head = 0;
    }
    if (this.count === 0) {
      this.queue = [];
      this.head = 0;
    }
  }
}
