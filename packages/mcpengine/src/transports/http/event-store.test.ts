import { afterEach, describe, expect, it, vi } from 'vitest';
import { MemoryEventStore } from './event-store.js';

const event = (streamId: string, seq: number, message = `m${seq}`) => ({ streamId, seq, message });

afterEach(() => vi.useRealTimers());

describe('MemoryEventStore', () => {
  it('returns the events of one stream after a position, per session', () => {
    const store = new MemoryEventStore();
    store.append('s1', event('1', 0, ''));
    store.append('s1', event('1', 1));
    store.append('s1', event('2', 0, ''));
    store.append('s1', event('1', 2));
    store.append('s2', event('1', 0, ''));
    expect(store.after('s1', '1', 0)?.map((e) => e.seq)).toEqual([1, 2]);
    expect(store.after('s1', '1', 2)).toEqual([]);
    expect(store.after('s1', '3', 0)).toBeUndefined();
    expect(store.after('s2', '1', 0)).toEqual([]);
    expect(store.after('s3', '1', 0)).toBeUndefined();
  });

  it('evicts the oldest events beyond the count and byte bounds, and reports the gap', () => {
    const store = new MemoryEventStore({ maxEvents: 3, maxBytes: 1_000 });
    for (let seq = 0; seq < 5; seq++) store.append('s', event('1', seq));
    expect(store.size.events).toBe(3);
    expect(store.after('s', '1', 0)).toBeUndefined(); // seq 1 is gone
    expect(store.after('s', '1', 1)?.map((e) => e.seq)).toEqual([2, 3, 4]);
    const bytes = new MemoryEventStore({ maxBytes: 10 });
    bytes.append('s', event('1', 0, 'x'.repeat(6)));
    bytes.append('s', event('1', 1, 'y'.repeat(6)));
    expect(bytes.size).toMatchObject({ events: 1, bytes: 6 });
  });

  it('expires events by age', () => {
    vi.useFakeTimers();
    const store = new MemoryEventStore({ maxAgeMs: 1_000 });
    store.append('s', event('1', 0));
    vi.advanceTimersByTime(600);
    store.append('s', event('1', 1));
    vi.advanceTimersByTime(600);
    expect(store.size.events).toBe(1);
    vi.advanceTimersByTime(600);
    expect(store.size).toEqual({ events: 0, bytes: 0, sessions: 0 });
  });

  it('forgets a session entirely', () => {
    const store = new MemoryEventStore();
    for (let i = 0; i < 100; i++) store.append('gone', event(String(i % 3), i));
    store.append('kept', event('1', 0));
    store.dropSession('gone');
    expect(store.size).toEqual({ events: 1, bytes: 2, sessions: 1 });
    expect(store.after('gone', '1', 0)).toBeUndefined();
  });
});
