/**
 * Tasks from the client's side, as the requestor: call a tool as a task, poll or await it (honouring the
 * server's polling interval, backing off), answer its input requests with the client's handlers, cancel it,
 * list tasks (2025-11-25).
 *
 * One API for both dialects:
 * - 2025-11-25: the client asks for a task (`params.task`) when the server declares `tasks.requests.tools.call`;
 *   results come from `tasks/result`, which also carries the server's requests while the task needs input.
 * - extension (2026-07-28): the client declares `io.modelcontextprotocol/tasks` and the server decides; results
 *   and input requests are inlined in `tasks/get`, answers go back with `tasks/update`.
 */
import { RemoteError, RequestAbortedError, type ErrorObject } from '../protocol/errors.js';
import { MetaKey } from '../protocol/meta.js';
import type { RevisionSpec } from '../protocol/revisions.js';
import type {
  CallToolResult,
  ClientCapabilities,
  InputRequest,
  JsonObject,
  TaskStatus,
} from '../protocol/types.js';
import type { CallOptions, ClientHandlers, ClientTaskOptions } from './types.js';

export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

export type { ClientTaskOptions } from './types.js';

/** A task as either dialect reports it, in one shape (2025-11-25 `ttl`/`pollInterval` become `…Ms`). */
export interface TaskState {
  taskId: string;
  status: TaskStatus;
  statusMessage?: string;
  createdAt: string;
  lastUpdatedAt: string;
  ttlMs: number | null;
  pollIntervalMs?: number;
  /** Extension: what the task waits for. */
  inputRequests?: Record<string, InputRequest>;
  /** Extension: the result of a completed task. */
  result?: JsonObject;
  /** Extension: the JSON-RPC error of a failed task. */
  error?: ErrorObject;
}

export interface TaskCallOptions extends CallOptions {
  /** 2025-11-25: the retention to ask for (the server may grant less). */
  ttlMs?: number;
}

export interface TaskWaitOptions {
  signal?: AbortSignal;
  /** Called with every state observed while waiting. */
  onStatus?: (task: TaskState) => void;
  /** Overrides `ClientTaskOptions.maxPollIntervalMs`. */
  maxPollIntervalMs?: number;
}

/** What the tasks API needs from the `ClientSession`. */
export interface TaskHost {
  /** The revision spoken (throws when not connected). */
  spec(): RevisionSpec;
  serverCapabilities(): { tasks?: JsonObject; extensions?: { [key: string]: JsonObject } };
  request(method: string, params: JsonObject, options?: CallOptions): Promise<JsonObject>;
  /** Runs the client's handler for an input request. */
  fulfil(request: InputRequest, signal: AbortSignal): Promise<JsonObject>;
  onNotification(method: string, handler: (params: JsonObject) => void): () => void;
}

const TERMINAL: ReadonlySet<TaskStatus> = new Set(['completed', 'failed', 'cancelled']);
const FIRST_POLL_MS = 250;
const BACKOFF = 1.5;

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Reads a task from either dialect's wire shape. */
export function readTaskState(wire: JsonObject): TaskState {
  if (typeof wire.taskId !== 'string' || typeof wire.status !== 'string') {
    throw new Error('The server sent a task without taskId and status');
  }
  const ttl = wire.ttlMs !== undefined ? wire.ttlMs : wire.ttl;
  const poll = wire.pollIntervalMs !== undefined ? wire.pollIntervalMs : wire.pollInterval;
  const state: TaskState = {
    taskId: wire.taskId,
    status: wire.status as TaskStatus,
    createdAt: String(wire.createdAt ?? ''),
    lastUpdatedAt: String(wire.lastUpdatedAt ?? ''),
    ttlMs: typeof ttl === 'number' ? ttl : null,
  };
  if (typeof poll === 'number' && poll > 0) state.pollIntervalMs = poll;
  if (typeof wire.statusMessage === 'string') state.statusMessage = wire.statusMessage;
  if (isObject(wire.inputRequests)) state.inputRequests = wire.inputRequests as Record<string, InputRequest>;
  if (isObject(wire.result)) state.result = wire.result;
  if (isObject(wire.error)) state.error = wire.error as unknown as ErrorObject;
  return state;
}

/**
 * The capabilities a client declares for tasks in a revision: the extension (modern), or the 2025-11-25
 * `tasks` capability for the handlers it has. Other revisions get neither.
 */
export function clientTaskCapabilities(
  spec: RevisionSpec,
  base: ClientCapabilities,
  handlers: ClientHandlers,
  options: ClientTaskOptions = {},
): ClientCapabilities {
  const caps: ClientCapabilities = { ...base };
  delete caps.tasks;
  if (spec.tasks === 'extension' && options.extension !== false) {
    caps.extensions = { ...base.extensions, [TASKS_EXTENSION]: {} };
  } else if (spec.tasks === 'experimental' && options.receive !== false) {
    const requests: JsonObject = {};
    if (handlers.sampling) requests.sampling = { createMessage: {} };
    if (handlers.elicitation) requests.elicitation = { create: {} };
    if (Object.keys(requests).length > 0) caps.tasks = { list: {}, cancel: {}, requests };
  }
  return caps;
}

