/**
 * The task engine: creates tasks, runs their work in the background, moves them through their statuses, routes
 * input between a running task and its client, and tells listeners about changes.
 *
 * Stored state (`TaskRecord`, in a `TaskStore`) is what any request may read. What only this process can hold is
 * a `LiveTask`: the handler's context (its abort signal), input the handler waits for, `tasks/result` requests
 * waiting for the end, and (2025-11-25) the channel for server→client requests. A live task disappears the moment
 * its task finishes, expires or is cancelled, so nothing outlives its task but the stored record, which the
 * store expires by TTL.
 */
import { randomUUID } from 'node:crypto';
import { ErrorCode, ProtocolError, RequestAbortedError, type ErrorObject } from '../../protocol/errors.js';
import { serializeNotification } from '../../protocol/jsonrpc.js';
import type { InputRequest, InputResponse, JsonObject, TaskStatus } from '../../protocol/types.js';
import type { Outbox } from '../../rpc/outbox.js';
import { taggedNotification, type Listener } from '../broadcast.js';
import type { ClientIdentity, InputOptions, RequestContext } from '../context.js';
import { checkInputResponse, requireCapability } from '../input.js';
import type { LegacySession } from '../legacy-session.js';
import { MemoryTaskStore, TaskLimitError, type TaskStore } from './store.js';
import { taskSettings, type TaskOptions, type TaskSettings } from './settings.js';
import { expiresAt, isTerminal, type TaskDialect, type TaskRecord } from './types.js';
import { detailedTask, experimentalTask, relatedTaskMeta } from './wire.js';
import { abortRequest } from '../context.js';

export interface TaskEngineDeps {
  /** Open `subscriptions/listen` streams (modern `notifications/tasks`). */
  listeners(): Iterable<Listener>;
  /** Receives internal errors. */
  report(error: unknown, where: string): void;
}

/** How a task's work ended: a result, or the JSON-RPC error of the request. */
export type TaskOutcome = { readonly result: JsonObject } | { readonly error: ErrorObject };

export interface NewTask {
  readonly owner: string;
  readonly dialect: TaskDialect;
  readonly method: string;
  readonly ttlMs: number;
  readonly pollIntervalMs: number;
  /** The client that created the task: input requests need its capabilities. */
  readonly client: ClientIdentity;
  /** 2025-11-25: the session the task belongs to (server→client requests, status notifications). */
  readonly session?: LegacySession | undefined;
}

/** How often a task running in another process is checked for its end (shared stores). */
const SHARED_POLL_MS = 100;

/** At most this many server→client messages wait for a `tasks/result` stream per task. */
const MAX_QUEUED_MESSAGES = 64;

/**
 * 2025-11-25: where a task's server→client requests go. The spec routes them through `tasks/result`, which a
 * client calls when it sees `input_required`: messages go to the newest open `tasks/result` stream of the task,
 * and wait (bounded) until one opens.
 */
export class TaskChannel implements Outbox {
  private readonly queue: string[] = [];
  private readonly streams: Outbox[] = [];

  send(message: string): boolean {
    if (this.sendLive(message)) return true;
    if (this.queue.length >= MAX_QUEUED_MESSAGES) return false;
    this.queue.push(message);
    return true;
  }

  /** Sends on an open `tasks/result` stream, if there is one; never queues. */
  sendLive(message: string): boolean {
    for (let i = this.streams.length - 1; i >= 0; i--) {
      if (this.streams[i]!.send(message)) return true;
    }
    return false;
  }

  /** A `tasks/result` request opened: deliver what waited, then route through it until `detach()`. */
  attach(outbox: Outbox): () => void {
    this.streams.push(outbox);
    while (this.queue.length > 0 && outbox.send(this.queue[0]!)) this.queue.shift();
    return () => {
      const index = this.streams.indexOf(outbox);
      if (index >= 0) this.streams.splice(index, 1);
    };
  }

  clear(): void {
    this.queue.length = 0;
    this.streams.length = 0;
  }
}

interface PendingInput {
  readonly request: InputRequest;
  readonly promise: Promise<InputResponse>;
  resolve(response: InputResponse): void;
  reject(error: Error): void;
}

