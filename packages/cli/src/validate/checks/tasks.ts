/**
 * Tasks (2025-11-25): task-augmented tools/call, tasks/get, tasks/result, tasks/list and tasks/cancel, on the
 * tools the validator may call.
 */
import { brief, callEvidence } from '../evidence.js';
import { isObject, resultOf, type CallResult, type JsonObject } from '../wire/channel.js';
import type { ProbeContext } from './context.js';
import { errorCode, isError, isResult } from './expect.js';
import type { Probe } from './probe.js';
import { defineCheck } from './registry.js';

export const TASKS_CAPABILITY = defineCheck('tasks.capability', 'tools', 'Tools that support tasks come with the tasks.requests.tools.call capability');
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
  'A task-augmented call returns a CreateTaskResult: a string taskId, status working, ISO 8601 createdAt and lastUpdatedAt',
);
export const TASKS_GET = defineCheck(
  'tasks.get',
  'tools',
  'tasks/get reports the task with its ttl and moves only along valid status transitions',
);
export const TASKS_RESULT = defineCheck(
  'tasks.result',
  'tools',
  'tasks/result returns the underlying result once the task is terminal, with io.modelcontextprotocol/related-task',
);
export const TASKS_UNKNOWN = defineCheck('tasks.unknown-id', 'tools', 'tasks/get with an unknown taskId is answered with -32602');
export const TASKS_LIST = defineCheck('tasks.list', 'tools', 'tasks/list lists the task; a forged cursor is answered with -32602');
export const TASKS_CANCEL = defineCheck('tasks.cancel', 'tools', 'tasks/cancel moves a working task to cancelled, where it stays');
export const TASKS_CANCEL_TERMINAL = defineCheck(
  'tasks.cancel-terminal',
  'tools',
  'Cancelling a task that is already terminal is answered with -32602',
);
export const TASKS_PROGRESS = defineCheck(
  'tasks.progress',
  'progress',
  'Progress for a task keeps the original progress token and stops once the task is terminal',
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
  return isObject(execution) && typeof execution['taskSupport'] === 'string' ? execution['taskSupport'] : undefined;
}

function taskOf(call: CallResult): JsonObject | undefined {
  const result = resultOf(call);
  if (result === undefined) return undefined;
  return isObject(result['task']) ? result['task'] : result;
}

function taskProblems(task: JsonObject | undefined): string[] {
  if (task === undefined) return ['no task'];
  const problems: string[] = [];
  if (typeof task['taskId'] !== 'string' || task['taskId'] === '') problems.push(`taskId ${brief(task['taskId'])} is not a non-empty string`);
  for (const field of ['createdAt', 'lastUpdatedAt']) {
    if (typeof task[field] !== 'string' || !ISO_8601.test(task[field] as string)) problems.push(`${field} ${brief(task[field])} is not an ISO 8601 timestamp`);
  }
  return problems;
}

