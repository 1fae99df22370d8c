/**
 * Tasks (2025-11-25): task-augmented tools/call, tasks/get, tasks/result, tasks/list and tasks/cancel, on the
 * tools the validator may call.
 */
import { factsOf } from '../revisions.js';
import { brief, callEvidence } from '../evidence.js';
import type { Evidence } from '../outcomes.js';
import { isObject, resultOf, type CallResult, type JsonObject } from '@mcpengine/wire';
import type { ProbeContext } from './context.js';
import { errorCode, isError, isResult } from './expect.js';
import { sampleInstance } from './instances.js';
import type { Probe } from './probe.js';
import { defineCheck } from './registry.js';

export const TASKS_CAPABILITY = defineCheck(
  'tasks.capability',
  'tools',
  'Tools that support tasks come with the tasks.requests.tools.call capability',
);
export const TASKS_FORBIDDEN = defineCheck(
  'tasks.forbidden-augmentation',
  'tools',
  'A task-augmented call of a tool without task support is answered with -32601',
);
export const TASKS_REQUIRED = defineCheck(
  'tasks.required-augmentation',
  'tools',
  'A plain call of a tool that requires a task is answered with -32601',
);
export const TASKS_IGNORED = defineCheck(
  'tasks.ignored-when-undeclared',
  'tools',
  'A server without task support ignores task metadata and answers the call normally',
);
export const TASKS_CREATE = defineCheck(
  'tasks.create',
  'tools',
  'A task-augmented call returns a CreateTaskResult: a fresh string taskId, status working, ISO 8601 createdAt and lastUpdatedAt',
  { facets: ['result', 'id-string', 'id-unique', 'working', 'created-at', 'updated-at'] },
);
export const TASKS_GET = defineCheck(
  'tasks.get',
  'tools',
  'tasks/get reports the task with its ttl and moves only along valid status transitions, never out of a terminal one',
  { facets: ['transitions', 'terminal', 'ttl', 'no-related-meta', 'no-sse', 'status-notification'] },
);
export const TASKS_RESULT = defineCheck(
  'tasks.result',
  'tools',
  'tasks/result returns the underlying result once the task is terminal (blocking until then), with io.modelcontextprotocol/related-task',
  { facets: ['payload', 'related-task', 'blocks'] },
);
export const TASKS_UNKNOWN = defineCheck(
  'tasks.unknown-id',
  'tools',
  'tasks/get with an unknown taskId is answered with -32602',
);
export const TASKS_LIST = defineCheck(
  'tasks.list',
  'tools',
  'tasks/list lists the task (or offers a next page); a forged cursor is answered with -32602',
  {
    facets: ['listed', 'cursor'],
  },
);
export const TASKS_CANCEL = defineCheck(
  'tasks.cancel',
  'tools',
  'tasks/cancel moves a working task to cancelled, where it stays',
  {
    facets: ['cancelled', 'stays'],
  },
);
export const TASKS_CANCEL_TERMINAL = defineCheck(
  'tasks.cancel-terminal',
  'tools',
  'Cancelling a task that is already terminal is answered with -32602',
);
export const TASKS_PROGRESS = defineCheck(
  'tasks.progress',
  'progress',
  'Progress for a task keeps the original progress token and stops once the task is terminal',
  { facets: ['token', 'stops'] },
);

const ISO_8601 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
const TERMINAL = new Set(['completed', 'failed', 'cancelled']);
const NEXT: Record<string, readonly string[]> = {
  working: ['working', 'input_required', 'completed', 'failed', 'cancelled'],
  input_required: ['input_required', 'working', 'completed', 'failed', 'cancelled'],
};
const RELATED = 'io.modelcontextprotocol/related-task';

function taskSupport(tool: JsonObject): string | undefined {
  const execution = tool['execution'];
  return isObject(execution) && typeof execution['taskSupport'] === 'string'
    ? execution['taskSupport']
    : undefined;
}

