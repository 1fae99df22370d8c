/**
 * Tasks: the vocabulary shared by the store, the engine and the tool call path.
 *
 * One task model serves two wire dialects: the 2025-11-25 tasks utility ("experimental", session-bound,
 * client-requested with `params.task`) and the `io.modelcontextprotocol/tasks` extension of 2026-07-28
 * ("extension", server-directed, `resultType: "task"`). A `TaskRecord` is plain JSON so that a shared store can
 * hold it; what only a running process can hold (the handler's abort signal, pending input) lives in the engine.
 */
import type { ErrorObject } from '../../protocol/errors.js';
import type { InputRequest, JsonObject, TaskStatus, ToolExecution } from '../../protocol/types.js';
import type { RequestContext } from '../context.js';
import type { ToolReturn } from '../features/tools.js';
import type { TaskStore } from './store.js';

export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

/** Which wire dialect a task speaks; read from the revision registry (`RevisionSpec.tasks`). */
export type TaskDialect = 'experimental' | 'extension';

export const TERMINAL_STATUSES: ReadonlySet<TaskStatus> = new Set(['completed', 'failed', 'cancelled']);

export function isTerminal(status: TaskStatus): boolean {
  return TERMINAL_STATUSES.has(status);
}

/** A task as stored: everything `tasks/get` and `tasks/result` need, and nothing that only lives in memory. */
export interface TaskRecord {
  readonly taskId: string;
  /** Who may see it: `session:<id>` (legacy) or `principal:<principalOf(auth)>` (modern; empty when anonymous). */
  readonly owner: string;
  readonly dialect: TaskDialect;
  /** The request the task stands for (`tools/call`). */
  readonly method: string;
  /** Position in creation order; `tasks/list` cursors point at it. Assigned by the store. */
  seq: number;
  status: TaskStatus;
  statusMessage?: string;
  /** Milliseconds since the epoch. */
  readonly createdAt: number;
  lastUpdatedAt: number;
  /** Retention from creation (always finite here: memory must stay bounded). */
  readonly ttlMs: number;
  pollIntervalMs: number;
  /** The final result: `completed` (and, 2025-11-25, `failed` for a tool result with `isError`). */
  result?: JsonObject;
  /** The JSON-RPC error the request ended with (`failed`). */
  error?: ErrorObject;
  /** Extension dialect: input requests still waiting for `tasks/update`, by key. */
  inputRequests?: Record<string, InputRequest>;
}

export function expiresAt(task: TaskRecord): number {
  return task.createdAt + task.ttlMs;
}

/** Per-tool task settings, next to `execution.taskSupport` in the tool's configuration. */
export interface ToolTaskOptions<Args = JsonObject> {
  /**
   * Runs in the request itself, before any task exists. It may ask for input (`ctx.elicit()` and friends: multi
   * round-trip requests in the modern era, server→client requests in the legacy era), put what it learned in
   * `ctx.state` (the task's context starts with a copy), and return a result to answer at once without a task.
   * Returning nothing creates the task, whose handler then runs in the background. A 2025-11-25 client that asked
   * for a task still gets one, already finished, when `prepare` answers.
   */
  prepare?: (args: Args, ctx: RequestContext) => ToolReturn | undefined | Promise<ToolReturn | undefined>;
  /** How long the task and its result are kept, from creation. Default: the server's `tasks.defaultTtlMs`. */
  ttlMs?: number;
  /** Suggested polling interval. Default: the server's `tasks.pollIntervalMs`. */
  pollIntervalMs?: number;
}

/** Server-wide task settings (`new McpServer({ tasks: … })`). */
export interface TaskOptions {
  /** Where tasks are kept. Default: a `MemoryTaskStore` with the limits below. */
  store?: TaskStore;
  /** Retention when neither the tool nor the client says. Default 15 minutes. */
  defaultTtlMs?: number;
  /** Upper bound on any retention, including what a 2025-11-25 client asks for. Default 1 hour. */
  maxTtlMs?: number;
  /** Suggested polling interval. Default 1 s. */
  pollIntervalMs?: number;
  /** Tasks kept at once by the default store, finished ones included. Default 10,000. */
  maxTasks?: number;
  /** Approximate bytes of task state (results above all) kept by the default store. Default 64 MiB. */
  maxBytes?: number;
  /** Unfinished tasks one owner may have at once. Default 100. */
  maxActivePerOwner?: number;
}

/** The settings in force, defaults applied. */
export interface TaskSettings {
  readonly defaultTtlMs: number;
  readonly maxTtlMs: number;
  readonly pollIntervalMs: number;
  readonly maxTasks: number;
  readonly maxBytes: number;
  readonly maxActivePerOwner: number;
}

export function taskSettings(options: TaskOptions = {}): TaskSettings {
  const settings: TaskSettings = {
    defaultTtlMs: options.defaultTtlMs ?? 15 * 60_000,
    maxTtlMs: options.maxTtlMs ?? 60 * 60_000,
    pollIntervalMs: options.pollIntervalMs ?? 1_000,
    maxTasks: options.maxTasks ?? 10_000,
    maxBytes: options.maxBytes ?? 64 * 1024 * 1024,
    maxActivePerOwner: options.maxActivePerOwner ?? 100,
  };
  for (const [key, value] of Object.entries(settings)) {
    if (!Number.isSafeInteger(value) || value <= 0) {
      throw new TypeError(`tasks.${key} must be a positive integer (got ${String(value)})`);
    }
  }
  if (settings.defaultTtlMs > settings.maxTtlMs)
    throw new TypeError('tasks.defaultTtlMs exceeds tasks.maxTtlMs');
  return settings;
}

/** A tool's `execution.taskSupport` (default forbidden), with its task settings checked at registration. */
export function toolTaskSupport(
  name: string,
  execution: ToolExecution | undefined,
  task: ToolTaskOptions<never> | undefined,
): 'forbidden' | 'optional' | 'required' {
  const support = execution?.taskSupport ?? 'forbidden';
  if (support !== 'forbidden' && support !== 'optional' && support !== 'required') {
    throw new TypeError(`Tool "${name}": execution.taskSupport must be forbidden, optional or required`);
  }
  if (task === undefined) return support;
  if (support === 'forbidden') {
    throw new TypeError(`Tool "${name}": task settings need execution.taskSupport 'optional' or 'required'`);
  }
  for (const key of ['ttlMs', 'pollIntervalMs'] as const) {
    const value = task[key];
    if (value !== undefined && !(Number.isSafeInteger(value) && value > 0)) {
      throw new TypeError(`Tool "${name}": task.${key} must be a positive integer`);
    }
  }
  if (task.prepare !== undefined && typeof task.prepare !== 'function') {
    throw new TypeError(`Tool "${name}": task.prepare must be a function`);
  }
  return support;
}
