/**
 * The Redis stores on their own, against the real Redis (127.0.0.1:6379): the bounds of the event store (count,
 * bytes, age; per session), the task store's paging and limits, and TTLs on every key. A key prefix of this run
 * in a random database, cleaned up afterwards.
 */
import { randomBytes } from 'node:crypto';
import type { TaskRecord } from 'mcpengine/server';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedisScaleOut, RedisEventStore, RedisTaskStore, type RedisScaleOut } from './index.js';

const DB = 1 + Math.floor(Math.random() * 15);
const URL = `redis://127.0.0.1:6379/${DB}`;
const PREFIX = `mcpengine-test-${randomBytes(6).toString('hex')}:`;

let redis: Redis;
let scaleOut: RedisScaleOut;
const errors: unknown[] = [];

beforeAll(async () => {
  redis = new Redis(URL);
  scaleOut = await createRedisScaleOut({ url: URL, prefix: PREFIX, onError: (error) => errors.push(error) });
});

afterAll(async () => {
  const left = await redis.keys(`${PREFIX}*`);
  if (left.length > 0) await redis.del(...left);
  await scaleOut.close();
  redis.disconnect();
});

function events(prefix: string, options: ConstructorParameters<typeof RedisEventStore>[3]) {
  return new RedisEventStore(redis, `${PREFIX}${prefix}:`, (error) => errors.push(error), options);
}

describe('RedisEventStore', () => {
  it('replays a stream after a seq, across instances (another node), and refuses a gap', async () => {
    const writer = events('replay', {});
    const reader = events('replay', {});
    for (let seq = 0; seq <= 3; seq++)
      writer.append('s1', { streamId: 'ab1', seq, message: seq ? `m${seq}` : '' });
    await writer.flush();
    expect(await reader.after('s1', 'ab1', 1)).toEqual([
      { streamId: 'ab1', seq: 2, message: 'm2' },
      { streamId: 'ab1', seq: 3, message: 'm3' },
    ]);
    expect(await reader.after('s1', 'ab1', 3)).toEqual([]);
    expect(await reader.after('s1', 'nope', 0)).toBeUndefined();
    expect(await reader.after('other', 'ab1', 0)).toBeUndefined();
  });

  it('bounds each session by count and bytes: a busy session loses its own oldest events only', async () => {
    const store = events('bounds', { maxEventsPerSession: 3, maxBytesPerSession: 10_000 });
    store.append('quiet', { streamId: 'q', seq: 1, message: 'kept' });
    for (let seq = 1; seq <= 10; seq++) store.append('busy', { streamId: 'b', seq, message: `event ${seq}` });
    await store.flush();
    expect(await redis.llen(store.listKey('busy'))).toBe(3);
    // The client holding event 7 can resume (8, 9, 10 are kept); one holding event 5 cannot.
    expect((await store.after('busy', 'b', 7))!.map((e) => e.seq)).toEqual([8, 9, 10]);
    expect(await store.after('busy', 'b', 5)).toBeUndefined();
    expect(await store.after('quiet', 'q', 0)).toEqual([{ streamId: 'q', seq: 1, message: 'kept' }]);

    const bytes = events('bytes', { maxEventsPerSession: 1_000, maxBytesPerSession: 200 });
    for (let seq = 1; seq <= 10; seq++) bytes.append('big', { streamId: 'x', seq, message: 'y'.repeat(60) });
    await bytes.flush();
    const held = await redis.lrange(bytes.listKey('big'), 0, -1);
    expect(held.reduce((sum, entry) => sum + Buffer.byteLength(entry), 0)).toBeLessThanOrEqual(200);
    expect(Number(await redis.hget(bytes.metaKey('big'), '#bytes'))).toBe(
      held.reduce((sum, entry) => sum + Buffer.byteLength(entry), 0),
    );
    expect(await bytes.after('big', 'x', 10 - held.length)).toHaveLength(held.length);
    expect(await bytes.after('big', 'x', 1)).toBeUndefined();
  });

  it('every key expires with the age bound; a dropped session leaves nothing', async () => {
    const store = events('ttl', { maxAgeMs: 60_000 });
    store.append('s', { streamId: 'z', seq: 0, message: '' });
    await store.flush();
    for (const key of [store.listKey('s'), store.metaKey('s')]) {
      const ttl = await redis.pttl(key);
      expect(ttl).toBeGreaterThan(0);
      expect(ttl).toBeLessThanOrEqual(60_000);
    }
    store.dropSession('s');
    await redis.ping();
    expect(await redis.exists(store.listKey('s'), store.metaKey('s'))).toBe(0);
  });
});

function task(id: string, owner: string, status: TaskRecord['status'] = 'working'): TaskRecord {
  const now = Date.now();
  return {
    taskId: id,
    owner,
    dialect: 'experimental',
    method: 'tools/call',
    seq: 0,
    status,
    createdAt: now,
    lastUpdatedAt: now,
    ttlMs: 60_000,
    pollIntervalMs: 1_000,
  };
}

describe('RedisTaskStore', () => {
  it('creates, gets, pages, counts active tasks, and deletes an owner, every key with a TTL', async () => {
    const store = new RedisTaskStore(redis, `${PREFIX}tasks:`, { maxTaskBytes: 2_000 });
    const owner = 'session:abc';
    for (let i = 0; i < 5; i++) await store.create(task(`t${i}`, owner));
    await store.create(task('elsewhere', 'session:other'));
    await expect(store.create(task('t0', owner))).rejects.toThrow(/Duplicate/);
    expect(await store.countActive(owner)).toBe(5);

    const done = (await store.get('t1'))!;
    done.status = 'completed';
    done.result = { content: [] };
    await store.put(done);
    expect(await store.get('t1')).toMatchObject({ status: 'completed', result: { content: [] } });
    expect(await store.countActive(owner)).toBe(4);
    const huge = (await store.get('t2'))!;
    huge.result = { text: 'x'.repeat(5_000) };
    await expect(store.put(huge)).rejects.toThrow(/exceeds/);

    const first = await store.list(owner, 0, 2);
    expect(first.tasks.map((t) => t.taskId)).toEqual(['t0', 't1']);
    expect(first.more).toBe(true);
    const second = await store.list(owner, first.tasks[1]!.seq, 10);
    expect(second.tasks.map((t) => t.taskId)).toEqual(['t2', 't3', 't4']);
    expect(second.more).toBe(false);

    const keys = await redis.keys(`${PREFIX}tasks:*`);
    for (const key of keys) expect(await redis.pttl(key)).toBeGreaterThan(0);

    expect((await store.deleteOwner(owner)).sort()).toEqual(['t0', 't1', 't2', 't3', 't4']);
    expect(await store.get('t0')).toBeUndefined();
    expect(await store.list(owner, 0, 10)).toEqual({ tasks: [], more: false });
    expect(await store.get('elsewhere')).toMatchObject({ owner: 'session:other' });
    await store.delete('elsewhere');
    expect(await redis.keys(`${PREFIX}tasks:*`)).toEqual([]);
    expect(errors).toEqual([]);
  });
});
