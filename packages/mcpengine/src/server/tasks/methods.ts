/**
 * The `tasks/*` methods, for both dialects. The revision registry says which methods a revision has
 * (2025-11-25: get, result, list, cancel; the extension: get, update, cancel — so `tasks/result` and `tasks/list`
 * are -32601 at 2026-07-28) and which server capability gates them; these handlers do the rest.
 */
import { ProtocolError } from '../../protocol/errors.js';
import type { JsonObject } from '../../protocol/types.js';
import { capabilitiesFor } from '../definition.js';
import { decodeCursor, encodeCursor } from '../cursor.js';
import type { Call, MethodHandler, Outcome } from '../dispatch.js';
import type { TaskEngine } from './engine.js';
import { declaresTasksExtension, taskOwner, tasksExtensionRequired } from './tool-call.js';
import { isTerminal, TASKS_EXTENSION, type TaskRecord } from './types.js';
import { detailedTask, experimentalTask, taskPayload } from './wire.js';
import { isRequestAborted } from '../context.js';

function requireTasks(call: Call): void {
  if (!call.revision.tasks) throw ProtocolError.methodNotFound(call.method);
}

/** Extension: every task method needs the client to declare the extension on the request (-32021). */
function requireExtension(call: Call): void {
  if (call.revision.tasks === 'extension' && !declaresTasksExtension(call.ctx.client.capabilities)) {
    throw tasksExtensionRequired();
  }
}

async function findTask(engine: TaskEngine, call: Call): Promise<TaskRecord> {
  requireTasks(call);
  requireExtension(call);
  return engine.find(call.params.taskId, taskOwner(call));
}

function wireTask(task: TaskRecord): JsonObject {
  return task.dialect === 'experimental' ? experimentalTask(task) : detailedTask(task);
}

async function getTask(engine: TaskEngine, call: Call): Promise<Outcome> {
  return wireTask(await findTask(engine, call));
}

/** 2025-11-25: blocks until the task ends, carrying its server→client requests meanwhile. */
async function taskResult(engine: TaskEngine, call: Call): Promise<Outcome> {
  let task = await findTask(engine, call);
  if (!isTerminal(task.status)) {
    const live = engine.liveTask(task.taskId);
    const detach = call.legacy && live?.channel ? live.channel.attach(call.legacy.outbox) : undefined;
    try {
      await engine.whenFinished(task.taskId, call.ctx.signal);
    } finally {
      detach?.();
    }
    if (isRequestAborted(call.ctx)) return null;
    task = await engine.find(task.taskId, taskOwner(call));
    if (!isTerminal(task.status)) throw ProtocolError.internal('The task is not running on this server');
  }
  if (task.result) return taskPayload(task, task.result);
  if (task.error) throw new ProtocolError(task.error.code, task.error.message, task.error.data);
  throw ProtocolError.invalidParams(`Task ${task.taskId} was cancelled: it has no result`);
}

/** 2025-11-25: the caller's tasks, oldest first, with signed cursors. */
async function listTasks(engine: TaskEngine, call: Call): Promise<Outcome> {
  requireTasks(call);
  const secret = call.settings.secret;
  const after = decodeCursor(secret, 'tasks', call.params.cursor);
  const page = await engine.store.list(taskOwner(call), after, call.settings.pageSize);
  const result: JsonObject = {
    tasks: page.tasks.map((task) => experimentalTask(engine.liveTask(task.taskId)?.record ?? task)) as never,
  };
  const last = page.tasks[page.tasks.length - 1];
  if (page.more && last) result.nextCursor = encodeCursor(secret, 'tasks', last.seq);
  return result;
}

/**
 * 2025-11-25: a finished task cannot be cancelled (-32602); the answer is the cancelled task. Extension: an empty
 * acknowledgement, also for a finished task (idempotent).
 */
async function cancelTask(engine: TaskEngine, call: Call): Promise<Outcome> {
  const task = await findTask(engine, call);
  if (task.dialect === 'experimental') {
    if (isTerminal(task.status)) {
      throw ProtocolError.invalidParams(`Cannot cancel task: already in terminal status '${task.status}'`);
    }
    await engine.cancel(task);
    return wireTask(task);
  }
  await engine.cancel(task);
  return {};
}

/** Extension: answers to a task's input requests; an empty acknowledgement. */
async function updateTask(engine: TaskEngine, call: Call): Promise<Outcome> {
  const task = await findTask(engine, call);
  const responses = call.params.inputResponses;
  if (typeof responses !== 'object' || responses === null || Array.isArray(responses)) {
    throw ProtocolError.invalidParams('Invalid params: "inputResponses" must be an object');
  }
  await engine.deliver(task, responses as JsonObject);
  return {};
}

/** The `tasks/*` handlers of one engine. */
export function taskMethodHandlers(engine: TaskEngine): Readonly<Record<string, MethodHandler>> {
  return {
    'tasks/get': (call) => getTask(engine, call),
    'tasks/result': (call) => taskResult(engine, call),
    'tasks/list': (call) => listTasks(engine, call),
    'tasks/cancel': (call) => cancelTask(engine, call),
    'tasks/update': (call) => updateTask(engine, call),
  };
}

/**
 * `subscriptions/listen` with `taskIds`: the ids the server agrees to report on (the caller's own, known tasks).
 * Undefined when the server offers no tasks (the type is then omitted from the acknowledgement); -32021 when
 * the client did not declare the extension.
 */
export async function agreedTaskIds(
  call: Call,
  requested: unknown,
  engine: TaskEngine,
): Promise<string[] | undefined> {
  if (requested === undefined) return undefined;
  if (
    !Array.isArray(requested) ||
    requested.length > 1_000 ||
    requested.some((id) => typeof id !== 'string')
  ) {
    throw ProtocolError.invalidParams(
      'Invalid params: "notifications.taskIds" must be an array of at most 1000 strings',
    );
  }
  if (!capabilitiesFor(call.definition, call.revision).extensions?.[TASKS_EXTENSION]) return undefined;
  requireExtension(call);
  const owner = taskOwner(call);
  const agreed: string[] = [];
  for (const id of new Set(requested as string[])) {
    try {
      await engine.find(id, owner);
      agreed.push(id);
    } catch {
      // Unknown, expired or foreign: not agreed.
    }
  }
  return agreed;
}
