/**
 * A stored task as each dialect puts it on the wire. The 2025-11-25 utility says `ttl`/`pollInterval` and keeps
 * results behind `tasks/result`; the extension says `ttlMs`/`pollIntervalMs`, answers task creation with a flat
 * `resultType: "task"` result and inlines input requests, results and errors in `tasks/get`.
 */
import { MetaKey } from '../../protocol/meta.js';
import type { DetailedTask, JsonObject, Result, ServerCapabilities, Task } from '../../protocol/types.js';
import { TASKS_EXTENSION, type TaskRecord } from './types.js';

function iso(ms: number): string {
  return new Date(ms).toISOString();
}

/** 2025-11-25 `Task`: `tasks/get`, `tasks/list`, `tasks/cancel`, `notifications/tasks/status`. */
export function experimentalTask(task: TaskRecord): Task & Result {
  const wire: Task & Result = {
    taskId: task.taskId,
    status: task.status,
    createdAt: iso(task.createdAt),
    lastUpdatedAt: iso(task.lastUpdatedAt),
    ttl: task.ttlMs,
    pollInterval: task.pollIntervalMs,
  };
  if (task.statusMessage !== undefined) wire.statusMessage = task.statusMessage;
  return wire;
}

/** The extension's base `Task` fields: what `CreateTaskResult` carries. */
function extensionTask(task: TaskRecord): DetailedTask & Result {
  const wire: DetailedTask & Result = {
    taskId: task.taskId,
    status: task.status,
    createdAt: iso(task.createdAt),
    lastUpdatedAt: iso(task.lastUpdatedAt),
    ttlMs: task.ttlMs,
    pollIntervalMs: task.pollIntervalMs,
  };
  if (task.statusMessage !== undefined) wire.statusMessage = task.statusMessage;
  return wire;
}

/** The extension's `DetailedTask`: `tasks/get` and `notifications/tasks`. Never a `requestState`. */
export function detailedTask(task: TaskRecord): DetailedTask & Result {
  const wire = extensionTask(task);
  if (task.status === 'input_required') wire.inputRequests = { ...task.inputRequests };
  else if (task.status === 'completed' && task.result) wire.result = task.result;
  else if (task.status === 'failed' && task.error) wire.error = { ...task.error };
  return wire;
}

/** The answer to the request that created the task. */
export function createTaskResult(task: TaskRecord): JsonObject {
  if (task.dialect === 'experimental') return { task: experimentalTask(task) };
  return { resultType: 'task', ...extensionTask(task) };
}

/** 2025-11-25 `tasks/result`: the request's own result, tied to its task. */
export function taskPayload(task: TaskRecord, result: JsonObject): JsonObject {
  const meta = typeof result._meta === 'object' && result._meta !== null ? (result._meta as JsonObject) : {};
  return { ...result, _meta: { ...meta, [MetaKey.relatedTask]: { taskId: task.taskId } } };
}

/** `_meta` that ties a 2025-11-25 message to its task. */
export function relatedTaskMeta(taskId: string, meta?: unknown): JsonObject {
  const base = typeof meta === 'object' && meta !== null ? (meta as JsonObject) : {};
  return { ...base, [MetaKey.relatedTask]: { taskId } };
}

/**
 * What a server with task-capable tools advertises: the 2025-11-25 `tasks` capability and the extension. Each
 * revision keeps only the key it defines (`tasks` at 2025-11-25, `extensions` at 2026-07-28).
 */
export function taskCapabilities(declared: ServerCapabilities): ServerCapabilities {
  return {
    tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } }, ...declared.tasks },
    extensions: { ...declared.extensions, [TASKS_EXTENSION]: declared.extensions?.[TASKS_EXTENSION] ?? {} },
  };
}
