/**
 * Server-initiated task-augmented sampling and elicitation (2025-11-25 tasks): the server sends
 * `sampling/createMessage` or `elicitation/create` with `task`, the client answers at once with a
 * `CreateTaskResult`, and the server polls `tasks/get` on the client (at the `pollInterval` it suggests) until
 * the task needs input or ends, then fetches the outcome with `tasks/result`.
 *
 * Only where the client declared `tasks.requests.sampling.createMessage` / `tasks.requests.elicitation.create`;
 * otherwise the request is sent as a plain one (the handler gets the same result either way).
 */
import type { ClientCapabilities, InputRequest, JsonObject } from '../protocol/types.js';

/** Asks for a task: `ttl` is how long the client should keep the result (ms). */
export interface InputTaskOptions {
  ttl?: number;
}

/**
 * Sends one request to the client and resolves with its result; `detached` requests do not follow the
 * handler's abort signal (the `tasks/cancel` sent because it fired).
 */
export type ClientRequester = (method: string, params: JsonObject, detached?: boolean) => Promise<unknown>;

const TERMINAL = new Set(['completed', 'failed', 'cancelled']);
const DEFAULT_POLL_MS = 1_000;
/** Bounds on the client's `pollInterval`: neither a busy loop nor a stall. */
const MIN_POLL_MS = 10;
const MAX_POLL_MS = 30_000;

/** Whether the client accepts `method` as a task. */
export function clientRunsAsTask(method: InputRequest['method'], capabilities: ClientCapabilities): boolean {
  const requests = (capabilities as { tasks?: { requests?: Record<string, Record<string, unknown>> } }).tasks
    ?.requests;
  if (method === 'sampling/createMessage') return requests?.sampling?.createMessage !== undefined;
  if (method === 'elicitation/create') return requests?.elicitation?.create !== undefined;
  return false;
}

function taskOf(value: unknown, what: string): { taskId: string; status: string; pollInterval?: number } {
  const task =
    typeof value === 'object' && value !== null && 'task' in value
      ? (value as { task: unknown }).task
      : value;
  if (
    typeof task !== 'object' ||
    task === null ||
    typeof (task as { taskId?: unknown }).taskId !== 'string' ||
    typeof (task as { status?: unknown }).status !== 'string'
  ) {
    throw new Error(`the client answered ${what} without a valid task`);
  }
  return task as { taskId: string; status: string; pollInterval?: number };
}

function wait(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason as Error);
    const timer = setTimeout(done, ms);
    function done() {
      signal.removeEventListener('abort', aborted);
      resolve();
    }
    function aborted() {
      clearTimeout(timer);
      reject(signal.reason as Error);
    }
    signal.addEventListener('abort', aborted, { once: true });
  });
}

/**
 * Runs `request` on the client as a task and resolves with the result of the underlying request. When `signal`
 * aborts, the client's task is cancelled (`tasks/cancel`, best effort) and the promise rejects.
 */
export async function requestAsTask(
  request: InputRequest,
  task: InputTaskOptions,
  send: ClientRequester,
  signal: AbortSignal,
): Promise<unknown> {
  const params: JsonObject = {
    ...((request.params ?? {}) as JsonObject),
    task: task.ttl === undefined ? {} : { ttl: task.ttl },
  };
  let state = taskOf(await send(request.method, params), request.method);
  const { taskId } = state;
  try {
    while (!TERMINAL.has(state.status) && state.status !== 'input_required') {
      const interval = Math.min(MAX_POLL_MS, Math.max(MIN_POLL_MS, state.pollInterval ?? DEFAULT_POLL_MS));
      await wait(interval, signal);
      state = taskOf(await send('tasks/get', { taskId }), 'tasks/get');
    }
    // Terminal: the outcome; input_required: tasks/result blocks until the client has what it needs.
    const result = await send('tasks/result', { taskId });
    return stripRelatedTask(result);
  } catch (error) {
    if (signal.aborted) void send('tasks/cancel', { taskId }, true).catch(() => {});
    throw error;
  }
}

/** `tasks/result` carries `_meta["io.modelcontextprotocol/related-task"]`; the handler gets the plain result. */
function stripRelatedTask(result: unknown): unknown {
  if (typeof result !== 'object' || result === null) return result;
  const meta = (result as { _meta?: Record<string, unknown> })._meta;
  if (!meta || !('io.modelcontextprotocol/related-task' in meta)) return result;
  const { 'io.modelcontextprotocol/related-task': _related, ...rest } = meta;
  const copy = { ...(result as Record<string, unknown>) };
  if (Object.keys(rest).length === 0) delete copy._meta;
  else copy._meta = rest;
  return copy;
}