export const tasksProbe: Probe = {
  name: 'tasks',
  eras: ['legacy'],
  revisions: (revision) => revision === '2025-11-25',
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
    const supported = ctx.has('tasks') && isObject(ctx.profile?.capabilities['tasks']) && isObject((ctx.profile.capabilities['tasks'] as JsonObject)['requests']);
    const requests = supported ? ((ctx.profile!.capabilities['tasks'] as JsonObject)['requests'] as JsonObject) : {};
    const toolCalls = isObject(requests['tools']) && isObject((requests['tools'] as JsonObject)['call']);
    const taskTools = tools.filter((tool) => taskSupport(tool) === 'optional' || taskSupport(tool) === 'required');
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
    if (!toolCalls) {
      for (const check of this.checks.filter((c) => c !== TASKS_CAPABILITY && c !== TASKS_IGNORED)) {
        ctx.notApplicable(check, 'the server does not advertise tasks.requests.tools.call');
      }
      const tool = callable.find((t) => argsOf(t) !== undefined && resultOf(ctx.state.toolCalls.find((r) => r.tool === t)?.call) !== undefined);
      if (tool === undefined) return ctx.notRun(TASKS_IGNORED, 'no callable tool answered a plain call');
      const call = await ctx.rpc('tools/call', { name: tool['name'], arguments: argsOf(tool), task: { ttl: 60_000 } });
      const result = resultOf(call);
      ctx.expect(
        TASKS_IGNORED,
        result !== undefined && !('task' in result) && Array.isArray(result['content']),
        'answered with a normal tool result',
        result === undefined ? isResult(call).detail : 'answered with a task although the server does not support tasks',
        [callEvidence(call, `tools/call ${String(tool['name'])} with task metadata`)],
      );
      return;
    }
    ctx.notApplicable(TASKS_IGNORED, 'the server supports tasks');

    const unknown = await ctx.rpc('tasks/get', { taskId: 'validator-no-such-task' });
    const unknownJudgement = isError(unknown, -32602);
    ctx.expect(TASKS_UNKNOWN, unknownJudgement.ok, unknownJudgement.detail, unknownJudgement.detail, [callEvidence(unknown, 'tasks/get of an unknown task')]);

    const forbidden = callable.find((t) => (taskSupport(t) ?? 'forbidden') === 'forbidden' && argsOf(t) !== undefined);
    if (forbidden === undefined) ctx.notRun(TASKS_FORBIDDEN, 'no callable tool without task support');
    else {
      const call = await ctx.rpc('tools/call', { name: forbidden['name'], arguments: argsOf(forbidden), task: { ttl: 60_000 } });
      const judgement = isError(call, -32601);
      ctx.expect(TASKS_FORBIDDEN, judgement.ok, judgement.detail, judgement.detail, [callEvidence(call, `tools/call ${String(forbidden['name'])} as a task`)]);
    }
    const required = callable.find((t) => taskSupport(t) === 'required');
    if (required === undefined) ctx.notRun(TASKS_REQUIRED, 'no callable tool requires a task');
    else {
      const args = argsOf(required) ?? {};
      const call = await ctx.rpc('tools/call', { name: required['name'], arguments: args });
      const judgement = isError(call, -32601);
      ctx.expect(TASKS_REQUIRED, judgement.ok, judgement.detail, judgement.detail, [callEvidence(call, `tools/call ${String(required['name'])} without a task`)]);
    }

    const candidate = callable.find((t) => taskSupport(t) === 'optional' || taskSupport(t) === 'required');
    if (candidate === undefined) {
      for (const check of [TASKS_CREATE, TASKS_GET, TASKS_RESULT, TASKS_LIST, TASKS_CANCEL, TASKS_CANCEL_TERMINAL, TASKS_PROGRESS]) {
        ctx.notRun(check, 'no callable tool supports tasks (use --call <tool>)');
      }
      return;
    }
    const name = candidate['name'];
    const args = argsOf(candidate) ?? {};
    const progressToken = 'validator-task-progress';
    const created = await ctx.rpc('tools/call', { name, arguments: args, task: { ttl: 60_000 }, _meta: { progressToken } });
    const task = taskOf(created);
    const createProblems = resultOf(created) === undefined ? [isResult(created).detail] : [...taskProblems(task), ...(task?.['status'] === 'working' ? [] : [`status ${brief(task?.['status'])}, not working`])];
    ctx.expect(TASKS_CREATE, createProblems.length === 0, `task ${brief(task?.['taskId'])} created working`, createProblems.join('; '), [callEvidence(created, `tools/call ${String(name)} as a task`)]);
    const taskId = task?.['taskId'];
    if (typeof taskId !== 'string') {
      for (const check of [TASKS_GET, TASKS_RESULT, TASKS_LIST, TASKS_CANCEL, TASKS_CANCEL_TERMINAL, TASKS_PROGRESS]) ctx.notRun(check, 'no task was created');
      return;
    }

    // Poll until terminal, checking every transition.
    let status = task?.['status'] as string | undefined;
    const getProblems: string[] = [];
    let lastGet: CallResult | undefined;
    const deadline = Date.now() + ctx.settings.requestTimeoutMs * 3;
    while (status !== undefined && !TERMINAL.has(status) && Date.now() < deadline) {
      lastGet = await ctx.rpc('tasks/get', { taskId });
      const got = resultOf(lastGet);
      if (got === undefined) {
        getProblems.push(`tasks/get: ${isResult(lastGet).detail}`);
        break;
      }
      if (!('ttl' in got)) getProblems.push('tasks/get result without ttl');
      if (isObject(got['_meta']) && RELATED in got['_meta']) getProblems.push(`tasks/get result carries ${RELATED}`);
      const next = got['status'] as string;
      if (!(NEXT[status] ?? []).includes(next)) getProblems.push(`status went from ${status} to ${brief(next)}`);
      status = next;
      if (!TERMINAL.has(status)) await new Promise((resolve) => setTimeout(resolve, typeof got['pollInterval'] === 'number' ? Math.min(got['pollInterval'], 500) : 100));
    }
    if (lastGet === undefined) ctx.notRun(TASKS_GET, 'the task was terminal at once; nothing to poll');
    else ctx.expect(TASKS_GET, getProblems.length === 0, `polled to ${status}`, [...new Set(getProblems)].join('; '), [callEvidence(lastGet, 'tasks/get')]);

    const payload = await ctx.rpc('tasks/result', { taskId }, { timeoutMs: ctx.settings.requestTimeoutMs * 3 });
    const payloadResult = resultOf(payload);
    const related = isObject(payloadResult?.['_meta']) ? (payloadResult['_meta'] as JsonObject)[RELATED] : isObject(payload.response?.['error']) ? 'error' : undefined;
    ctx.expect(
      TASKS_RESULT,
      (payloadResult !== undefined && Array.isArray(payloadResult['content']) && isObject(related) && related['taskId'] === taskId) || errorCode(payload) !== undefined,
      'the underlying result with its related-task metadata',
      payloadResult === undefined ? isResult(payload).detail : !Array.isArray(payloadResult['content']) ? 'not the tool result' : `no ${RELATED} naming ${taskId} in _meta`,
      [callEvidence(payload, 'tasks/result')],
    );

    const listed = await ctx.rpc('tasks/list', {});
    const tasks = resultOf(listed)?.['tasks'];
    const forged = await ctx.rpc('tasks/list', { cursor: 'validator-forged-cursor' });
    ctx.expect(
      TASKS_LIST,
      Array.isArray(tasks) && tasks.some((t) => isObject(t) && t['taskId'] === taskId) && isError(forged, -32602).ok,
      'the task is listed; a forged cursor is rejected',
      !Array.isArray(tasks) ? `tasks/list: ${isResult(listed).detail}` : !tasks.some((t) => isObject(t) && t['taskId'] === taskId) ? `task ${taskId} is not listed` : `forged cursor: ${isError(forged, -32602).detail}`,
      [callEvidence(listed, 'tasks/list'), callEvidence(forged, 'tasks/list with a forged cursor')],
    );

    const cancelTerminal = await ctx.rpc('tasks/cancel', { taskId });
    const terminalJudgement = isError(cancelTerminal, -32602);
    ctx.expect(TASKS_CANCEL_TERMINAL, terminalJudgement.ok, terminalJudgement.detail, terminalJudgement.detail, [callEvidence(cancelTerminal, 'tasks/cancel of a terminal task')]);

    const progress = ctx.state.channels.flatMap((c) => c.received).filter((r) => isObject(r.message) && r.message['method'] === 'notifications/progress');
    const mine = progress.filter((r) => (((r.message as JsonObject)['params'] ?? {}) as JsonObject)['progressToken'] === progressToken);
    if (mine.length === 0) ctx.notRun(TASKS_PROGRESS, 'the task sent no progress');
    else ctx.pass(TASKS_PROGRESS, `${mine.length} progress notification(s) with the original token`);

    // A second task, cancelled while it works.
    const second = await ctx.rpc('tools/call', { name, arguments: args, task: { ttl: 60_000 } });
    const secondId = taskOf(second)?.['taskId'];
    if (typeof secondId !== 'string' || taskOf(second)?.['status'] !== 'working') {
      ctx.notRun(TASKS_CANCEL, 'a second task could not be started in the working status');
      return;
    }
    const cancelled = await ctx.rpc('tasks/cancel', { taskId: secondId });
    if (errorCode(cancelled) === -32602) {
      ctx.notRun(TASKS_CANCEL, 'the second task finished before it could be cancelled', [callEvidence(cancelled, 'tasks/cancel')]);
      return;
    }
    const after = await ctx.rpc('tasks/get', { taskId: secondId });
    const finalStatus = taskOf(after)?.['status'];
    ctx.expect(
      TASKS_CANCEL,
      taskOf(cancelled)?.['status'] === 'cancelled' && finalStatus === 'cancelled',
      'cancelled, and still cancelled afterwards',
      `tasks/cancel answered ${brief(taskOf(cancelled)?.['status'] ?? isResult(cancelled).detail)}, tasks/get then ${brief(finalStatus)}`,
      [callEvidence(cancelled, 'tasks/cancel'), callEvidence(after, 'tasks/get after the cancellation')],
    );
  },
};
