/**
 * Legacy sessions on Redis: one string key per session holding its record (JSON), expiring after the idle
 * timeout; every load extends it (`GETEX … PX`), so an idle session disappears by itself.
 */
import type { Redis } from 'ioredis';
import type { SharedSessionRecord, SharedSessionStore } from 'mcpengine/http';

export class RedisSessionStore implements SharedSessionStore {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  key(id: string): string {
    return `${this.prefix}session:${id}`;
  }

  async create(record: SharedSessionRecord, ttlMs: number): Promise<void> {
    const done = await this.redis.set(this.key(record.id), JSON.stringify(record), 'PX', ttlMs, 'NX');
    if (done !== 'OK') throw new Error(`Session ${record.id} already exists`);
  }

  async load(id: string, ttlMs: number): Promise<SharedSessionRecord | undefined> {
    const text = await this.redis.getex(this.key(id), 'PX', ttlMs);
    if (text === null) return undefined;
    try {
      const record = JSON.parse(text) as SharedSessionRecord;
      return record.id === id ? record : undefined;
    } catch {
      return undefined;
    }
  }

  async save(record: SharedSessionRecord, ttlMs: number): Promise<void> {
    // XX: a session deleted meanwhile (by another node) stays deleted.
    await this.redis.set(this.key(record.id), JSON.stringify(record), 'PX', ttlMs, 'XX');
  }

  async delete(id: string): Promise<void> {
    await this.redis.del(this.key(id));
  }
}
