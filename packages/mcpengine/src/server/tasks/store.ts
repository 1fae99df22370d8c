/**
 * Where tasks are kept. `TaskStore` is the contract (asynchronous, so a shared store such as Redis or a database
 * can implement it later); `MemoryTaskStore` is the default: bounded in count and size, expiring tasks by TTL.
 *
 * Expiry needs no timer per task: an expiry queue (a min-heap) is swept on every store operation, and one
 * unref'd timer, armed for the earliest expiry, reclaims memory when no request comes (clients that never come
 * back). Nothing here keeps the process alive.
 */
import { ExpiryQueue } from './expiry-queue.js';
import { expiresAt, isTerminal, type TaskRecord } from './types.js';

/** The store cannot take this task (too many tasks, or too much state). */
export class TaskLimitError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TaskLimitError';
  }
}

export interface TaskPage {
  readonly tasks: TaskRecord[];
  /** More tasks follow the last one returned. */
  readonly more: boolean;
}

export interface TaskStore {
  /**
   * Adds a new task and assigns its `seq`. Resolves once `get` finds it (the extension's strong consistency rule
   * for task creation). Rejects with `TaskLimitError` when the store is full.
   */
  create(task: TaskRecord): Promise<void>;
  /** The task, or undefined when it does not exist or has expired. */
  get(taskId: string): Promise<TaskRecord | undefined>;
  /** Saves a changed task. Rejects with `TaskLimitError` when its new state does not fit. */
  put(task: TaskRecord): Promise<void>;
  delete(taskId: string): Promise<void>;
  /** The owner's tasks created after `afterSeq` (0: from the start), oldest first, at most `limit`. */
  list(owner: string, afterSeq: number, limit: number): Promise<TaskPage>;
  /** How many unfinished tasks the owner has. */
  countActive(owner: string): Promise<number>;
  /** Deletes every task of an owner (its legacy session ended); resolves with their ids. */
  deleteOwner(owner: string): Promise<string[]>;
  /** The engine's hook: called with the id of every task the store drops by itself (expiry, eviction). */
  onEvict?: ((taskId: string) => void) | undefined;
  /** Stops timers and drops everything. */
  close?(): void;
  /**
   * The store is shared by several processes (a scaled-out server): `tasks/result` then watches tasks running
   * elsewhere, and a task finishing here first checks whether another process cancelled it.
   */
  readonly shared?: boolean;
}

export interface MemoryTaskStoreOptions {
  /** Tasks kept at once, finished ones included. Default 10,000. */
  maxTasks?: number;
  /** Approximate bytes of task state kept (JSON size plus a per-task overhead). Default 64 MiB. */
  maxBytes?: number;
  /** Clock, for tests. */
  now?: () => number;
}

interface Entry {
  readonly task: TaskRecord;
  bytes: number;
  terminal: boolean;
}

/** What a task costs beyond its JSON: map entries, the expiry queue slot, object headers. */
const ENTRY_OVERHEAD_BYTES = 256;
/** setTimeout's maximum delay. */
const MAX_TIMER_MS = 2_147_483_647;

/**
 * The in-process store. It keeps the very objects it is given (the engine owns them and saves after changing
 * them), so it is fast and never copies results.
 *
 * When full, it first drops expired tasks, then the tasks that finished longest ago (their results are the only
 * thing a client could still want, and a client that abandoned many tasks should not lock out new ones); it
 * rejects a new task only when every kept task is still running.
 */
export class MemoryTaskStore implements TaskStore {
  onEvict: ((taskId: string) => void) | undefined;
  private readonly maxTasks: number;
  private readonly maxBytes: number;
  private readonly now: () => number;
  private readonly tasks = new Map<string, Entry>();
  private readonly byOwner = new Map<string, Set<string>>();
  private readonly activeByOwner = new Map<string, number>();
  /** Finished tasks in the order they finished: eviction candidates, oldest first. */
  private readonly finished = new Set<string>();
  private readonly expiry = new ExpiryQueue();
  private bytes = 0;
  private nextSeq = 1;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private timerAt = Infinity;
  private closed = false;

  constructor(options: MemoryTaskStoreOptions = {}) {
    this.maxTasks = options.maxTasks ?? 10_000;
    this.maxBytes = options.maxBytes ?? 64 * 1024 * 1024;
    this.now = options.now ?? Date.now;
  }

  /** Tasks currently kept. */
  get size(): number {
    return this.tasks.size;
  }

  /** Approximate bytes currently kept. */
  get byteSize(): number {
    return this.bytes;
  }

  create(task: TaskRecord): Promise<void> {
    try {
      this.sweep();
      if (this.tasks.has(task.taskId)) throw new Error(`Duplicate task id ${task.taskId}`);
      const bytes = sizeOf(task);
      this.makeRoom(1, bytes);
      task.seq = this.nextSeq++;
      const terminal = isTerminal(task.status);
      this.tasks.set(task.taskId, { task, bytes, terminal });
      this.bytes += bytes;
      let owned = this.byOwner.get(task.owner);
      if (!owned) this.byOwner.set(task.owner, (owned = new Set()));
      owned.add(task.taskId);
      if (terminal) this.finished.add(task.taskId);
      else this.activeByOwner.set(task.owner, (this.activeByOwner.get(task.owner) ?? 0) + 1);
      const at = expiresAt(task);
      this.expiry.push(at, task.taskId);
      this.arm(at);
      return Promise.resolve();
    } catch (error) {
      return Promise.reject(error);
    }
  }

  get(taskId: string): Promise<TaskRecord | undefined> {
    this.sweep();
    return Promise.resolve(this.tasks.get(taskId)?.task);
  }