function taskOf(call: CallResult): JsonObject | undefined {
  const result = resultOf(call);
  if (result === undefined) return undefined;
  return isObject(result['task']) ? result['task'] : result;
}

interface Problem {
  readonly text: string;
  readonly facet: string;
}

function taskProblems(task: JsonObject | undefined): Problem[] {
  if (task === undefined) return [{ text: 'no task', facet: 'result' }];
  const problems: Problem[] = [];
  if (typeof task['taskId'] !== 'string' || task['taskId'] === '')
    problems.push({ text: `taskId ${brief(task['taskId'])} is not a non-empty string`, facet: 'id-string' });
  for (const [field, facet] of [
    ['createdAt', 'created-at'],
    ['lastUpdatedAt', 'updated-at'],
  ] as const) {
    if (typeof task[field] !== 'string' || !ISO_8601.test(task[field] as string))
      problems.push({ text: `${field} ${brief(task[field])} is not an ISO 8601 timestamp`, facet });
  }
  return problems;
}

function expectProblems(
  ctx: ProbeContext,
  check: string,
  problems: readonly Problem[],
  pass: string,
  evidence: readonly Evidence[],
): void {
  ctx.expect(
    check,
    problems.length === 0,
    pass,
    [...new Set(problems.map((p) => p.text))].join('; '),
    evidence,
    problems.map((p) => p.facet),
  );
}

/** What is wrong with one tasks/get answer. */
function getResultProblems(call: CallResult, got: JsonObject): Problem[] {
  const problems: Problem[] = [];
  if (!('ttl' in got)) problems.push({ text: 'tasks/get result without ttl', facet: 'ttl' });
  if (isObject(got['_meta']) && RELATED in got['_meta'])
    problems.push({ text: `tasks/get result carries ${RELATED}`, facet: 'no-related-meta' });
  if (call.http?.contentType.toLowerCase().startsWith('text/event-stream') === true)
    problems.push({ text: 'tasks/get was answered with an event stream', facet: 'no-sse' });
  return problems;
}

/** tasks/result: the tool's own result (or its error), with the related-task metadata naming the task. */
function judgePayload(
  ctx: ProbeContext,
  payload: CallResult,
  taskId: string,
  facet: 'payload' | 'blocks',
): void {
  const result = resultOf(payload);
  const related = isObject(result?.['_meta']) ? (result['_meta'] as JsonObject)[RELATED] : undefined;
  const problems: Problem[] = [];
  if (result === undefined && errorCode(payload) === undefined)
    problems.push({ text: isResult(payload).detail, facet });
  else if (result !== undefined && !Array.isArray(result['content']))
    problems.push({ text: 'not the tool result (no content array)', facet });
  if (result !== undefined && !(isObject(related) && related['taskId'] === taskId))
    problems.push({ text: `no ${RELATED} naming ${taskId} in _meta`, facet: 'related-task' });
  expectProblems(
    ctx,
    TASKS_RESULT,
    problems,
    facet === 'blocks'
      ? 'asked while working, answered with the result once done'
      : 'the underlying result with its related-task metadata',
    [callEvidence(payload, 'tasks/result')],
  );
}

/** The checks that need a created task. */
const WITH_A_TASK = [
  TASKS_GET,
  TASKS_RESULT,
  TASKS_LIST,
  TASKS_CANCEL,
  TASKS_CANCEL_TERMINAL,
  TASKS_PROGRESS,
];

/** How long a tool's tasks must stay working for the validator to cancel one (see the cancellation below). */
const TASK_CANCEL_MIN_MS = 250;

