/**
 * Runs one suite: a connection per revision the suite asks for, its tests in order on it. A server that dies or
 * hangs fails the test that was running (with its exit status and stderr) and is started afresh for the next
 * test; one that never answers the handshake fails a "connect" test, and the suite reports a connection error.
 */
import { appendFileSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { installCassetteHook } from '../cassette/hook.js';
import { ENV } from '../cassette/format.js';
import { CassetteSession } from '../cassette/session.js';
import { evaluate, type Verdict } from '../expect/evaluate.js';
import { McpJestSnapshotStore, YamlSnapshotStore, type SnapshotStore } from '../expect/snapshots.js';
import type {
  Evidence,
  JsonObject,
  RevisionChoice,
  ServerTarget,
  SuiteResult,
  TestCase,
  TestResult,
  TestSuite,
} from '../model.js';
import { ConnectionError, openConnection, type Connection } from '../session/connection.js';
import { declaredScript, ScriptedHandlers } from '../session/scripted-handlers.js';
import { execute } from './execute.js';
import type { Observation } from './observation.js';

export type RunEvent =
  | { readonly type: 'suite-start'; readonly suite: TestSuite; readonly total: number }
  | { readonly type: 'test'; readonly suite: TestSuite; readonly result: TestResult }
  | { readonly type: 'suite-end'; readonly result: SuiteResult };

export interface SuiteRunOptions {
  /** Rewrite snapshots that differ. */
  readonly update?: boolean;
  readonly signal?: AbortSignal;
  readonly onEvent?: (event: RunEvent) => void;
  /** Replaces the expectation check (generated tests classify outcomes instead). */
  readonly judge?: (test: TestCase, observation: Observation) => Verdict;
}

const STDERR_EVIDENCE = 4_000;

function tail(text: string): string | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return undefined;
  return trimmed.length > STDERR_EVIDENCE ? `…${trimmed.slice(-STDERR_EVIDENCE)}` : trimmed;
}

/** (test, revision) pairs grouped by revision, in order of first appearance. */
function plan(suite: TestSuite): Map<RevisionChoice, TestCase[]> {
  const groups = new Map<RevisionChoice, TestCase[]>();
  for (const test of suite.tests)
    for (const revision of test.revisions ?? suite.revisions) {
      if (!groups.has(revision)) groups.set(revision, []);
      groups.get(revision)!.push(test);
    }
  return groups;
}

function snapshotStore(suite: TestSuite, update: boolean): SnapshotStore {
  return suite.snapshotFormat === 'mcp-jest'
    ? new McpJestSnapshotStore(dirname(suite.snapshotFile), update, {
        testType: 'mcp-jest',
        serverCommand: suite.server.command,
      })
    : new YamlSnapshotStore(suite.snapshotFile, update);
}

