/**
 * Tasks: the vocabulary shared by the store, the engine and the tool call path.
 *
 * One task model serves two wire dialects: the 2025-11-25 tasks utility ("experimental", session-bound,
 * client-requested with `params.task`) and the `io.modelcontextprotocol/tasks` extension of 2026-07-28
 * ("extension", server-directed, `resultType: "task"`). A `TaskRecord` is plain JSON so that a shared store can
 * hold it; what only a running process can hold (the handler's abort signal, pending input) lives in the engine.
 * A leaf module: the server-wide settings are in settings.ts and a tool's task settings in features/tools.ts, so
 * that the store and the tools can import this vocabulary without importing each other.
 */
import type { ErrorObject } from '../../protocol/errors.js';
import type { InputRequest, JsonObject, TaskStatus } from '../../protocol/types.js';

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