/** The session's tasks API (`session.tasks`). */
export class ClientTasks {
  constructor(
    private readonly host: TaskHost,
    private readonly options: ClientTaskOptions = {},
  ) {}

  /** Whether the server lets this client run tool calls as tasks. */
  get supported(): boolean {
    const caps = this.host.serverCapabilities();
    if (this.host.spec().tasks === 'extension') {
      return this.options.extension !== false && caps.extensions?.[TASKS_EXTENSION] !== undefined;
    }
    if (this.host.spec().tasks !== 'experimental') return false;
    const requests = isObject(caps.tasks) && isObject(caps.tasks.requests) ? caps.tasks.requests : undefined;
    return isObject(requests?.tools) && requests.tools.call !== undefined;
  }

  /**
   * Calls a tool as a task. When the server does not do tasks, or (modern) answers at once, the returned handle
   * already holds the result.
   */
  async callTool(
    params: { name: string; arguments?: JsonObject },
    options: TaskCallOptions = {},
  ): Promise<ToolTask> {
    const { ttlMs, ...callOptions } = options;
    const wire: JsonObject = { ...params } as JsonObject;
    if (this.supported && this.host.spec().tasks === 'experimental')
      wire.task = ttlMs === undefined ? {} : { ttl: ttlMs };
    const result = await this.host.request('tools/call', wire, { ...callOptions, acceptTask: true });
    return this.fromCallResult(result);
  }

  /** A handle for a tools/call answer: a task (`resultType: "task"` or a 2025-11-25 `task`), or a result. */
  fromCallResult(result: JsonObject): ToolTask {
    if (result.resultType === 'task') return new ToolTask(this, readTaskState(result));
    if (this.host.spec().tasks === 'experimental' && isObject(result.task)) {
      return new ToolTask(this, readTaskState(result.task));
    }
    return new ToolTask(this, undefined, result as CallToolResult);
  }

  /** A handle for a task created earlier (its id kept, say, across a restart). */
  handle(taskId: string): ToolTask {
    return new ToolTask(this, undefined, undefined, taskId);
  }

  async get(taskId: string, options?: CallOptions): Promise<TaskState> {
    return readTaskState(await this.host.request('tasks/get', { taskId }, options));
  }

  /** Asks the server to cancel (2025-11-25: answered with the cancelled task; extension: an acknowledgement). */
  async cancel(taskId: string, options?: CallOptions): Promise<void> {
    await this.host.request('tasks/cancel', { taskId }, options);
  }

  /** Extension: answers some of a task's input requests. */
  async update(taskId: string, inputResponses: JsonObject, options?: CallOptions): Promise<void> {
    await this.host.request('tasks/update', { taskId, inputResponses }, options);
  }

  /** 2025-11-25: every task the server keeps for this session. */
  async *list(options?: CallOptions): AsyncIterable<TaskState> {
    let cursor: string | undefined;
    const seen = new Set<string>();
    do {
      const page = await this.host.request('tasks/list', cursor === undefined ? {} : { cursor }, options);
      for (const task of Array.isArray(page.tasks) ? page.tasks : []) {
        if (isObject(task)) yield readTaskState(task);
      }
      cursor = typeof page.nextCursor === 'string' ? page.nextCursor : undefined;
      if (cursor !== undefined) {
        if (seen.has(cursor)) throw new Error('tasks/list: the server repeated a cursor');
        seen.add(cursor);
      }
    } while (cursor !== undefined);
  }

  /**
   * Waits for the task's result, answering its input requests on the way, polling no faster than the server
   * suggests and backing off up to `maxPollIntervalMs`. A failed task throws its JSON-RPC error (`RemoteError`),
   * a cancelled one a `RequestAbortedError`.
   */
  async result(
    taskId: string,
    first: TaskState | undefined,
    options: TaskWaitOptions = {},
  ): Promise<CallToolResult> {
    const maxPoll = options.maxPollIntervalMs ?? this.options.maxPollIntervalMs ?? 5_000;
    const answered = new Set<string>();
    let backoff = 0;
    let state = first;
    const wake = new Wakeup();
    const stop =
      this.host.spec().tasks === 'experimental'
        ? this.host.onNotification('notifications/tasks/status', (params) => {
            if (params.taskId === taskId) wake.fire();
          })
        : () => {};
    try {
      for (;;) {
        if (options.signal?.aborted)
          throw new RequestAbortedError('cancelled', `Waiting for task ${taskId} was cancelled`);
        state ??= await this.get(taskId, { signal: options.signal } as CallOptions);
        options.onStatus?.(state);
        if (this.host.spec().tasks === 'experimental') {
          // tasks/result blocks until the end and carries the server's requests while input is required.
          if (TERMINAL.has(state.status) || state.status === 'input_required') {
            return await this.experimentalResult(state, options.signal);
          }
        } else if (TERMINAL.has(state.status)) {
          return finished(state);
        } else if (state.status === 'input_required') {
          await this.answer(state, answered, options.signal);
          backoff = 0;
        }
        const floor = state.pollIntervalMs ?? FIRST_POLL_MS;
        backoff =
          backoff === 0 ? floor : Math.min(Math.max(backoff * BACKOFF, floor), Math.max(maxPoll, floor));
        state = undefined;
        await wake.wait(backoff, options.signal);
      }
    } finally {
      stop();
    }
  }

