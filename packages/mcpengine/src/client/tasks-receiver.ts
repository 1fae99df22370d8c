/**
 * 2025-11-25: the client as a task receiver. A server may augment `sampling/createMessage` and
 * `elicitation/create` with `task` when the client declares `tasks.requests.…`; the client then answers at once
 * with a `CreateTaskResult`, runs its handler in the background, and serves the server's `tasks/get`,
 * `tasks/result`, `tasks/list` and `tasks/cancel` about those tasks.
 *
 * Tasks live in memory, bounded in number and expired by TTL (swept on every access: a client talks to one
 * server, so there is no need for a timer).
 */
import { randomUUID } from 'node:crypto';
import { ErrorCode, ProtocolError, type ErrorObject } from '../protocol/errors.js';
import { MetaKey } from '../protocol/meta.js';
import type { InputRequest, JsonObject, Result, Task, TaskStatus } from '../protocol/types.js';

const TASK_METHODS = new Set(['tasks/get', 'tasks/result', 'tasks/list', 'tasks/cancel']);
const AUGMENTABLE = new Set(['sampling/createMessage', 'elicitation/create']);
const MAX_TASKS = 1_000;
const DEFAULT_TTL_MS = 10 * 60_000;
const MAX_TTL_MS = 60 * 60_000;
const POLL_INTERVAL_MS = 500;
const PAGE_SIZE = 100;

interface ReceivedTask {
  readonly taskId: string;
  status: TaskStatus;
  statusMessage?: string;
  readonly createdAt: number;
  lastUpdatedAt: number;
  readonly ttlMs: number;
  result?: JsonObject;
  error?: ErrorObject;
  readonly controller: AbortController;
  readonly waiters: Set<() => void>;
}

export interface TaskReceiverHost {
  /**
   * Whether the client declared task support for this request method (it has the handler and the capability),
   * or, for `tasks`, any task support at all.
   */
  accepts(method: string): boolean;
  fulfil(request: InputRequest, signal: AbortSignal): Promise<JsonObject>;
  notify(method: string, params: JsonObject): void;
}

function isTerminal(status: TaskStatus): boolean {
  return status === 'completed' || status === 'failed' || status === 'cancelled';
}

export class TaskReceiver {
  private readonly tasks = new Map<string, ReceivedTask>();

  constructor(private readonly host: TaskReceiverHost) {}

  /** Whether this receiver answers the server's request (a task method, or a task-augmented request). */
  handles(method: string, params: JsonObject | undefined): boolean {
    // Without a declared `tasks` capability, `tasks/*` are unknown methods (-32601 from the caller).
    if (TASK_METHODS.has(method)) return this.host.accepts('tasks');
    return AUGMENTABLE.has(method) && params?.task !== undefined && this.host.accepts(method);
  }

  async serve(method: string, params: JsonObject): Promise<JsonObject> {
    this.sweep();
    switch (method) {
      case 'tasks/get':
        return wire(this.find(params.taskId));
      case 'tasks/result':
        return this.result(this.find(params.taskId));
      case 'tasks/list':
        return this.list(params.cursor);
      case 'tasks/cancel':
        return this.cancel(this.find(params.taskId));
      default:
        return this.create(method, params);
    }
  }

  /** Tasks kept (for tests). */
  get size(): number {
    return this.tasks.size;
  }

  close(): void {
    for (const task of this.tasks.values()) {
      task.controller.abort(new Error('client closed'));
      for (const wake of task.waiters) wake();
    }
    this.tasks.clear();
  }

  private create(method: string, params: JsonObject): JsonObject {
    const requested = (params.task as JsonObject | undefined)?.ttl;
    const ttlMs =
      typeof requested === 'number' && requested > 0 ? Math.min(requested, MAX_TTL_MS) : DEFAULT_TTL_MS;
    this.makeRoom();
    const now = Date.now();
    const task: ReceivedTask = {
      taskId: randomUUID(),
      status: 'working',
      createdAt: now,
      lastUpdatedAt: now,
      ttlMs,
      controller: new AbortController(),
      waiters: new Set(),
    };
    this.tasks.set(task.taskId, task);
    const request = { method, params: { ...params } } as InputRequest;
    delete (request.params as JsonObject).task;
    this.host.fulfil(request, task.controller.signal).then(
      (result) => this.settle(task, 'completed', { result }),
      (error: unknown) =>
        this.settle(task, 'failed', {
          error:
            error instanceof ProtocolError
              ? error.toErrorObject()
              : {
                  code: ErrorCode.InternalError,
                  message: error instanceof Error ? error.message : String(error),
                },
        }),
    );
    return { task: wire(task) };
  }

