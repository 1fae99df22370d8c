/**
 * Tasks on Redis (the 2025-11-25 tasks utility and the 2026-07-28 extension): created on one node, got, listed,
 * cancelled and updated on any. One key per task (`task:<id>`, JSON, expiring with the task's TTL) and two sorted
 * sets per owner: `tasks-owner:<owner>` by creation order (for `tasks/list`), `tasks-active:<owner>` (unfinished
 * ones, scored by expiry) for the per-owner limit. The sets expire with the owner's longest-lived task.
 */
import type { Redis } from 'ioredis';
import { TaskLimitError, type TaskPage, type TaskRecord, type TaskStore } from 'mcpengine/server';

export interface RedisTaskStoreOptions {
  /** Largest JSON of one task (its result above all); beyond it `TaskLimitError`. Default 1 MiB. */
  maxTaskBytes?: number;
}

const TERMINAL = new Set(['completed', 'failed', 'cancelled']);

export class RedisTaskStore implements TaskStore {
  readonly shared = true;
  onEvict: ((taskId: string) => void) | undefined;
  private readonly maxTaskBytes: number;
  /** Creation order across processes: milliseconds × 1024 plus a counter (safe integers for ~280 000 years). */
  private counter = 0;

  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    options: RedisTaskStoreOptions = {},
  ) {
    this.maxTaskBytes = options.maxTaskBytes ?? 1024 * 1024;
  }

  private taskKey(id: string): string {
    return `${this.prefix}task:${id}`;
  }

  private ownerKey(owner: string): string {
    return `${this.prefix}tasks-owner:${owner}`;
  }

  private activeKey(owner: string): string {
    return `${this.prefix}tasks-active:${owner}`;
  }

  private encode(task: TaskRecord): string {
    const json = JSON.stringify(task);
    if (Buffer.byteLength(json) > this.maxTaskBytes) {
      throw new TaskLimitError(`The task state exceeds ${this.maxTaskBytes} bytes`);
    }
    return json;
  }

  async create(task: TaskRecord): Promise<void> {
    task.seq = Date.now() * 1024 + (this.counter++ % 1024);
    const json = this.encode(task);
    const expires = task.createdAt + task.ttlMs;
    const ttl = Math.max(1, expires - Date.now());
    // The task key first: a duplicate id must not touch the indexes of the task that holds it.
    const created = await this.redis.set(this.taskKey(task.taskId), json, 'PX', ttl, 'NX');
    if (created !== 'OK') throw new Error(`Duplicate task id ${task.taskId}`);
    const multi = this.redis
      .multi()
      .zadd(this.ownerKey(task.owner), task.seq, task.taskId)
      .pexpire(this.ownerKey(task.owner), ttl, 'GT')
      .pexpire(this.ownerKey(task.owner), ttl, 'NX');
    if (!TERMINAL.has(task.status)) {
      multi
        .zadd(this.activeKey(task.owner), expires, task.taskId)
        .pexpire(this.activeKey(task.owner), ttl, 'GT')
        .pexpire(this.activeKey(task.owner), ttl, 'NX');
    }
    checked(await multi.exec());
  }

  async get(taskId: string): Promise<TaskRecord | undefined> {
    const text = await this.redis.get(this.taskKey(taskId));
    return text === null ? undefined : (JSON.parse(text) as TaskRecord);
  }

  async put(task: TaskRecord): Promise<void> {
    const json = this.encode(task);
    const ttl = task.createdAt + task.ttlMs - Date.now();
    if (ttl <= 0) return;
    const multi = this.redis.multi().set(this.taskKey(task.taskId), json, 'PX', ttl, 'XX');
    if (TERMINAL.has(task.status)) multi.zrem(this.activeKey(task.owner), task.taskId);
    checked(await multi.exec());
  }

  async delete(taskId: string): Promise<void> {
    const task = await this.get(taskId);
    const multi = this.redis.multi().del(this.taskKey(taskId));
    if (task) multi.zrem(this.ownerKey(task.owner), taskId).zrem(this.activeKey(task.owner), taskId);
    checked(await multi.exec());
  }

  async list(owner: string, afterSeq: number, limit: number): Promise<TaskPage> {
    const key = this.ownerKey(owner);
    const tasks: TaskRecord[] = [];
    let from = afterSeq;
    // Expired tasks leave their ids behind in the owner's set: they are skipped (and removed).
    for (;;) {
      const want = limit + 1 - tasks.length;
      const flat = await this.redis.zrangebyscore(key, `(${from}`, '+inf', 'WITHSCORES', 'LIMIT', 0, want);
      const ids: string[] = [];
      for (let i = 0; i < flat.length; i += 2) ids.push(flat[i]!);
      if (ids.length === 0) return { tasks, more: false };
      const texts = await this.redis.mget(ids.map((id) => this.taskKey(id)));
      const gone: string[] = [];
      for (let i = 0; i < ids.length; i++) {
        const text = texts[i];
        if (text === null || text === undefined) gone.push(ids[i]!);
        else if (tasks.length === limit) return { tasks, more: true };
        else tasks.push(JSON.parse(text) as TaskRecord);
      }
      if (gone.length > 0) await this.redis.zrem(key, ...gone);
      if (ids.length < want) return { tasks, more: false };
      from = Number(flat[flat.length - 1]);
    }
  }

  async countActive(owner: string): Promise<number> {
    const key = this.activeKey(owner);
    const [, count] = checked(
      await this.redis.multi().zremrangebyscore(key, '-inf', Date.now()).zcard(key).exec(),
    );
    return Number(count?.[1] ?? 0);
  }

  async deleteOwner(owner: string): Promise<string[]> {
    const ids = await this.redis.zrange(this.ownerKey(owner), '0', '-1');
    const multi = this.redis.multi().del(this.ownerKey(owner), this.activeKey(owner));
    if (ids.length > 0) multi.del(...ids.map((id) => this.taskKey(id)));
    checked(await multi.exec());
    return ids;
  }
}

/** The results of a MULTI, or the first error among them (MULTI does not fail as a whole). */
function checked<T>(results: [Error | null, T][] | null): [Error | null, T][] {
  if (results === null) throw new Error('Redis transaction aborted');
  for (const [error] of results) if (error) throw error;
  return results;
}
