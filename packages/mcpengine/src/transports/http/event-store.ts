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
  /**
   * Events kept for one session; beyond it the session's own oldest events go, so that one busy (or hostile)
   * session cannot push every other session's events out. Default 1 000 (at most `maxEvents`).
   */
  maxEventsPerSession?: number;
  /** Bytes kept for one session, likewise. Default 2 MiB (at most `maxBytes`). */
  maxBytesPerSession?: number;
  /** How long an event is kept. Default 5 minutes. */
  maxAgeMs?: number;
}

interface Entry {
  readonly session: SessionLog;
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

/** Entries in insertion order, with a moving head: evicting the oldest is O(1), compaction is amortised. */
class EntryQueue {
  private items: Entry[] = [];
  private head = 0;

  push(entry: Entry): void {
    this.items.push(entry);
  }

  /** The oldest entry not yet evicted, skipping (and dropping) evicted ones. */
  oldest(): Entry | undefined {
    while (this.head < this.items.length) {
      const entry = this.items[this.head]!;
      if (!entry.evicted) return entry;
      this.head++;
    }
    return undefined;
  }

  /** Drops consumed and evicted entries once they outnumber the live ones (they pin their messages). */
  compact(live: number): void {
    if (live === 0) {
      this.items = [];
      this.head = 0;
    } else if (
      this.items.length - this.head > 2 * live + 1024 ||
      (this.head > 1024 && this.head * 2 > this.items.length)
    ) {
      this.items = this.items.slice(this.head).filter((e) => !e.evicted);
      this.head = 0;
    }
  }
}

/** What one session holds. */
interface SessionLog {
  readonly id: string;
  readonly streams: Map<string, StreamLog>;
  readonly queue: EntryQueue;
  count: number;
  bytes: number;
}

/**
 * An in-process event store with per-session and global bounds. A session over its own bound loses its own
 * oldest events; beyond the global bound (many sessions at once) the oldest events overall go.
 */
export class MemoryEventStore implements EventStore {
  private readonly maxEvents: number;
  private readonly maxBytes: number;
  private readonly maxEventsPerSession: number;
  private readonly maxBytesPerSession: number;
  private readonly maxAgeMs: number;
  private readonly sessions = new Map<string, SessionLog>();
  /** Every live entry in insertion order, for expiry and global eviction. */
  private readonly queue = new EntryQueue();
  private count = 0;
  private bytes = 0;

  constructor(options: MemoryEventStoreOptions = {}) {
    this.maxEvents = options.maxEvents ?? 10_000;
    this.maxBytes = options.maxBytes ?? 16 * 1024 * 1024;
    this.maxEventsPerSession = options.maxEventsPerSession ?? Math.min(1_000, this.maxEvents);
    this.maxBytesPerSession = options.maxBytesPerSession ?? Math.min(2 * 1024 * 1024, this.maxBytes);
    this.maxAgeMs = options.maxAgeMs ?? 5 * 60_000;
  }

  /** Events and bytes currently held (for tests and metrics). */
  get size(): { events: number; bytes: number; sessions: number } {
    this.expire(Date.now());
    return { events: this.count, bytes: this.bytes, sessions: this.sessions.size };
  }

  append(sessionId: string, event: StoredEvent): void {
    const now = Date.now();
    let session = this.sessions.get(sessionId);
    if (!session) {
      session = { id: sessionId, streams: new Map(), queue: new EntryQueue(), count: 0, bytes: 0 };
      this.sessions.set(sessionId, session);
    }
    let log = session.streams.get(event.streamId);
    if (!log) session.streams.set(event.streamId, (log = { entries: [], firstRetained: event.seq }));
    const entry: Entry = { session, event, at: now, evicted: false };
    log.entries.push(entry);
    session.queue.push(entry);
    this.queue.push(entry);
    session.count++;
    session.bytes += event.message.length;
    this.count++;
    this.bytes += event.message.length;
    this.expire(now);
    while (session.count > this.maxEventsPerSession || session.bytes > this.maxBytesPerSession) {
      this.evict(session.queue.oldest()!);
    }
    while (this.count > this.maxEvents || this.bytes > this.maxBytes) this.evict(this.queue.oldest()!);
    session.queue.compact(session.count);
    this.queue.compact(this.count);
  }

  after(sessionId: string, streamId: string, afterSeq: number): readonly StoredEvent[] | undefined {
    this.expire(Date.now());
    const log = this.sessions.get(sessionId)?.streams.get(streamId);
    // The client must hold an event we still have (or the one just before the oldest we have).
    if (!log || afterSeq + 1 < log.firstRetained) return undefined;
    const lastSeq = log.entries.at(-1)?.event.seq;
    if (lastSeq === undefined || afterSeq > lastSeq) return lastSeq === undefined ? undefined : [];
    return log.entries.filter((e) => e.event.seq > afterSeq).map((e) => e.event);
  }

  dropSession(sessionId: string): void {
    const session = this.sessions.get(sessionId);
    if (!session) return;
    this.sessions.delete(sessionId);
    for (const log of session.streams.values()) {
      for (const entry of log.entries) this.forget(entry);
    }
    this.queue.compact(this.count);
  }

  private expire(now: number): void {
    for (
      let entry = this.queue.oldest();
      entry && now - entry.at > this.maxAgeMs;
      entry = this.queue.oldest()
    ) {
      this.evict(entry);
    }
    this.queue.compact(this.count);
  }

  /** Evicts an entry that is the oldest of its session (so also the oldest of its stream). */
  private evict(entry: Entry): void {
    const { session } = entry;
    const log = session.streams.get(entry.event.streamId);
    if (log) {
      // Appends are in seq order per stream, so the oldest entry of a session is the first of its stream.
      if (log.entries[0] === entry) log.entries.shift();
      log.firstRetained = Math.max(log.firstRetained, entry.event.seq + 1);
      if (log.entries.length === 0) {
        session.streams.delete(entry.event.streamId);
        if (session.streams.size === 0 && this.sessions.get(session.id) === session) {
          this.sessions.delete(session.id);
        }
      }
    }
    this.forget(entry);
  }

  private forget(entry: Entry): void {
    if (entry.evicted) return;
    entry.evicted = true;
    entry.session.count--;
    entry.session.bytes -= entry.event.message.length;
    this.count--;
    this.bytes -= entry.event.message.length;
  }
}
