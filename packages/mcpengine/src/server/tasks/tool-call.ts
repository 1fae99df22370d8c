/**
 * `tools/call` as a task. Whether a call becomes a task depends on the tool (`execution.taskSupport`), the
 * dialect of the revision, and the client:
 *
 * | dialect | client | forbidden | optional | required |
 * |---|---|---|---|---|
 * | 2025-11-25 | sent `task` | -32601 | task | task |
 * | 2025-11-25 | no `task` | sync | sync | -32601 |
 * | 2025-11-25, server without `tasks.requests.tools.call` | any | sync | – | – |
 * | extension | declared `io.modelcontextprotocol/tasks` | sync | task | task |
 * | extension | did not | sync | sync | -32021 |
 *
 * Revisions without tasks run every tool synchronously. The extension ignores a 2025-11-25 `task` param.
 */
import { ErrorCode, ProtocolError } from '../../protocol/errors.js';
import { missingCapabilityError } from '../../protocol/meta.js';
import type { CallToolResult, ClientCapabilities, JsonObject } from '../../protocol/types.js';
import { RequestContext, readProgressToken } from '../context.js';
import {
  finishToolResult,
  toolErrorResult,
  validateToolArguments,
  type CompiledTool,
} from '../features/tools.js';
import type { Call } from '../dispatch.js';
import { principalOf } from '../principal.js';
import type { LiveTask, NewTask, TaskEngine, TaskOutcome } from './engine.js';
import { TaskLimitError } from './store.js';
import { TaskIO } from './task-io.js';
import { TASKS_EXTENSION } from './types.js';
import { createTaskResult } from './wire.js';
import { isRequestAborted } from '../context.js';

/** The client declared the tasks extension on this request. */
export function declaresTasksExtension(capabilities: ClientCapabilities): boolean {
  const extensions = capabilities.extensions;
  return typeof extensions === 'object' && extensions !== null && extensions[TASKS_EXTENSION] !== undefined;
}

export function tasksExtensionRequired(): ProtocolError {
  return missingCapabilityError(
    { extensions: { [TASKS_EXTENSION]: {} } },
    `the tasks extension (${TASKS_EXTENSION})`,
  );
}

/** Who a task belongs to: the legacy session, or (modern) the authenticated principal (empty when anonymous). */
export function taskOwner(call: Call): string {
  if (call.ctx.era === 'legacy') return `session:${call.ctx.sessionId ?? ''}`;
  return `principal:${principalOf(call.ctx.auth)}`;
}

/** Whether this call runs as a task; throws the spec's error when the tool and the request disagree. */
export function runsAsTask(tool: CompiledTool, call: Call): boolean {
  const dialect = call.revision.tasks;
  if (!dialect) return false;
  const support = tool.taskSupport;
  if (dialect === 'experimental') {
    // "Receivers that do not declare the task capability for a request type MUST process requests of that type
    // normally, ignoring any task-augmentation metadata" (2025-11-25 tasks).
    if (!declaresToolCallTasks(call)) return false;
    const requested = call.params.task;
    if (requested === undefined) {
      if (support === 'required') {
        throw new ProtocolError(
          ErrorCode.MethodNotFound,
          `Method not found: tool "${tool.name}" must be called as a task (task augmentation required)`,
        );
      }
      return false;
    }
    if (typeof requested !== 'object' || requested === null || Array.isArray(requested)) {
      throw ProtocolError.invalidParams('Invalid params: "task" must be an object');
    }
    const ttl = (requested as JsonObject).ttl;
    if (
      ttl !== undefined &&
      ttl !== null &&
      !(typeof ttl === 'number' && Number.isSafeInteger(ttl) && ttl > 0)
    ) {
      throw ProtocolError.invalidParams('Invalid params: "task.ttl" must be a positive integer');
    }
    if (support === 'forbidden') {
      throw new ProtocolError(
        ErrorCode.MethodNotFound,
        `Method not found: tool "${tool.name}" does not support task execution`,
      );
    }
    return true;
  }
  if (support === 'forbidden') return false;
  if (declaresTasksExtension(call.ctx.client.capabilities)) return true;
  if (support === 'required') throw tasksExtensionRequired();
  return false;
}

/** The server declared `tasks.requests.tools.call` (2025-11-25), which is what makes `task` params meaningful. */
function declaresToolCallTasks(call: Call): boolean {
  const requests = call.definition.capabilities.tasks?.requests as JsonObject | undefined;
  const tools = requests?.tools as JsonObject | undefined;
  return typeof tools === 'object' && tools !== null && tools.call !== undefined;
}

function isInputRequired(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && (value as JsonObject).resultType === 'input_required';
}

/**
 * Runs `prepare` (if any) in the request, then creates the task and starts the handler in the background.
 * Answers with a `CreateTaskResult`, or (extension) with the immediate result `prepare` returned.
 */