export async function runSuite(suite: TestSuite, options: SuiteRunOptions = {}): Promise<SuiteResult> {
  const started = Date.now();
  const groups = plan(suite);
  const total = [...groups.values()].reduce((n, tests) => n + tests.length, 0);
  const multi = groups.size > 1;
  options.onEvent?.({ type: 'suite-start', suite, total });
  const results: TestResult[] = [];
  const notices = [...suite.notices];
  let connectionError: string | undefined;
  const snapshots = snapshotStore(suite, options.update === true);
  const cassette =
    suite.server.cassette === undefined ? undefined : new CassetteSession(suite.server.cassette);
  let uninstall: (() => void) | undefined;
  let target: ServerTarget = suite.server;
  if (cassette !== undefined) {
    notices.push(`cassette ${cassette.config.path}: ${cassette.mode}`);
    if (target.kind === 'memory') {
      const env = cassette.environment({});
      uninstall = installCassetteHook({
        mode: cassette.mode,
        ...(cassette.mode === 'replay'
          ? { cassette: JSON.parse(readFileSync(cassette.config.path, 'utf8')) as never }
          : {}),
        secrets: Object.fromEntries(
          cassette.config.secrets.flatMap((name) => (process.env[name] ? [[name, process.env[name]!]] : [])),
        ),
        journal: (entry) => appendFileSync(env[ENV.journal]!, `${JSON.stringify(entry)}\n`),
      });
    } else
      target = {
        ...target,
        env: { ...(target.env ?? {}), ...cassette.environment({ ...process.env, ...(target.env ?? {}) }) },
      };
  }
  const handlers = new ScriptedHandlers(suite.client, declaredScript(suite.client, suite.tests));
  const emit = (result: TestResult) => {
    results.push(result);
    options.onEvent?.({ type: 'test', suite, result });
  };

  try {
    for (const [revision, tests] of groups) {
      const suffix = multi ? ` [${revision}]` : '';
      let connection: Connection | undefined;
      let tools: Map<string, JsonObject> | undefined;
      const connect = async (): Promise<Connection> => {
        handlers.current = suite.client;
        const opened = await openConnection(target, { revision, handlers, timeoutMs: suite.timeoutMs });
        tools = undefined;
        return opened;
      };
      try {
        connection = await connect();
      } catch (error) {
        const message = (error as Error).message;
        connectionError ??= message;
        const evidence = error instanceof ConnectionError ? tail(error.evidence ?? '') : undefined;
        emit({
          suite: suite.file,
          name: `connect${suffix}`,
          revision,
          status: 'failed',
          failures: [message],
          warnings: [],
          durationMs: Date.now() - started,
          ...(evidence === undefined ? {} : { evidence: { stderr: evidence } }),
        });
        for (const test of tests)
          emit({
            suite: suite.file,
            name: `${test.name}${suffix}`,
            ...(test.location ? { location: test.location } : {}),
            revision,
            status: 'skipped',
            failures: [],
            warnings: ['not run: the server could not be reached'],
            durationMs: 0,
          });
        continue;
      }
      try {
        for (const test of tests) {
          const name = `${test.name}${suffix}`;
          const base = { suite: suite.file, name, ...(test.location ? { location: test.location } : {}) };
          if (options.signal?.aborted) {
            emit({
              ...base,
              revision,
              status: 'skipped',
              failures: [],
              warnings: ['interrupted'],
              durationMs: 0,
            });
            continue;
          }
          if (test.skip !== undefined) {
            emit({
              ...base,
              revision,
              status: 'skipped',
              failures: [],
              warnings: [test.skip],
              durationMs: 0,
            });
            continue;
          }
          const testStart = Date.now();
          let restartNote: string | undefined;
          if (!connection.alive && connection.restartable) {
            await connection.close();
            try {
              connection = await connect();
            } catch (error) {
              restartNote = `the server could not be started again: ${(error as Error).message}`;
            }
          }
          if (restartNote !== undefined) {
            emit({
              ...base,
              revision,
              status: 'failed',
              failures: [restartNote],
              warnings: [],
              durationMs: Date.now() - testStart,
            });
            continue;
          }
          const toolName =
            test.action.kind === 'tool'
              ? test.action.name
              : test.action.kind === 'subscribe' && test.action.then?.kind === 'tool'
                ? test.action.then.name
                : undefined;
          if (toolName !== undefined && tools === undefined) {
            tools = new Map();
            try {
              for (const tool of await connection.session.listAll('tools', { timeoutMs: suite.timeoutMs }))
                tools.set(String(tool['name']), tool);
            } catch {
              // The test's own call will show what is wrong.
            }
          }
          handlers.current = suite.client;
          const observation = await execute(
            connection,
            test,
            test.timeoutMs ?? suite.timeoutMs,
            toolName === undefined ? undefined : tools?.get(toolName),
            options.signal,
          );
          const verdict =
            options.judge?.(test, observation) ??
            evaluate(test, observation, { snapshots, snapshotName: name });
          const misses = cassette?.take().misses ?? [];
          const failures = [...verdict.failures, ...misses];
          const died = !connection.alive;
          if (died && observation.failure === undefined)
            failures.push(`the server died: ${connection.deathNote ?? 'connection closed'}`);
          else if (died && connection.deathNote !== undefined) failures.push(connection.deathNote);
          const status = failures.length > 0 ? 'failed' : verdict.warnings.length > 0 ? 'warned' : 'passed';
          const stderr = status === 'passed' ? undefined : tail(connection.stderr);
          const evidence: Evidence = {
            request: observation.request,
            ...(observation.result !== undefined ? { response: { result: observation.result } } : {}),
            ...(observation.error !== undefined ? { response: { error: observation.error } } : {}),
            ...(stderr === undefined ? {} : { stderr }),
            ...(observation.violations.length > 0 ? { violations: observation.violations } : {}),
            ...(died && connection.deathNote !== undefined ? { exit: connection.deathNote } : {}),
          };
          emit({
            ...base,
            revision: observation.revision,
            status,
            failures,
            warnings: verdict.warnings,
            ...(verdict.notes.length > 0 ? { notes: verdict.notes } : {}),
            durationMs: Date.now() - testStart,
            evidence,
          });
          // A server that did not answer in time may be wedged: the next test gets a fresh one.
          if (observation.failure?.kind === 'timeout' && connection.restartable) {
            await connection.close();
            try {
              connection = await connect();
            } catch {
              // The next test reports it.
            }
          }
        }
      } finally {
        await connection.close();
      }
    }
  } finally {
    uninstall?.();
    cassette?.finish();
    snapshots.save();
  }
  const result: SuiteResult = {
    file: suite.file,
    name: suite.name,
    tests: results,
    ...(connectionError === undefined ? {} : { connectionError }),
    notices,
    durationMs: Date.now() - started,
  };
  options.onEvent?.({ type: 'suite-end', result });
  return result;
}