/** The in-process side of a running task. */
export class LiveTask {
  /** Set once the handler's context exists. */
  ctx: RequestContext | undefined;
  /** Wakes `tasks/result` requests and other waiters when the task ends. */
  readonly waiters = new Set<() => void>();
  /** Extension dialect: input asked for and not yet answered, by key. */
  readonly pending = new Map<string, PendingInput>();
  /** Extension dialect: keys already answered; a key is never reused within a task. */
  readonly answeredKeys = new Set<string>();
  /** 2025-11-25: server→client requests in flight. */
  outstandingRequests = 0;
  readonly channel: TaskChannel | undefined;
  private readonly counters = new Map<string, number>();

  constructor(
    readonly record: TaskRecord,
    readonly client: ClientIdentity,
    readonly session: LegacySession | undefined,
  ) {
    this.channel = session ? new TaskChannel() : undefined;
  }

  /** `elicitation-1`, `sampling-1`…: unique within the task. */
  autoKey(method: InputRequest['method']): string {
    const short =
      method === 'elicitation/create' ? 'elicitation' : method === 'roots/list' ? 'roots' : 'sampling';
    let n = this.counters.get(short) ?? 0;
    let key: string;
    do key = `${short}-${++n}`;
    while (this.pending.has(key) || this.answeredKeys.has(key));
    this.counters.set(short, n);
    return key;
  }
}

function taskNotFound(): ProtocolError {
  return ProtocolError.invalidParams('Failed to retrieve task: Task not found');
}

export class TaskEngine {
  readonly settings: TaskSettings;
  readonly store: TaskStore;
  private readonly ownsStore: boolean;
  private readonly live = new Map<string, LiveTask>();
  private readonly boundSessions = new WeakSet<LegacySession>();

  constructor(
    options: TaskOptions | undefined,
    private readonly deps: TaskEngineDeps,
  ) {
    this.settings = taskSettings(options);
    this.ownsStore = options?.store === undefined;
    this.store =
      options?.store ??
      new MemoryTaskStore({ maxTasks: this.settings.maxTasks, maxBytes: this.settings.maxBytes });
    this.store.onEvict = (taskId) => this.evicted(taskId);
  }

  /** Tasks whose work is running in this process. */
  get runningCount(): number {
    return this.live.size;
  }

  liveTask(taskId: string): LiveTask | undefined {
    return this.live.get(taskId);
  }

  /** The retention a task gets: what was asked (2025-11-25 `task.ttl`) or configured, capped by `maxTtlMs`. */
  ttlFor(requested: unknown, configured: number | undefined): number {
    const wanted =
      typeof requested === 'number' && Number.isFinite(requested) && requested > 0
        ? requested
        : (configured ?? this.settings.defaultTtlMs);
    return Math.min(Math.max(Math.round(wanted), 1), this.settings.maxTtlMs);
  }

  // ── lifecycle ───────────────────────────────────────────────────────────────────────────────────────

  /** Creates a working task; it is in the store (so `tasks/get` finds it) when this resolves. */
  async create(spec: NewTask): Promise<LiveTask> {
    if ((await this.store.countActive(spec.owner)) >= this.settings.maxActivePerOwner) {
      throw new TaskLimitError(
        `Too many unfinished tasks: at most ${this.settings.maxActivePerOwner} per requestor`,
      );
    }
    const now = Date.now();
    const record: TaskRecord = {
      taskId: randomUUID(),
      owner: spec.owner,
      dialect: spec.dialect,
      method: spec.method,
      seq: 0,
      status: 'working',
      createdAt: now,
      lastUpdatedAt: now,
      ttlMs: spec.ttlMs,
      pollIntervalMs: spec.pollIntervalMs,
    };
    await this.store.create(record);
    const live = new LiveTask(record, spec.client, spec.session);
    this.live.set(record.taskId, live);
    if (spec.session) this.bindSession(spec.session, spec.owner);
    return live;
  }

  /** Runs a task's work in the background; its outcome settles the task. */
  run(live: LiveTask, work: () => Promise<TaskOutcome>): void {
    let running: Promise<TaskOutcome>;
    try {
      running = work();
    } catch (error) {
      running = Promise.reject(error);
    }
    running
      .then(
        (outcome) => this.settle(live, outcome),
        (error: unknown) => this.settle(live, this.outcomeOf(error)),
      )
      .catch((error: unknown) => this.deps.report(error, 'tasks'));
  }