export async function callToolAsTask(
  tool: CompiledTool,
  call: Call,
  engine: TaskEngine,
): Promise<JsonObject> {
  const dialect = call.revision.tasks!;
  const spec: NewTask = {
    owner: taskOwner(call),
    dialect,
    method: 'tools/call',
    ttlMs: engine.ttlFor(
      dialect === 'experimental' ? (call.params.task as JsonObject).ttl : undefined,
      tool.task?.ttlMs,
    ),
    pollIntervalMs: tool.task?.pollIntervalMs ?? engine.settings.pollIntervalMs,
    client: call.ctx.client,
    session: call.legacy?.session,
  };

  let prepared: Prepared;
  let args: unknown;
  try {
    const checked = await validateToolArguments(tool, call.params, call.revision);
    if (!checked.ok) prepared = { kind: 'answer', outcome: { result: checked.result } };
    else {
      args = checked.args;
      prepared = await prepare(tool, checked.args, call);
    }
  } catch (error) {
    // The extension answers such errors as the request's own; a 2025-11-25 client asked for a task and gets one.
    if (dialect === 'extension' || !(error instanceof ProtocolError)) throw error;
    prepared = { kind: 'answer', outcome: { error: error.toErrorObject() } };
  }

  if (prepared.kind === 'input') return prepared.result;
  if (prepared.kind === 'answer') {
    const outcome = prepared.outcome;
    if (dialect === 'extension') {
      if ('error' in outcome)
        throw new ProtocolError(outcome.error.code, outcome.error.message, outcome.error.data);
      return outcome.result;
    }
    const live = await createTask(engine, spec);
    await engine.settle(live, outcome);
    return createTaskResult(live.record);
  }

  const live = await createTask(engine, spec);
  const created = createTaskResult(live.record);
  const ctx = taskContext(engine, live, call);
  live.ctx = ctx;
  engine.run(live, () => runHandler(tool, args, ctx, call));
  return created;
}

async function createTask(engine: TaskEngine, spec: NewTask): Promise<LiveTask> {
  try {
    return await engine.create(spec);
  } catch (error) {
    if (error instanceof TaskLimitError) {
      throw new ProtocolError(ErrorCode.InternalError, `Cannot create a task: ${error.message}`);
    }
    throw error;
  }
}

/** What `prepare` decided: go on as a task, answer at once, or (modern) ask for input first. */
type Prepared =
  | { readonly kind: 'task' }
  | { readonly kind: 'answer'; readonly outcome: TaskOutcome }
  | { readonly kind: 'input'; readonly result: JsonObject };

async function prepare(tool: CompiledTool, args: unknown, call: Call): Promise<Prepared> {
  const hook = tool.task?.prepare;
  if (!hook) return { kind: 'task' };
  let returned: unknown;
  try {
    returned = await hook(args as never, call.ctx);
  } catch (error) {
    if (error instanceof ProtocolError || isRequestAborted(call.ctx)) throw error;
    return { kind: 'answer', outcome: { result: toolErrorResult(error) } };
  }
  if (returned === undefined) return { kind: 'task' };
  if (isInputRequired(returned)) {
    if (call.revision.era === 'modern') return { kind: 'input', result: returned };
    throw ProtocolError.internal(
      'input_required results exist only from 2026-07-28; use ctx.elicit() and friends',
    );
  }
  const result = await finishToolResult(tool, returned, call.revision);
  return { kind: 'answer', outcome: { result: result } };
}

/** The handler's context inside the task: its own signal (cancellation), era plumbing from `TaskIO`. */
function taskContext(engine: TaskEngine, live: LiveTask, call: Call): RequestContext {
  const progressToken = readProgressToken(call.params);
  return new RequestContext({
    requestId: call.id,
    method: call.method,
    revision: call.revision.id,
    era: call.ctx.era,
    client: call.ctx.client,
    params: call.params,
    io: new TaskIO(engine, live),
    // The extension delivers no progress; a token lets ctx.progress() messages reach the task's statusMessage.
    progressToken: progressToken ?? (live.record.dialect === 'extension' ? live.record.taskId : undefined),
    auth: call.ctx.auth,
    sessionId: call.ctx.sessionId,
    state: structuredClone(call.ctx.state),
  });
}

async function runHandler(
  tool: CompiledTool,
  args: unknown,
  ctx: RequestContext,
  call: Call,
): Promise<TaskOutcome> {
  let returned: unknown;
  try {
    returned = await tool.handler(args, ctx);
  } catch (error) {
    if (error instanceof ProtocolError) throw error;
    return { result: toolErrorResult(error) };
  }
  if (isInputRequired(returned)) {
    throw ProtocolError.internal('A task cannot answer input_required: ask with ctx.elicit() and friends');
  }
  const result: CallToolResult = await finishToolResult(tool, returned, call.revision);
  return { result: result };
}
