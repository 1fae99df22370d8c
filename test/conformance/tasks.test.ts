/**
 * The tasks scenarios (`tasks-*`, the `io.modelcontextprotocol/tasks` extension, SEP-2663) of the official
 * conformance suite against the everything server over Streamable HTTP (`servers/everything/dist/main.js
 * --http`; build first). Extension scenarios always run at 2026-07-28 (Era B).
 *
 * Every check of every `checks.json` is read: a FAILURE or a WARNING fails the test (plain runs exit 0 on
 * warnings). `tasks-status-notifications` is a placeholder the suite always marks SKIPPED, and must stay so.
 *
 * Where the suite is shallow (conformance notes §6: the cancel check never looks at the final status, texts
 * are not compared, the 2025-11-25 dialect is not exercised at all), our own client follows over the same
 * HTTP server, in both eras, with every message schema-checked.
 */
import { tapTransport, WireTap } from '@mcpengine/oracle';
import { Client, RequestAbortedError, type ClientOptions, type ClientSession } from 'mcpengine/client';
import { createHttpTransport } from 'mcpengine/http';
import type { ElicitResult, Revision } from 'mcpengine/protocol';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { EVERYTHING_MAIN } from '../interop/everything-expected.js';
import { startEverythingHttp, type EverythingHttp } from '../interop/everything-http.js';
import {
  describeCheck,
  isProblem,
  readChecks,
  requireFiles,
  resultDirs,
  runServerSuite,
  scratchFolder,
  type Check,
} from './runner.js';

const SCENARIOS = [
  'tasks-lifecycle',
  'tasks-capability-negotiation',
  'tasks-wire-fields',
  'tasks-request-state-removal',
  'tasks-mrtr-input',
  'tasks-request-headers',
  'tasks-dispatch-and-envelope',
  'tasks-status-notifications',
  'tasks-required-task-error',
  'tasks-mrtr-composition',
] as const;
/** Scenarios run at once. */
const PARALLEL = 3;
/** The suite's placeholder: one SKIPPED check, nothing tested (conformance notes §3.10, #49). */
const ALWAYS_SKIPPED = 'tasks-status-notifications';

const output = scratchFolder('mcpengine-tasks-conformance-');
let fixture: EverythingHttp | undefined;
let url = '';
const runs = new Map<string, Promise<{ checks: Check[]; log: string }>>();

/** Runs one scenario in its own process (Node 22) and reads its checks. */
async function runScenario(scenario: string): Promise<{ checks: Check[]; log: string }> {
  const log = await runServerSuite(url, ['--scenario', scenario, '--timeout', '90000', '-o', output()]);
  const dirs = await resultDirs(output(), `server-${scenario}`);
  if (dirs.length !== 1)
    throw new Error(`expected one result directory for ${scenario}, found ${dirs.length}:\n${log}`);
  return { checks: await readChecks(dirs[0]!), log };
}

beforeAll(async () => {
  requireFiles({ 'the everything server (run `npm run build`)': EVERYTHING_MAIN });
  fixture = await startEverythingHttp();
  url = fixture.mcpUrl.href;
  // The scenarios are independent: run a few side by side against the one server (not all: ten Node processes
  // starting at once slow each other down towards the suite's per-scenario timeout).
  let previous: Promise<unknown>[] = [];
  SCENARIOS.forEach((scenario, index) => {
    const lane = previous[index % PARALLEL] ?? Promise.resolve();
    const run = lane.then(
      () => runScenario(scenario),
      () => runScenario(scenario),
    );
    run.catch(() => {});
    previous[index % PARALLEL] = run;
    runs.set(scenario, run);
  });
  previous = [];
}, 60_000);

afterAll(async () => {
  await Promise.allSettled(runs.values());
  await fixture?.stop();
});