  /** A failure of the work as the JSON-RPC error the request would have answered. */
  outcomeOf(error: unknown): TaskOutcome {
    if (error instanceof ProtocolError) return { error: error.toErrorObject() };
    this.deps.report(error, 'task');
    return { error: { code: ErrorCode.InternalError, message: 'Internal error' } };
  }

  /** Records how the work ended; a task already finished (cancelled, expired) stays as it is. */
  async settle(live: LiveTask, outcome: TaskOutcome): Promise<void> {
    const record = live.record;
    if (this.live.get(record.taskId) !== live || isTerminal(record.status)) return;
    if (this.store.shared) {
      // Another process may have cancelled it (the record is the truth): then it stays cancelled.
      const stored = await this.store.get(record.taskId);
      if (this.live.get(record.taskId) !== live) return;
      if (!stored || isTerminal(stored.status)) {
        if (stored) Object.assign(record, stored);
        this.finish(live);
        return;
      }
    }
    delete record.inputRequests;
    if ('error' in outcome) {
      record.status = 'failed';
      record.error = { ...outcome.error };
      // As ServerCore.toErrorObject does for responses: 2026-07-28 forbids -32002 (resource not found is -32602).
      if (record.dialect === 'extension' && record.error.code === ErrorCode.ResourceNotFound) {
        record.error.code = ErrorCode.InvalidParams;
      }
      record.statusMessage = outcome.error.message;
    } else {
      record.result = outcome.result;
      // 2025-11-25: a tool result with isError fails the task; the extension keeps `failed` for JSON-RPC errors.
      if (record.dialect === 'experimental' && outcome.result.isError === true) {
        record.status = 'failed';
        record.statusMessage = firstText(outcome.result) ?? 'The tool reported an error';
      } else {
        record.status = 'completed';
        delete record.statusMessage;
      }
    }
    record.lastUpdatedAt = Date.now();
    try {
      await this.store.put(record);
    } catch (error) {
      if (!(error instanceof TaskLimitError)) throw error;
      delete record.result;
      record.status = 'failed';
      record.error = { code: ErrorCode.InternalError, message: 'The task result is too large to keep' };
      record.statusMessage = record.error.message;
      await this.store.put(record);
    } finally {
      this.announce(record, live.session);
      this.finish(live);
    }
  }

  /** Changes a running task's status or message, saves it and tells listeners. */
  update(live: LiveTask, changes: { status?: TaskStatus; statusMessage?: string }): Promise<void> {
    const record = live.record;
    if (this.live.get(record.taskId) !== live || isTerminal(record.status)) return Promise.resolve();
    if (changes.status !== undefined) record.status = changes.status;
    if (changes.statusMessage !== undefined) record.statusMessage = changes.statusMessage;
    record.lastUpdatedAt = Date.now();
    const saved = this.store.put(record);
    this.announce(record, live.session);
    return saved.catch((error: unknown) => this.deps.report(error, 'tasks'));
  }

  /** Moves a task to `cancelled` (before answering, as 2025-11-25 requires) and stops its work. */
  async cancel(record: TaskRecord, message = 'The task was cancelled by request.'): Promise<void> {
    if (isTerminal(record.status)) return;
    const live = this.live.get(record.taskId);
    delete record.inputRequests;
    record.status = 'cancelled';
    record.statusMessage = message;
    record.lastUpdatedAt = Date.now();
    if (live) {
      abortRequest(live.ctx, new RequestAbortedError('cancelled', message));
      this.finish(live);
    }
    await this.store.put(record);
    this.announce(record, live?.session);
  }

  /**
   * The task with this id, if the owner may see it. Unknown, expired and foreign ids look the same (-32602), so
   * that ids cannot be probed.
   */
  async find(taskId: unknown, owner: string): Promise<TaskRecord> {
    if (typeof taskId !== 'string' || taskId.length === 0) {
      throw ProtocolError.invalidParams('Invalid params: "taskId" must be a non-empty string');
    }
    const stored = await this.store.get(taskId);
    if (!stored || stored.owner !== owner) throw taskNotFound();
    return this.live.get(taskId)?.record ?? stored;
  }

