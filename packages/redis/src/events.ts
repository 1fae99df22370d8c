/**
 * The event store of resumable SSE streams on Redis, so that a stream written on one node can be resumed with
 * `Last-Event-ID` on any other.
 *
 * One list per session (`events:<session>`: `<stream> <seq> <time> <message>` entries, oldest first) and one hash
 * (`events-meta:<session>`: per stream the first seq still held, and the bytes held). A Lua script appends and
 * trims in one step, so each session is bounded by count, bytes and age whatever the number of nodes: a busy
 * (or hostile) session loses its own oldest events, never another session's. Both keys expire `maxAgeMs` after
 * the session's last event and are deleted when the session ends.
 *
 * `append` is synchronous (the engine's contract): events are buffered and written in one pipeline per turn;
 * `after` waits for that write first, so a reconnect on the same node sees every event at once.
 */
import type { Redis } from 'ioredis';
import type { EventStore, StoredEvent } from 'mcpengine/http';

export interface RedisEventStoreOptions {
  /** Events kept per session. Default 1 000. */
  maxEventsPerSession?: number;
  /** Bytes kept per session (UTF-8, entry headers included). Default 2 MiB. */
  maxBytesPerSession?: number;
  /** How long an event is kept, and how long a session's events outlive its last one. Default 5 minutes. */
  maxAgeMs?: number;
}

const APPEND = `
local bytes = redis.call('HINCRBY', KEYS[2], '#bytes', tonumber(ARGV[2]))
local count = redis.call('RPUSH', KEYS[1], ARGV[1])
local maxCount = tonumber(ARGV[3])
local maxBytes = tonumber(ARGV[4])
local cutoff = tonumber(ARGV[6]) - tonumber(ARGV[7])
while count > 0 do
  local head = redis.call('LINDEX', KEYS[1], 0)
  local stream, seq, at = string.match(head, '^(%S+) (%d+) (%d+) ')
  if count > maxCount or bytes > maxBytes or tonumber(at) < cutoff then
    redis.call('LPOP', KEYS[1])
    count = count - 1
    bytes = redis.call('HINCRBY', KEYS[2], '#bytes', -string.len(head))
    local first = tonumber(redis.call('HGET', KEYS[2], stream) or '0')
    if tonumber(seq) + 1 > first then redis.call('HSET', KEYS[2], stream, tonumber(seq) + 1) end
  else
    break
  end
end
redis.call('PEXPIRE', KEYS[1], ARGV[5])
redis.call('PEXPIRE', KEYS[2], ARGV[5])
return count
`;

interface Pending {
  readonly sessionId: string;
  readonly entry: string;
}

export class RedisEventStore implements EventStore {
  private readonly maxEvents: number;
  private readonly maxBytes: number;
  readonly maxAgeMs: number;
  private pending: Pending[] = [];
  private flushing: Promise<void> | undefined;

  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly report: (error: unknown) => void,
    options: RedisEventStoreOptions = {},
  ) {
    this.maxEvents = options.maxEventsPerSession ?? 1_000;
    this.maxBytes = options.maxBytesPerSession ?? 2 * 1024 * 1024;
    this.maxAgeMs = options.maxAgeMs ?? 5 * 60_000;
    for (const [name, value] of Object.entries({
      maxEventsPerSession: this.maxEvents,
      maxBytesPerSession: this.maxBytes,
      maxAgeMs: this.maxAgeMs,
    })) {
      if (!Number.isSafeInteger(value) || value <= 0)
        throw new TypeError(`${name} must be a positive integer`);
    }
    redis.defineCommand('mcpengineAppendEvent', { numberOfKeys: 2, lua: APPEND });
  }

  listKey(sessionId: string): string {
    return `${this.prefix}events:${sessionId}`;
  }

  metaKey(sessionId: string): string {
    return `${this.prefix}events-meta:${sessionId}`;
  }

  append(sessionId: string, event: StoredEvent): void {
    this.pending.push({ sessionId, entry: `${event.streamId} ${event.seq} ${Date.now()} ${event.message}` });
    this.flushing ??= Promise.resolve().then(() => this.write());
  }

  /** Resolves once every event appended so far is in Redis (or failed to get there, reported). */
  async flush(): Promise<void> {
    while (this.flushing) await this.flushing;
  }

  private async write(): Promise<void> {
    const batch = this.pending;
    this.pending = [];
    try {
      const pipeline = this.redis.pipeline();
      const now = Date.now();
      for (const { sessionId, entry } of batch) {
        (pipeline as unknown as AppendCommand).mcpengineAppendEvent(
          this.listKey(sessionId),
          this.metaKey(sessionId),
          entry,
          Buffer.byteLength(entry),
          this.maxEvents,
          this.maxBytes,
          this.maxAgeMs,
          now,
          this.maxAgeMs,
        );
      }
      const results = await pipeline.exec();
      for (const [error] of results ?? []) if (error) this.report(error);
    } catch (error) {
      this.report(error);
    } finally {
      this.flushing = this.pending.length > 0 ? Promise.resolve().then(() => this.write()) : undefined;
    }
  }

  async after(
    sessionId: string,
    streamId: string,
    afterSeq: number,
  ): Promise<readonly StoredEvent[] | undefined> {
    await this.flush();
    const [entries, first] = await Promise.all([
      this.redis.lrange(this.listKey(sessionId), 0, -1),
      this.redis.hget(this.metaKey(sessionId), streamId),
    ]);
    const cutoff = Date.now() - this.maxAgeMs;
    let firstRetained = first === null ? undefined : Number(first);
    const events: StoredEvent[] = [];
    const lead = `${streamId} `;
    for (const entry of entries) {
      if (!entry.startsWith(lead)) continue;
      const match = /^(\S+) (\d+) (\d+) /.exec(entry);
      if (!match) continue;
      const seq = Number(match[2]);
      if (Number(match[3]) < cutoff) {
        // Too old: gone, as if trimmed.
        firstRetained = Math.max(firstRetained ?? 0, seq + 1);
        continue;
      }
      events.push({ streamId, seq, message: entry.slice(match[0].length) });
    }
    firstRetained ??= events[0]?.seq;
    const lastSeq = events.at(-1)?.seq;
    // The client must hold an event we still have (or the one just before the oldest we have).
    if (firstRetained === undefined || lastSeq === undefined || afterSeq + 1 < firstRetained)
      return undefined;
    if (afterSeq > lastSeq) return [];
    return events.filter((event) => event.seq > afterSeq);
  }

  dropSession(sessionId: string): void {
    this.pending = this.pending.filter((p) => p.sessionId !== sessionId);
    this.redis
      .del(this.listKey(sessionId), this.metaKey(sessionId))
      .catch((error: unknown) => this.report(error));
  }
}

interface AppendCommand {
  mcpengineAppendEvent(...args: (string | number)[]): unknown;
}
