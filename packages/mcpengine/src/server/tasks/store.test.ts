import { describe, expect, it } from 'vitest';
import { ExpiryQueue } from './expiry-queue.js';
import { MemoryTaskStore, TaskLimitError } from './store.js';
import type { TaskRecord } from './types.js';

let counter = 0;
function task(overrides: Partial<TaskRecord> = {}): TaskRecord {
  const now = overrides.createdAt ?? 1_000;
  return {
    taskId: `t${++counter}`,
    owner: 'a',
    dialect: 'extension',
    method: 'tools/call',
    seq: 0,
    status: 'working',
    createdAt: now,
    lastUpdatedAt: now,
    ttlMs: 1_000,
    pollIntervalMs: 100,
    ...overrides,
  };
}

describe('ExpiryQueue', () => {
  it('pops in expiry order and compacts', () => {
    const queue = new ExpiryQueue();
    const times = [50, 10, 40, 30, 20, 60, 0];
    times.forEach((t, i) => queue.push(t, `id${i}`));
    queue.compact((id) => id !== 'id6');
    const popped: number[] = [];
    for (let e = queue.pop(); e; e = queue.pop()) popped.push(e.time);
    expect(popped).toEqual([10, 20, 30, 40, 50, 60]);
  });
});

describe('MemoryTaskStore', () => {
  it("keeps tasks by id and lists an owner's tasks in creation order, after a seq", async () => {
    const store = new MemoryTaskStore({ now: () => 1_000 });
    const mine = [task(), task(), task()];
    for (const t of [mine[0]!, task({ owner: 'b' }), mine[1]!, mine[2]!]) await store.create(t);
    expect(await store.get(mine[1]!.taskId)).toBe(mine[1]);
    const first = await store.list('a', 0, 2);
    expect(first.tasks).toEqual(mine.slice(0, 2));
    expect(first.more).toBe(true);
    const rest = await store.list('a', first.tasks[1]!.seq, 2);
    expect(rest).toEqual({ tasks: [mine[2]], more: false });
    expect(await store.countActive('a')).toBe(3);
    mine[0]!.status = 'completed';
    await store.put(mine[0]!);
    expect(await store.countActive('a')).toBe(2);
    expect(await store.deleteOwner('a')).toHaveLength(3);
    expect(store.size).toBe(1);
  });

  it('expires tasks by TTL on access and tells the engine', async () => {
    let now = 1_000;
    const store = new MemoryTaskStore({ now: () => now });
    const evicted: string[] = [];
    store.onEvict = (id) => evicted.push(id);
    const short = task({ ttlMs: 100 });
    const long = task({ ttlMs: 10_000 });
    await store.create(short);
    await store.create(long);
    now = 1_099;
    expect(await store.get(short.taskId)).toBe(short);
    now = 1_100;
    expect(await store.get(short.taskId)).toBeUndefined();
    expect(await store.get(long.taskId)).toBe(long);
    expect(evicted).toEqual([short.taskId]);
    expect(await store.countActive('a')).toBe(1);
    store.close();
  });

  it("reclaims expired tasks with its own (unref'd) timer when nobody asks", async () => {
    const store = new MemoryTaskStore();
    const now = Date.now();
    for (let i = 0; i < 100; i++) await store.create(task({ createdAt: now, ttlMs: 30 }));
    expect(store.size).toBe(100);
    await new Promise((r) => setTimeout(r, 120));
    expect(store.size).toBe(0);
    expect(store.byteSize).toBe(0);
  });

  it('evicts the longest-finished tasks when full, and refuses when every task still runs', async () => {
    const store = new MemoryTaskStore({ maxTasks: 3, now: () => 1_000 });
    const [a, b, c] = [task(), task(), task()];
    for (const t of [a, b, c]) await store.create(t!);
    await expect(store.create(task())).rejects.toBeInstanceOf(TaskLimitError);
    b!.status = 'completed';
    await store.put(b!);
    a!.status = 'failed';
    await store.put(a!);
    const d = task();
    await store.create(d);
    // b finished first, so it went first.
    expect(await store.get(b!.taskId)).toBeUndefined();
    expect(await store.get(a!.taskId)).toBe(a);
    expect(store.size).toBe(3);
  });

  it('bounds the bytes kept: a result too large is refused, smaller ones push out finished tasks', async () => {
    const store = new MemoryTaskStore({ maxBytes: 4_000, now: () => 1_000 });
    const old = task();
    await store.create(old);
    old.status = 'completed';
    old.result = { content: [{ type: 'text', text: 'x'.repeat(2_000) }] };
    await store.put(old);
    const fresh = task();
    await store.create(fresh);
    fresh.result = { content: [{ type: 'text', text: 'y'.repeat(2_500) }] };
    fresh.status = 'completed';
    await store.put(fresh);
    expect(await store.get(old.taskId)).toBeUndefined();
    const huge = task();
    await store.create(huge);
    huge.result = { text: 'z'.repeat(10_000) };
    await expect(store.put(huge)).rejects.toBeInstanceOf(TaskLimitError);
    expect(store.byteSize).toBeLessThanOrEqual(4_000);
  });

  it('does not let the expiry queue grow with tasks deleted early', async () => {
    const store = new MemoryTaskStore({ now: () => 1_000 });
    for (let i = 0; i < 5_000; i++) {
      const t = task({ ttlMs: 3_600_000 });
      await store.create(t);
      await store.delete(t.taskId);
    }
    await store.get('anything');
    const queue = (store as unknown as { expiry: ExpiryQueue }).expiry;
    expect(queue.size).toBeLessThanOrEqual(1_024 + 1);
    store.close();
  });
});