export const tasksProbe: Probe = {
  name: 'tasks',
  eras: ['legacy'],
  revisions: (revision) => factsOf(revision).coreTasks,
  checks: [
    TASKS_CAPABILITY,
    TASKS_FORBIDDEN,
    TASKS_REQUIRED,
    TASKS_IGNORED,
    TASKS_CREATE,
    TASKS_GET,
    TASKS_RESULT,
    TASKS_UNKNOWN,
    TASKS_LIST,
    TASKS_CANCEL,
    TASKS_CANCEL_TERMINAL,
    TASKS_PROGRESS,
  ],
  async run(ctx: ProbeContext) {
    const tools = ctx.inventory.tools ?? [];
    const supported =
      ctx.has('tasks') &&
      isObject(ctx.profile?.capabilities['tasks']) &&
      isObject((ctx.profile.capabilities['tasks'] as JsonObject)['requests']);
    const requests = supported
      ? ((ctx.profile!.capabilities['tasks'] as JsonObject)['requests'] as JsonObject)
      : {};
    const toolCalls = isObject(requests['tools']) && isObject((requests['tools'] as JsonObject)['call']);
    const taskTools = tools.filter(
      (tool) => taskSupport(tool) === 'optional' || taskSupport(tool) === 'required',
    );
    ctx.expect(
      TASKS_CAPABILITY,
      taskTools.length === 0 || toolCalls,
      taskTools.length === 0 ? 'no tool declares task support' : 'tasks.requests.tools.call advertised',
      `${taskTools.map((t) => String(t['name'])).join(', ')} support tasks but the server does not advertise tasks.requests.tools.call`,
      [],
    );
    const callable = tools.filter((tool) => ctx.mayCall(tool));
    const argsOf = (tool: JsonObject): JsonObject | undefined => {
      const record = ctx.state.toolCalls.find((r) => r.tool === tool);
      const params = record?.call.sent['params'];
      return isObject(params) && isObject(params['arguments']) ? params['arguments'] : undefined;
    };
    // A tool never called plainly (one that requires a task) gets arguments built from its input schema: `{}`
    // would be refused for a missing required argument, and the verdict would be about that instead.
    const argumentsFor = (tool: JsonObject): JsonObject => {
      const used = argsOf(tool);
      if (used !== undefined) return used;
      const schema = tool['inputSchema'];
      const sample = isObject(schema) ? sampleInstance(schema) : undefined;
      return isObject(sample) ? sample : {};
    };
    if (!toolCalls) {
      for (const check of this.checks.filter((c) => c !== TASKS_CAPABILITY && c !== TASKS_IGNORED)) {
        ctx.notApplicable(check, 'the server does not advertise tasks.requests.tools.call');
      }
      const tool = callable.find(
        (t) =>
          argsOf(t) !== undefined &&
          resultOf(ctx.state.toolCalls.find((r) => r.tool === t)?.call) !== undefined,
      );
      if (tool === undefined) return ctx.notRun(TASKS_IGNORED, 'no callable tool answered a plain call');
      const call = await ctx.rpc('tools/call', {
        name: tool['name'],
        arguments: argsOf(tool),
        task: { ttl: 60_000 },
      });
      const result = resultOf(call);
      ctx.expect(
        TASKS_IGNORED,
        result !== undefined && !('task' in result) && Array.isArray(result['content']),
        'answered with a normal tool result',
        result === undefined
          ? isResult(call).detail
          : 'answered with a task although the server does not support tasks',
        [callEvidence(call, `tools/call ${String(tool['name'])} with task metadata`)],
      );
      return;
    }
    ctx.notApplicable(TASKS_IGNORED, 'the server supports tasks');

    const unknown = await ctx.rpc('tasks/get', { taskId: 'validator-no-such-task' });
    const unknownJudgement = isError(unknown, -32602);
    ctx.judge(TASKS_UNKNOWN, unknownJudgement, [callEvidence(unknown, 'tasks/get of an unknown task')]);

    const forbidden = callable.find(
      (t) => (taskSupport(t) ?? 'forbidden') === 'forbidden' && argsOf(t) !== undefined,
    );
    if (forbidden === undefined) ctx.notRun(TASKS_FORBIDDEN, 'no callable tool without task support');
    else {
      const call = await ctx.rpc('tools/call', {
        name: forbidden['name'],
        arguments: argsOf(forbidden),
        task: { ttl: 60_000 },
      });
      const judgement = isError(call, -32601);
      ctx.judge(TASKS_FORBIDDEN, judgement, [
        callEvidence(call, `tools/call ${String(forbidden['name'])} as a task`),
      ]);
    }
    const required = callable.find((t) => taskSupport(t) === 'required');
    if (required === undefined) ctx.notRun(TASKS_REQUIRED, 'no callable tool requires a task');
    else {
      const args = argumentsFor(required);
      const call = await ctx.rpc('tools/call', { name: required['name'], arguments: args });
      const judgement = isError(call, -32601);
      ctx.judge(TASKS_REQUIRED, judgement, [
        callEvidence(call, `tools/call ${String(required['name'])} without a task`),
      ]);
    }

    const candidate = callable.find((t) => taskSupport(t) === 'optional' || taskSupport(t) === 'required');
    if (candidate === undefined) {
      for (const check of [TASKS_CREATE, ...WITH_A_TASK]) {
        ctx.notRun(check, 'no callable tool supports tasks (use --call <tool>)');
      }
      return;
    }
    const name = candidate['name'];
    const args = argumentsFor(candidate);
    const progressToken = 'validator-task-progress';
    const created = await ctx.rpc('tools/call', {
      name,
      arguments: args,
      task: { ttl: 60_000 },
      _meta: { progressToken },
    });
    const task = taskOf(created);
    const createdResult = resultOf(created);
    const createProblems: Problem[] =
      createdResult === undefined
        ? [{ text: isResult(created).detail, facet: 'result' }]
        : [
            ...(isObject(createdResult['task'])
              ? []
              : [{ text: 'the result is not a CreateTaskResult (no task object)', facet: 'result' }]),
            ...taskProblems(task),
            // A task may finish before its CreateTaskResult is written, which then reports where it got to: only
            // a status no task can reach from working proves it did not begin there.
            ...(task?.['status'] === 'working' || (NEXT['working'] ?? []).includes(String(task?.['status']))
              ? []
              : [
                  {
                    text: `status ${brief(task?.['status'])}, which no task reaches from working`,
                    facet: 'working',
                  },
                ]),
          ];
    expectProblems(
      ctx,
      TASKS_CREATE,
      createProblems,
      `task ${brief(task?.['taskId'])} created (status ${brief(task?.['status'])})`,
      [callEvidence(created, `tools/call ${String(name)} as a task`)],
    );
    const taskId = task?.['taskId'];
    if (typeof taskId !== 'string') {
      for (const check of WITH_A_TASK) ctx.notRun(check, 'no task was created');
      return;
    }

    // Poll until terminal, checking every transition.
    let status = task?.['status'] as string | undefined;
    const getProblems: Problem[] = [];
    let lastGet: CallResult | undefined;
    let terminalAt: number | undefined;
    const deadline = Date.now() + ctx.settings.requestTimeoutMs * 3;
    while (status !== undefined && !TERMINAL.has(status) && Date.now() < deadline) {
      lastGet = await ctx.rpc('tasks/get', { taskId });
      const got = resultOf(lastGet);
      if (got === undefined) {
        getProblems.push({ text: `tasks/get: ${isResult(lastGet).detail}`, facet: 'transitions' });
        break;
      }
      getProblems.push(...getResultProblems(lastGet, got));
      const next = got['status'] as string;
      if (!(NEXT[status] ?? []).includes(next))
        getProblems.push({ text: `status went from ${status} to ${brief(next)}`, facet: 'transitions' });
      status = next;
      if (TERMINAL.has(status)) terminalAt = lastGet.respondedAt;
      if (!TERMINAL.has(status))
        await new Promise((resolve) =>
          setTimeout(
            resolve,
            typeof got['pollInterval'] === 'number' ? Math.min(got['pollInterval'], 500) : 100,
          ),
        );
    }
    const payload = await ctx.rpc(
      'tasks/result',
      { taskId },
      { timeoutMs: ctx.settings.requestTimeoutMs * 3 },
    );
    terminalAt ??= payload.respondedAt;
    judgePayload(ctx, payload, taskId, 'payload');

    // Once terminal, the task stays so.
    if (TERMINAL.has(status ?? '')) {
      const again = await ctx.rpc('tasks/get', { taskId });
      const later = resultOf(again);
      if (later !== undefined) getProblems.push(...getResultProblems(again, later));
      if (later !== undefined && later['status'] !== status)
        getProblems.push({
          text: `the terminal status ${status} became ${brief(later['status'])}`,
          facet: 'terminal',
        });
      lastGet ??= again;
    }
    const statusNotes = ctx.state.channels
      .flatMap((c) => c.received)
      .filter((r) => isObject(r.message) && r.message['method'] === 'notifications/tasks/status');
    for (const note of statusNotes) {
      const params = (note.message as JsonObject)['params'];
      if (isObject(params) && isObject(params['_meta']) && RELATED in params['_meta'])
        getProblems.push({
          text: `notifications/tasks/status carries ${RELATED}`,
          facet: 'status-notification',
        });
    }
    if (lastGet === undefined) ctx.notRun(TASKS_GET, 'the task was terminal at once; nothing to poll');
    else
      expectProblems(ctx, TASKS_GET, getProblems, `polled to ${status}`, [
        callEvidence(lastGet, 'tasks/get'),
      ]);

    // Listed (following pages), and a forged cursor refused.
    let listed = await ctx.rpc('tasks/list', {});
    let found = false;
    for (let page = 0; page < 10; page++) {
      const result = resultOf(listed);
      const tasks = result?.['tasks'];
      if (Array.isArray(tasks) && tasks.some((t) => isObject(t) && t['taskId'] === taskId)) found = true;
      if (found || typeof result?.['nextCursor'] !== 'string') break;
      listed = await ctx.rpc('tasks/list', { cursor: result['nextCursor'] });
    }
    const forged = await ctx.rpc('tasks/list', { cursor: 'validator-forged-cursor' });
    const listProblems: Problem[] = [
      ...(resultOf(listed) === undefined
        ? [{ text: `tasks/list: ${isResult(listed).detail}`, facet: 'listed' }]
        : []),
      ...(resultOf(listed) !== undefined && !found
        ? [{ text: `task ${taskId} is not listed, and no nextCursor offers more`, facet: 'listed' }]
        : []),
      ...(isError(forged, -32602).ok
        ? []
        : [{ text: `forged cursor: ${isError(forged, -32602).detail}`, facet: 'cursor' }]),
    ];
    expectProblems(ctx, TASKS_LIST, listProblems, 'the task is listed; a forged cursor is rejected', [
      callEvidence(listed, 'tasks/list'),
      callEvidence(forged, 'tasks/list with a forged cursor'),
    ]);

    const cancelTerminal = await ctx.rpc('tasks/cancel', { taskId });
    const terminalJudgement = isError(cancelTerminal, -32602);
    ctx.judge(TASKS_CANCEL_TERMINAL, terminalJudgement, [
      callEvidence(cancelTerminal, 'tasks/cancel of a terminal task'),
    ]);

    const progress = ctx.state.channels
      .flatMap((c) => c.received)
      .filter((r) => isObject(r.message) && r.message['method'] === 'notifications/progress');
    const mine = progress.filter(
      (r) => (((r.message as JsonObject)['params'] ?? {}) as JsonObject)['progressToken'] === progressToken,
    );
    if (mine.length === 0) ctx.notRun(TASKS_PROGRESS, 'the task sent no progress');
    else {
      const late = terminalAt === undefined ? [] : mine.filter((r) => r.at > terminalAt! + 50);
      ctx.expect(
        TASKS_PROGRESS,
        late.length === 0,
        `${mine.length} progress notification(s) with the original token, none after the task was terminal`,
        `${late.length} progress notification(s) after the task reached ${status}`,
        [
          {
            label: 'progress for the task',
            received: mine
              .slice(-3)
              .map((r) => r.text)
              .join('\n'),
          },
        ],
        ['stops'],
      );
    }

    // A task asked for its result while it still works: tasks/result blocks until it is terminal.
    const third = await ctx.rpc('tools/call', { name, arguments: args, task: { ttl: 60_000 } });
    const thirdId = taskOf(third)?.['taskId'];
    if (typeof thirdId === 'string' && thirdId === taskId) {
      ctx.fail(
        TASKS_CREATE,
        `a second task got the same taskId ${taskId}`,
        [callEvidence(third, 'another task')],
        ['id-unique'],
      );
    }
    // How long a task of this tool stays working: from its CreateTaskResult to the answer of the blocking
    // tasks/result (at most that long).
    let workedAtMostMs: number | undefined;
    if (typeof thirdId !== 'string' || taskOf(third)?.['status'] !== 'working')
      ctx.notRun(TASKS_RESULT, 'no task was still working when its result was asked for');
    else {
      const blocked = await ctx.rpc(
        'tasks/result',
        { taskId: thirdId },
        { timeoutMs: ctx.settings.requestTimeoutMs * 3 },
      );
      judgePayload(ctx, blocked, thirdId, 'blocks');
      if (blocked.response !== undefined)
        workedAtMostMs = blocked.startedAt + blocked.elapsedMs - (third.startedAt + third.elapsedMs);
    }

    // Cancelling a task that finishes within moments is a race the validator would win in one run and lose in
    // the next (a tool whose work fails at once, like an API call to an unreachable host): the cancellation
    // statements would flip between passed and not run. Such a tool's tasks are not cancelled at all.
    if (workedAtMostMs !== undefined && workedAtMostMs < TASK_CANCEL_MIN_MS) {
      ctx.notRun(
        TASKS_CANCEL,
        `a task of ${String(name)} is terminal within ${Math.max(0, Math.round(workedAtMostMs))} ms of its creation, too soon to cancel one reliably while it works (at least ${TASK_CANCEL_MIN_MS} ms needed)`,
      );
      return;
    }

    // A second task, cancelled while it works.
    const second = await ctx.rpc('tools/call', { name, arguments: args, task: { ttl: 60_000 } });
    const secondId = taskOf(second)?.['taskId'];
    if (typeof secondId === 'string' && (secondId === taskId || secondId === thirdId)) {
      ctx.fail(
        TASKS_CREATE,
        `a new task reused the taskId ${secondId}`,
        [callEvidence(second, 'another task')],
        ['id-unique'],
      );
    }
    if (typeof secondId !== 'string' || taskOf(second)?.['status'] !== 'working') {
      ctx.notRun(TASKS_CANCEL, 'a second task could not be started in the working status');
      return;
    }
    const cancelled = await ctx.rpc('tasks/cancel', { taskId: secondId });
    if (errorCode(cancelled) === -32602) {
      ctx.notRun(TASKS_CANCEL, 'the second task finished before it could be cancelled', [
        callEvidence(cancelled, 'tasks/cancel'),
      ]);
      return;
    }
    const after = await ctx.rpc('tasks/get', { taskId: secondId });
    const finalStatus = taskOf(after)?.['status'];
    const cancelledNow = taskOf(cancelled)?.['status'] === 'cancelled';
    ctx.expect(
      TASKS_CANCEL,
      cancelledNow && finalStatus === 'cancelled',
      'cancelled, and still cancelled afterwards',
      `tasks/cancel answered ${brief(taskOf(cancelled)?.['status'] ?? isResult(cancelled).detail)}, tasks/get then ${brief(finalStatus)}`,
      [callEvidence(cancelled, 'tasks/cancel'), callEvidence(after, 'tasks/get after the cancellation')],
      cancelledNow ? ['stays'] : ['cancelled'],
    );
  },
};