  /** Extension: runs the handlers for the input requests not answered yet, then sends the answers. */
  private async answer(
    state: TaskState,
    answered: Set<string>,
    signal: AbortSignal | undefined,
  ): Promise<void> {
    const open = Object.entries(state.inputRequests ?? {}).filter(([key]) => !answered.has(key));
    if (open.length === 0) return;
    const controller = new AbortController();
    const forward = () => controller.abort(signal?.reason);
    signal?.addEventListener('abort', forward, { once: true });
    try {
      const responses: JsonObject = {};
      await Promise.all(
        open.map(async ([key, request]) => {
          responses[key] = await this.host.fulfil(request, controller.signal);
        }),
      );
      await this.update(state.taskId, responses, { signal } as CallOptions);
      for (const [key] of open) answered.add(key);
    } finally {
      signal?.removeEventListener('abort', forward);
    }
  }

  /** 2025-11-25: `tasks/result`, whose answer is the request's own result or error. */
  private async experimentalResult(
    state: TaskState,
    signal: AbortSignal | undefined,
  ): Promise<CallToolResult> {
    if (state.status === 'cancelled') throw cancelled(state);
    const remaining =
      state.ttlMs === null ? Infinity : Date.parse(state.createdAt) + state.ttlMs - Date.now() + 5_000;
    const options: CallOptions = {
      timeoutMs: Number.isFinite(remaining) ? Math.max(remaining, 1_000) : Infinity,
    };
    if (signal) options.signal = signal;
    const result = await this.host.request('tasks/result', { taskId: state.taskId }, options);
    return withoutRelatedTask(result) as CallToolResult;
  }
}

/** A tool call that became a task (or was answered at once). */
export class ToolTask {
  readonly taskId: string | undefined;

  constructor(
    private readonly tasks: ClientTasks,
    /** The task as created; undefined when the server answered at once or the handle was made from an id. */
    readonly created: TaskState | undefined,
    /** The server's immediate answer, when it created no task. */
    readonly immediate?: CallToolResult,
    taskId?: string,
  ) {
    this.taskId = created?.taskId ?? taskId;
  }

  /** The task's current state. */
  async get(options?: CallOptions): Promise<TaskState> {
    return this.tasks.get(this.requireId(), options);
  }

  async cancel(options?: CallOptions): Promise<void> {
    return this.tasks.cancel(this.requireId(), options);
  }

  /** Waits for the result (see `ClientTasks.result`). */
  async result(options?: TaskWaitOptions): Promise<CallToolResult> {
    if (this.immediate) return this.immediate;
    return this.tasks.result(this.requireId(), undefined, options);
  }

  private requireId(): string {
    if (this.taskId === undefined) throw new Error('The server answered at once: there is no task');
    return this.taskId;
  }
}

function finished(state: TaskState): CallToolResult {
  if (state.status === 'completed' && state.result) return state.result as CallToolResult;
  if (state.status === 'failed') {
    throw new RemoteError(state.error ?? { code: -32603, message: state.statusMessage ?? 'The task failed' });
  }
  if (state.status === 'cancelled') throw cancelled(state);
  throw new Error(`Task ${state.taskId} is ${state.status} without a result`);
}

function cancelled(state: TaskState): RequestAbortedError {
  return new RequestAbortedError('cancelled', `Task ${state.taskId} was cancelled`);
}

function withoutRelatedTask(result: JsonObject): JsonObject {
  if (!isObject(result._meta) || !(MetaKey.relatedTask in result._meta)) return result;
  const meta = { ...result._meta };
  delete meta[MetaKey.relatedTask];
  const copy = { ...result };
  if (Object.keys(meta).length > 0) copy._meta = meta;
  else delete copy._meta;
  return copy;
}

/** A sleep that a status notification can cut short. */
class Wakeup {
  private fired = false;
  private resolve: (() => void) | undefined;

  fire(): void {
    this.fired = true;
    this.resolve?.();
  }

  wait(ms: number, signal: AbortSignal | undefined): Promise<void> {
    if (this.fired) {
      this.fired = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', done);
        this.resolve = undefined;
        this.fired = false;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.resolve = done;
      signal?.addEventListener('abort', done, { once: true });
    });
  }
}