describe('conformance suite: tasks scenarios over Streamable HTTP (2026-07-28)', () => {
  it.each(SCENARIOS)(
    '%s',
    async (scenario) => {
      const { checks, log } = await runs.get(scenario)!;
      expect(checks.length, log).toBeGreaterThan(0);
      if (scenario === ALWAYS_SKIPPED) {
        expect(checks.map((c) => c.status)).toEqual(['SKIPPED']);
        return;
      }
      const bad = checks.filter(isProblem);
      expect(bad, `${scenario}:\n${bad.map(describeCheck).join('\n')}`).toEqual([]);
      // Every scenario with traffic ends with the wire-schema check; a scenario that silently sent nothing fails here.
      expect(
        checks.some((c) => c.id === 'wire-schema-valid' && c.status === 'SUCCESS'),
        log,
      ).toBe(true);
      expect(checks.filter((c) => c.status === 'SUCCESS').length).toBeGreaterThan(1);
    },
    120_000,
  );
});

// ── our own client over the same server: what the suite does not check ─────────────────────────────────

const taps: WireTap[] = [];
afterEach(() => {
  for (const tap of taps.splice(0)) tap.assertClean();
});

const handlers: ClientOptions['handlers'] = {
  elicitation: (params): ElicitResult =>
    params.message.startsWith('Delete')
      ? { action: 'accept', content: { confirm: true } }
      : { action: 'accept', content: { name: 'Alice' } },
};

async function connectClient(revision: Revision): Promise<ClientSession> {
  const tap = new WireTap();
  taps.push(tap);
  return new Client({ name: 'tasks-probe', version: '1.0.0', handlers }).connect(
    tapTransport(createHttpTransport(url), tap, 'client'),
    { revision },
  );
}

describe('our client against the tasks fixtures over Streamable HTTP', () => {
  it('2026-07-28: exact fixture results, and cancellation really ends cancelled', async () => {
    const client = await connectClient('2026-07-28');
    expect(await client.callTool({ name: 'greet', arguments: { name: 'World' } })).toMatchObject({
      content: [{ type: 'text', text: 'Hello, World!' }],
    });
    const confirm = await client.callTool({ name: 'confirm_delete', arguments: { filename: 'a.txt' } });
    expect(confirm).toMatchObject({ content: [{ text: 'Deleted a.txt' }] });
    expect(confirm.isError).toBeUndefined();
    expect(await client.callTool({ name: 'multi_input' })).toMatchObject({
      content: [{ text: 'Answers: Alice, Alice' }],
    });
    expect(await client.callTool({ name: 'test_tool_with_task' })).toMatchObject({
      content: [{ text: 'Task finished for Alice' }],
    });
    const slow = await client.tasks.callTool({
      name: 'slow_compute',
      arguments: { seconds: 60, label: 'probe' },
    });
    const waiting = slow.result();
    await slow.cancel();
    await expect(waiting).rejects.toBeInstanceOf(RequestAbortedError);
    expect((await slow.get()).status).toBe('cancelled');
    await expect(client.callTool({ name: 'protocol_error_job' })).rejects.toMatchObject({ code: -32603 });
    await client.close();
  }, 30_000);

  it('2025-11-25: task-augmented calls, input through tasks/result, listing', async () => {
    const client = await connectClient('2025-11-25');
    expect(client.serverCapabilities.tasks).toMatchObject({ requests: { tools: { call: {} } } });
    const slow = await client.tasks.callTool({
      name: 'slow_compute',
      arguments: { seconds: 1, label: 'old' },
    });
    expect(slow.taskId).toBeTypeOf('string');
    expect(await slow.result()).toMatchObject({ content: [{ text: 'Computed old in 1s' }] });
    // The elicitation travels on the tasks/result stream of the session.
    const confirm = await client.tasks.callTool({ name: 'confirm_delete', arguments: { filename: 'b.txt' } });
    expect(await confirm.result()).toMatchObject({ content: [{ text: 'Deleted b.txt' }] });
    const failing = await client.tasks.callTool({ name: 'failing_job' });
    expect(await failing.result()).toMatchObject({ isError: true });
    expect((await failing.get()).status).toBe('failed');
    const listed: string[] = [];
    for await (const task of client.tasks.list()) listed.push(task.taskId);
    expect(listed).toEqual([slow.taskId, confirm.taskId, failing.taskId]);
    await client.close();
  }, 30_000);
});