  put(task: TaskRecord): Promise<void> {
    const entry = this.tasks.get(task.taskId);
    // A task that expired or was dropped meanwhile stays gone.
    if (!entry || entry.task !== task) return Promise.resolve();
    const terminal = isTerminal(task.status);
    if (terminal && !entry.terminal) {
      entry.terminal = true;
      this.finished.add(task.taskId);
      this.decrementActive(task.owner);
    }
    const bytes = sizeOf(task);
    const growth = bytes - entry.bytes;
    if (growth > 0 && this.bytes + growth > this.maxBytes) {
      this.evictFinished(() => this.bytes + growth > this.maxBytes, task.taskId);
      if (this.bytes + growth > this.maxBytes) {
        return Promise.reject(
          new TaskLimitError(`Task state of ${bytes} bytes does not fit in the task store`),
        );
      }
    }
    this.bytes += growth;
    entry.bytes = bytes;
    return Promise.resolve();
  }

  delete(taskId: string): Promise<void> {
    const entry = this.tasks.get(taskId);
    if (entry) this.remove(entry);
    return Promise.resolve();
  }

  list(owner: string, afterSeq: number, limit: number): Promise<TaskPage> {
    this.sweep();
    const tasks: TaskRecord[] = [];
    let more = false;
    for (const id of this.byOwner.get(owner) ?? []) {
      const entry = this.tasks.get(id);
      if (!entry || entry.task.seq <= afterSeq) continue;
      if (tasks.length === limit) {
        more = true;
        break;
      }
      tasks.push(entry.task);
    }
    return Promise.resolve({ tasks, more });
  }

  countActive(owner: string): Promise<number> {
    this.sweep();
    return Promise.resolve(this.activeByOwner.get(owner) ?? 0);
  }

  deleteOwner(owner: string): Promise<string[]> {
    const ids = [...(this.byOwner.get(owner) ?? [])];
    for (const id of ids) {
      const entry = this.tasks.get(id);
      if (entry) this.remove(entry);
    }
    return Promise.resolve(ids);
  }

  close(): void {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.timerAt = Infinity;
    this.tasks.clear();
    this.byOwner.clear();
    this.activeByOwner.clear();
    this.finished.clear();
    this.expiry.clear();
    this.bytes = 0;
  }

  /** Drops every expired task. Cheap when nothing expired: one comparison. */
  sweep(now = this.now()): void {
    for (;;) {
      const time = this.expiry.peekTime();
      if (time === undefined || time > now) break;
      const { id } = this.expiry.pop()!;
      const entry = this.tasks.get(id);
      if (entry && expiresAt(entry.task) <= now) this.evict(entry);
    }
    // Leftovers of tasks deleted before they expired: rebuild once they dominate.
    if (this.expiry.size > 2 * this.tasks.size + 1_024) {
      this.expiry.compact((id, time) => {
        const entry = this.tasks.get(id);
        return entry !== undefined && expiresAt(entry.task) === time;
      });
    }
  }

  private makeRoom(count: number, bytes: number): void {
    const overfull = () => this.tasks.size + count > this.maxTasks || this.bytes + bytes > this.maxBytes;
    if (!overfull()) return;
    this.evictFinished(overfull);
    if (this.tasks.size + count > this.maxTasks) {
      throw new TaskLimitError(`Too many tasks: ${this.tasks.size} are running (limit ${this.maxTasks})`);
    }
    if (this.bytes + bytes > this.maxBytes) {
      throw new TaskLimitError(`Task state would exceed ${this.maxBytes} bytes`);
    }
  }

  /** Evicts finished tasks, oldest first, while `stillFull()` says so; never `spare`. */
  private evictFinished(stillFull: () => boolean, spare?: string): void {
    // Deleting from a Set while iterating it is safe: deleted entries are skipped.
    for (const id of this.finished) {
      if (!stillFull()) return;
      if (id === spare) continue;
      const entry = this.tasks.get(id);
      if (entry) this.evict(entry);
      else this.finished.delete(id);
    }
  }

  private evict(entry: Entry): void {
    this.remove(entry);
    try {
      this.onEvict?.(entry.task.taskId);
    } catch {
      // The engine's hook must not break the store.
    }
  }

  private remove(entry: Entry): void {
    const { taskId, owner } = entry.task;
    if (this.tasks.get(taskId) !== entry) return;
    this.tasks.delete(taskId);
    this.bytes -= entry.bytes;
    this.finished.delete(taskId);
    if (!entry.terminal) this.decrementActive(owner);
    const owned = this.byOwner.get(owner);
    if (owned) {
      owned.delete(taskId);
      if (owned.size === 0) this.byOwner.delete(owner);
    }
  }

  private decrementActive(owner: string): void {
    const active = (this.activeByOwner.get(owner) ?? 1) - 1;
    if (active <= 0) this.activeByOwner.delete(owner);
    else this.activeByOwner.set(owner, active);
  }

  /** Keeps one unref'd timer armed for the earliest expiry, so memory is reclaimed without traffic. */
  private arm(at: number): void {
    if (this.closed || at >= this.timerAt) return;
    if (this.timer) clearTimeout(this.timer);
    this.timerAt = at;
    const delay = Math.min(Math.max(at - this.now(), 0) + 5, MAX_TIMER_MS);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.timerAt = Infinity;
      this.sweep();
      const next = this.expiry.peekTime();
      if (next !== undefined) this.arm(next);
    }, delay);
    this.timer.unref?.();
  }
}

function sizeOf(task: TaskRecord): number {
  return JSON.stringify(task).length + ENTRY_OVERHEAD_BYTES;
}