  /** Resolves when the task is no longer running here (finished, cancelled, expired) or `signal` aborts. */
  whenFinished(taskId: string, signal?: AbortSignal): Promise<void> {
    const live = this.live.get(taskId);
    if (signal?.aborted) return Promise.resolve();
    if (!live) return this.store.shared ? this.whenFinishedElsewhere(taskId, signal) : Promise.resolve();
    return new Promise((resolve) => {
      const wake = () => {
        live.waiters.delete(wake);
        signal?.removeEventListener('abort', wake);
        resolve();
      };
      live.waiters.add(wake);
      signal?.addEventListener('abort', wake, { once: true });
    });
  }

  /**
   * A task of a shared store running in another process (a scaled-out server): its record is watched until it
   * finishes, disappears, or `signal` aborts.
   */
  private async whenFinishedElsewhere(taskId: string, signal?: AbortSignal): Promise<void> {
    const intervalMs = Math.min(this.settings.pollIntervalMs, SHARED_POLL_MS);
    while (!signal?.aborted) {
      const stored = await this.store.get(taskId);
      if (!stored || isTerminal(stored.status) || this.live.has(taskId)) return;
      await new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          signal?.removeEventListener('abort', done);
          resolve();
        };
        const timer = setTimeout(done, intervalMs);
        signal?.addEventListener('abort', done, { once: true });
      });
    }
  }

  /** Stops every running task and, for the default store, drops every task. */
  close(): void {
    for (const live of [...this.live.values()]) {
      abortRequest(live.ctx, new RequestAbortedError('closed', 'The server is closing'));
      this.finish(live);
    }
    if (this.ownsStore) this.store.close?.();
  }

  // ── input ───────────────────────────────────────────────────────────────────────────────────────────

  /**
   * Extension dialect: the task goes `input_required` with this request under `key` until `tasks/update` answers
   * it. The same key asked again while open shares the open request; a key answered before is an error (keys are
   * unique over a task's lifetime).
   */
  askExtension(live: LiveTask, request: InputRequest, key: string | undefined): Promise<InputResponse> {
    const record = live.record;
    if (this.live.get(record.taskId) !== live) {
      return Promise.reject(new RequestAbortedError('cancelled', 'The task is no longer running'));
    }
    try {
      requireCapability(request, live.client.capabilities);
    } catch (error) {
      return Promise.reject(error);
    }
    const k = key ?? live.autoKey(request.method);
    if (live.answeredKeys.has(k)) {
      return Promise.reject(
        new Error(
          `Input key "${k}" was already answered in this task; keys must be unique over a task's lifetime`,
        ),
      );
    }
    const open = live.pending.get(k);
    if (open) return open.promise;
    let resolve!: (response: InputResponse) => void;
    let reject!: (error: Error) => void;
    const promise = new Promise<InputResponse>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    promise.catch(() => {});
    live.pending.set(k, { request, promise, resolve, reject });
    record.inputRequests = { ...record.inputRequests, [k]: request };
    void this.update(live, { status: 'input_required' });
    return promise;
  }

  /**
   * `tasks/update`: answers for open keys are applied together (a malformed one rejects the update, -32602);
   * answers for keys that are not open (never issued, already answered) are ignored, as the extension says.
   */
  async deliver(record: TaskRecord, responses: JsonObject): Promise<void> {
    const live = this.live.get(record.taskId);
    if (!live || isTerminal(record.status)) return;
    const accepted: [string, PendingInput, InputResponse][] = [];
    for (const [key, value] of Object.entries(responses)) {
      const pending = live.pending.get(key);
      if (pending) accepted.push([key, pending, checkInputResponse(key, pending.request.method, value)]);
    }
    if (accepted.length === 0) return;
    const remaining = { ...record.inputRequests };
    for (const [key] of accepted) {
      live.pending.delete(key);
      live.answeredKeys.add(key);
      delete remaining[key];
    }
    if (Object.keys(remaining).length > 0) record.inputRequests = remaining;
    else delete record.inputRequests;
    await this.update(live, live.pending.size === 0 ? { status: 'working' } : {});
    for (const [, pending, answer] of accepted) pending.resolve(answer);
  }

  /**
   * 2025-11-25: a server→client request tied to the task (`io.modelcontextprotocol/related-task`). The task is
   * `input_required` while any is unanswered; the request travels through `tasks/result` (see `TaskChannel`).
   */
  async askExperimental(
    live: LiveTask,
    request: InputRequest,
    options: InputOptions,
    ctx: RequestContext,
  ): Promise<InputResponse> {
    const session = live.session;
    if (!session || !live.channel) throw new Error('This task has no session to ask through');
    const revision = session.revision;
    if (!revision.serverRequests[request.method]) {
      throw new Error(`${request.method} is not available in protocol revision ${revision.id}`);
    }
    try {
      requireCapability(request, live.client.capabilities);
    } catch (error) {
      // Legacy revisions have no missing-capability error code: a plain failure of the handler.
      throw new Error(error instanceof Error ? error.message : String(error), { cause: error });
    }
    const record = live.record;
    const params = (request.params ?? {}) as JsonObject;
    live.outstandingRequests++;
    if (live.outstandingRequests === 1) void this.update(live, { status: 'input_required' });
    try {
      const result = await session.request(
        request.method,
        { ...params, _meta: relatedTaskMeta(record.taskId, params._meta) },
        live.channel,
        // The client answers once it calls tasks/result, which may be late: the task's lifetime bounds the wait.
        { signal: ctx.signal, timeoutMs: options.timeoutMs ?? Math.max(expiresAt(record) - Date.now(), 1) },
      );
      return checkInputResponse('result', request.method, result);
    } finally {
      live.outstandingRequests--;
      if (live.outstandingRequests === 0 && record.status === 'input_required') {
        void this.update(live, { status: 'working' });
      }
    }
  }

  // ── notifications ───────────────────────────────────────────────────────────────────────────────────

  /** Status notifications: 2025-11-25 to the task's session, the extension to listen streams that asked. */
  private announce(record: TaskRecord, session: LegacySession | undefined): void {
    try {
      if (record.dialect === 'experimental') {
        if (session?.initialized) {
          session.notify('notifications/tasks/status', experimentalTask(record));
        }
        return;
      }
      let json: JsonObject | undefined;
      for (const listener of this.deps.listeners()) {
        if (!listener.filter.taskIds?.includes(record.taskId)) continue;
        json ??= detailedTask(record);
        listener.outbox.send(taggedNotification('notifications/tasks', listener.id, json));
      }
    } catch (error) {
      this.deps.report(error, 'tasks');
    }
  }

  /** 2025-11-25 task notifications (progress, logs) carry the related-task metadata. */
  notifyExperimental(live: LiveTask, method: string, params: JsonObject): void {
    const session = live.session;
    if (!session || session.closed || !session.revision.serverNotifications.has(method)) return;
    const text = serializeNotification(method, {
      ...params,
      _meta: relatedTaskMeta(live.record.taskId, params._meta),
    });
    if (!live.channel?.sendLive(text)) session.defaultOutbox.send(text);
  }

  // ── ending ──────────────────────────────────────────────────────────────────────────────────────────

  private finish(live: LiveTask): void {
    if (this.live.get(live.record.taskId) === live) this.live.delete(live.record.taskId);
    const ended = new RequestAbortedError('cancelled', 'The task is no longer running');
    for (const pending of live.pending.values()) pending.reject(ended);
    live.pending.clear();
    live.channel?.clear();
    for (const wake of [...live.waiters]) wake();
    live.waiters.clear();
  }

  /** The store dropped a task (expired, evicted): its work stops. */
  private evicted(taskId: string): void {
    const live = this.live.get(taskId);
    if (!live) return;
    abortRequest(live.ctx, new RequestAbortedError('cancelled', 'The task expired'));
    this.finish(live);
  }

  /** 2025-11-25 tasks belong to their session: when it ends, they go (nobody can reach them any more). */
  private bindSession(session: LegacySession, owner: string): void {
    if (this.boundSessions.has(session)) return;
    this.boundSessions.add(session);
    session.onClose(() => {
      // Only this process's copy of a shared session went: the session and its tasks live on elsewhere.
      if (session.detached) return;
      for (const live of [...this.live.values()]) {
        if (live.session !== session) continue;
        abortRequest(live.ctx, new RequestAbortedError('closed', 'The session ended'));
        this.finish(live);
      }
      this.store.deleteOwner(owner).catch((error: unknown) => this.deps.report(error, 'tasks'));
    });
  }
}

function firstText(result: JsonObject): string | undefined {
  const content = result.content;
  if (!Array.isArray(content)) return undefined;
  for (const block of content) {
    if (typeof block === 'object' && block !== null && (block as JsonObject).type === 'text') {
      const text = (block as JsonObject).text;
      if (typeof text === 'string') return text;
    }
  }
  return undefined;
}
