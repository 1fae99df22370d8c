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

  it('keeps the events of quiet sessions when one session floods the store', () => {
    const store = new MemoryEventStore({ maxEvents: 100, maxEventsPerSession: 20 });
    store.append('quiet', event('1', 0, ''));
    store.append('quiet', event('1', 1));
    for (let seq = 0; seq < 1_000; seq++) store.append('flood', event('1', seq));
    expect(store.after('quiet', '1', 0)?.map((e) => e.seq)).toEqual([1]);
    // The flooding session lost its own oldest events, and only those.
    expect(store.size.events).toBe(22);
    expect(store.after('flood', '1', 979)?.length).toBe(20);
    expect(store.after('flood', '1', 978)).toBeUndefined();
  });

  it('bounds the bytes of one session by evicting its own oldest events', () => {
    const store = new MemoryEventStore({ maxBytes: 1_000, maxBytesPerSession: 100 });
    store.append('quiet', event('1', 0, 'q'.repeat(50)));
    for (let seq = 0; seq < 50; seq++) store.append('flood', event(String(seq % 2), seq, 'f'.repeat(40)));
    expect(store.after('quiet', '1', -1)?.map((e) => e.message.length)).toEqual([50]);
    expect(store.size.bytes).toBe(50 + 80);
  });
});
