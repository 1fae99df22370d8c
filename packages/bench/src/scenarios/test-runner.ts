/**
 * `mcpengine test --generate` throughput: 1,000 generated cases (valid and invalid inputs derived from the tool
 * schemas) against the everything server over stdio, each judged as the CLI judges it — every message validated
 * against the official schema, every result against its tool's outputSchema. Reported as cases per second.
 */
import { performance } from 'node:perf_hooks';
import {
  generatedSuite,
  discover,
  judgeGenerated,
  runSuite,
  type TestCase,
  type ServerTarget,
} from '@mcpengine/test-runner';
import { resolve } from 'node:path';
import { makeRow, errorRow, type ScenarioResult } from '../results.js';
import type { Settings } from '../settings.js';
import { REPO_ROOT } from './footprint.js';

export const TEST_RUNNER_CASES = 1_000;
/** Tools whose generated cases wait on purpose (sleep, tasks) or fail by design; the throughput is of the runner. */
const SLOW_OR_FAILING =
  /^(long_running_operation|slow_compute|failing_job|protocol_error_job|test_reconnection|test_tool_with_logging|test_tool_with_progress|confirm_delete|multi_input|test_tool_with_task)\b/;

export async function runTestRunner(
  settings: Settings,
  log: (line: string) => void,
): Promise<ScenarioResult> {
  const server: ServerTarget = {
    kind: 'stdio',
    command: process.execPath,
    args: [resolve(REPO_ROOT, 'servers/everything/dist/main.js')],
  };
  const title = `mcpengine test: ${TEST_RUNNER_CASES} generated cases against the everything server over stdio`;
  const samples: number[] = [];
  try {
    const discovery = await discover(server, 'auto', 10_000);
    const { suite } = generatedSuite(discovery, {
      server,
      serverSpec: {},
      revisions: ['auto'],
      timeoutMs: 10_000,
      cwd: REPO_ROOT,
    });
    const pool = suite.tests.filter(
      (test) => test.action.kind === 'tool' && !SLOW_OR_FAILING.test(test.name),
    );
    const tests: TestCase[] = Array.from({ length: TEST_RUNNER_CASES }, (_, i) => ({
      ...pool[i % pool.length]!,
      name: `${pool[i % pool.length]!.name} #${i}`,
    }));
    log(`  ${pool.length} distinct generated cases, repeated to ${TEST_RUNNER_CASES}`);
    for (let run = 0; run < settings.runs; run++) {
      const started = performance.now();
      const result = await runSuite({ ...suite, tests }, { judge: judgeGenerated });
      const seconds = (performance.now() - started) / 1000;
      const failed = result.tests.filter((t) => t.status === 'failed');
      if (result.tests.length !== TEST_RUNNER_CASES || failed.length > 0)
        throw new Error(`${failed.length} case(s) failed: ${failed[0]?.name}: ${failed[0]?.failures[0]}`);
      samples.push(TEST_RUNNER_CASES / seconds);
      log(`  run ${run + 1}: ${(TEST_RUNNER_CASES / seconds).toFixed(0)} cases/s (${seconds.toFixed(2)} s)`);
    }
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    log(`  FAILED — ${message}`);
    return {
      id: 'test-runner',
      title,
      unit: 'cases/s',
      better: 'higher',
      rows: [errorRow('mcpengine', 'mcpengine test', message)],
      ratios: {},
      notes: [],
    };
  }
  return {
    id: 'test-runner',
    title,
    unit: 'cases/s',
    better: 'higher',
    rows: [makeRow('mcpengine', 'mcpengine test (generated, stdio)', samples)],
    ratios: {},
    notes: [
      'Wall time of one runSuite: one server start and handshake, then every case over that connection, each message through the schema oracle and each outcome through the judge (discovery excluded).',
      'Tools that sleep or fail on purpose are left out of the case pool.',
    ],
  };
}