  private settle(
    task: ReceivedTask,
    status: TaskStatus,
    outcome: { result?: JsonObject; error?: ErrorObject },
  ) {
    if (isTerminal(task.status)) return;
    task.status = status;
    if (outcome.result) task.result = outcome.result;
    if (outcome.error) {
      task.error = outcome.error;
      task.statusMessage = outcome.error.message;
    }
    task.lastUpdatedAt = Date.now();
    this.host.notify('notifications/tasks/status', wire(task));
    for (const wake of task.waiters) wake();
    task.waiters.clear();
  }

  private find(taskId: unknown): ReceivedTask {
    const task = typeof taskId === 'string' ? this.tasks.get(taskId) : undefined;
    if (!task) throw ProtocolError.invalidParams('Failed to retrieve task: Task not found');
    return task;
  }

  private async result(task: ReceivedTask): Promise<JsonObject> {
    if (!isTerminal(task.status)) await new Promise<void>((resolve) => task.waiters.add(resolve));
    if (!this.tasks.has(task.taskId))
      throw ProtocolError.invalidParams('Failed to retrieve task: Task has expired');
    if (task.result) {
      const meta =
        typeof task.result._meta === 'object' && task.result._meta !== null ? task.result._meta : {};
      return { ...task.result, _meta: { ...meta, [MetaKey.relatedTask]: { taskId: task.taskId } } };
    }
    if (task.error) throw new ProtocolError(task.error.code, task.error.message, task.error.data);
    throw ProtocolError.invalidParams(`Task ${task.taskId} was cancelled: it has no result`);
  }

  private list(cursor: unknown): JsonObject {
    let offset = 0;
    if (cursor !== undefined) {
      offset = typeof cursor === 'string' && /^\d{1,9}$/.test(cursor) ? Number(cursor) : -1;
      if (offset < 0 || offset > this.tasks.size)
        throw ProtocolError.invalidParams('Invalid params: invalid cursor');
    }
    const all = [...this.tasks.values()];
    const page = all.slice(offset, offset + PAGE_SIZE);
    const result: JsonObject = { tasks: page.map(wire) };
    if (offset + PAGE_SIZE < all.length) result.nextCursor = String(offset + PAGE_SIZE);
    return result;
  }

  private cancel(task: ReceivedTask): JsonObject {
    if (isTerminal(task.status)) {
      throw ProtocolError.invalidParams(`Cannot cancel task: already in terminal status '${task.status}'`);
    }
    task.statusMessage = 'The task was cancelled by request.';
    this.settle(task, 'cancelled', {});
    task.controller.abort(new Error('cancelled by the server'));
    return wire(task);
  }

  private sweep(): void {
    const now = Date.now();
    for (const task of this.tasks.values()) {
      if (task.createdAt + task.ttlMs > now) continue;
      task.controller.abort(new Error('task expired'));
      this.tasks.delete(task.taskId);
      for (const wake of task.waiters) wake();
    }
  }

  /** At the limit, the oldest finished task goes; with none finished, the oldest task. */
  private makeRoom(): void {
    if (this.tasks.size < MAX_TASKS) return;
    const victim =
      [...this.tasks.values()].find((task) => isTerminal(task.status)) ?? this.tasks.values().next().value;
    if (!victim) return;
    victim.controller.abort(new Error('too many tasks'));
    this.tasks.delete(victim.taskId);
    for (const wake of victim.waiters) wake();
  }
}

function wire(task: ReceivedTask): Task & Result {
  const out: Task & Result = {
    taskId: task.taskId,
    status: task.status,
    createdAt: new Date(task.createdAt).toISOString(),
    lastUpdatedAt: new Date(task.lastUpdatedAt).toISOString(),
    ttl: task.ttlMs,
    pollInterval: POLL_INTERVAL_MS,
  };
  if (task.statusMessage !== undefined) out.statusMessage = task.statusMessage;
  return out;
}
