/**
 * A small cache for cacheable results (2026-07-28): fresh while `now < receivedAt + ttlMs`, invalidated by the
 * matching list-changed notification. Keys are the method plus the parameters that affect the result.
 */
import type { JsonObject } from '../protocol/types.js';

interface CacheEntry {
  value: JsonObject;
  expiresAt: number;
}

export class ResultCache {
  private readonly entries = new Map<string, CacheEntry>();

  constructor(private readonly maxEntries = 1_000) {}

  static key(method: string, params: JsonObject): string {
    return `${method}\0${JSON.stringify(params)}`;
  }

  get(key: string): JsonObject | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (Date.now() >= entry.expiresAt) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.value;
  }

  /** Stores a result if it says it may be cached (a positive `ttlMs`; negative or absent means stale). */
  put(key: string, value: JsonObject): void {
    const ttl = typeof value.ttlMs === 'number' && value.ttlMs > 0 ? value.ttlMs : 0;
    if (ttl === 0) return;
    if (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(key, { value, expiresAt: Date.now() + ttl });
  }

  /** Drops every entry of one method (e.g. all pages of tools/list after notifications/tools/list_changed). */
  invalidate(method: string): void {
    const prefix = `${method}\0`;
    for (const key of [...this.entries.keys()]) if (key.startsWith(prefix)) this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
  }
}
