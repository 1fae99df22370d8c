/**
 * Memory scenarios, measured inside the server process after forced garbage collection (`--expose-gc`):
 * heap per idle legacy session, and heap growth over many calls (a leak check).
 */
import type { HeapSnapshot } from '../driver/stdio-load.js';
import type { LeakPoint } from '../driver/worker.js';
import { IMPLEMENTATIONS, serverProgram, type ImplId } from '../implementations.js';
import { HttpServerProcess, type Driver } from '../orchestrator.js';
import { engineRatios, errorRow, makeRow, type Row, type ScenarioResult } from '../results.js';
import type { Settings } from '../settings.js';
import { rotation } from '../stats.js';

const GC = ['--expose-gc'];
/** Sessions opened (and kept) before the baseline, so that one-time allocations are not counted per session. */
const WARM_SESSIONS = 20;

async function sessionsOnce(
  impl: ImplId,
  settings: Settings,
  driver: Driver,
): Promise<{ perSession: number; before: HeapSnapshot; after: HeapSnapshot }> {
  const server = await HttpServerProcess.start(serverProgram(impl, 'http'), {
    nodeOptions: GC,
    ipc: true,
    cpu: settings.cpus?.server,
  });
  try {
    await driver.run({
      kind: 'http-sessions',
      endpoint: server.endpoint,
      count: WARM_SESSIONS,
      concurrency: 4,
    });
    const before = await server.heap();
    await driver.run({
      kind: 'http-sessions',
      endpoint: server.endpoint,
      count: settings.sessions,
      concurrency: 4,
    });
    const after = await server.heap();
    return { perSession: (after.heapUsed - before.heapUsed) / settings.sessions, before, after };
  } catch (error) {
    const stderr = server.stderr;
    throw stderr ? new Error(`${(error as Error).message}\nserver stderr:\n${stderr}`) : error;
  } finally {
    await server.stop();
  }
}

export async function runIdleSessions(
  settings: Settings,
  driver: Driver,
  log: (line: string) => void,
): Promise<ScenarioResult> {
  const impls: ImplId[] = ['mcpengine', 'sdk1'];
  const runs = Math.min(settings.runs, 3);
  const samples = new Map<ImplId, number[]>();
  const details = new Map<ImplId, Record<string, number>[]>();
  const errors = new Map<ImplId, string>();
  for (let run = 0; run < runs; run++) {
    for (const impl of rotation(impls, run)) {
      if (errors.has(impl)) continue;
      try {
        const result = await sessionsOnce(impl, settings, driver);
        (samples.get(impl) ?? samples.set(impl, []).get(impl)!).push(result.perSession);
        (details.get(impl) ?? details.set(impl, []).get(impl)!).push({ rssBytes: result.after.rss });
        log(
          `  run ${run + 1}/${runs} ${IMPLEMENTATIONS[impl].label.padEnd(28)} ${(result.perSession / 1024).toFixed(2).padStart(9)} KB/session`,
        );
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        errors.set(impl, message.split('\n')[0]!);
        log(`  ${IMPLEMENTATIONS[impl].label}: FAILED — ${message}`);
      }
    }
  }
  const rows: Row[] = impls.map((impl) => {
    const error = errors.get(impl);
    const label = IMPLEMENTATIONS[impl].label;
    return error !== undefined
      ? errorRow(impl, label, error)
      : makeRow(impl, label, samples.get(impl) ?? [], details.get(impl));
  });
  return {
    id: 'idle-sessions',
    title: `Idle legacy Streamable HTTP sessions: heap per session with ${settings.sessions.toLocaleString('en-US')} open`,
    unit: 'bytes',
    better: 'lower',
    rows,
    ratios: engineRatios(rows, 'lower'),
    notes: [
      `Each session: initialize + notifications/initialized over HTTP, then left idle (connections closed). Heap measured in the server process after forced GC, before and after opening ${settings.sessions.toLocaleString('en-US')} sessions (${WARM_SESSIONS} opened before the baseline).`,
      'SDK 1.x uses its documented stateful pattern (one transport and one McpServer per session). SDK 2.x has no legacy sessions.',
    ],
  };
}

async function leakOverHttp(impl: ImplId, settings: Settings, driver: Driver): Promise<LeakPoint[]> {
  const server = await HttpServerProcess.start(serverProgram(impl, 'http'), {
    nodeOptions: GC,
    ipc: true,
    cpu: settings.cpus?.server,
  });
  try {
    const points: LeakPoint[] = [];
    let done = 0;
    for (const checkpoint of [settings.leakBaseline, settings.leakCalls]) {
      await driver.run({
        kind: 'http-load',
        endpoint: server.endpoint,
        serverPid: server.pid,
        era: 'legacy',
        session: true,
        reuseSession: done > 0,
        workload: 'echo-call',
        client: settings.httpClient,
        connections: 32,
        warmupMs: 0,
        durationMs: 0,
        count: checkpoint - done,
      });
      done = checkpoint;
      points.push({ calls: done, heap: await server.heap() });
    }
    return points;
  } catch (error) {
    const stderr = server.stderr;
    throw stderr ? new Error(`${(error as Error).message}\nserver stderr:\n${stderr}`) : error;
  } finally {
    await server.stop();
  }
}

export interface LeakVariant {
  key: string;
  impl: ImplId;
  transport: 'stdio' | 'http';
}

/**
 * The engine on both transports, and SDK 1.x on stdio for reference. The slower peer configurations (SDK 1.x
 * sessions over HTTP, SDK 2.x) would take minutes to reach 100,000 calls on this kind of machine.
 */
export const LEAK_VARIANTS: readonly LeakVariant[] = [
  { key: 'mcpengine', impl: 'mcpengine', transport: 'stdio' },
  { key: 'mcpengine/http', impl: 'mcpengine', transport: 'http' },
  { key: 'sdk1', impl: 'sdk1', transport: 'stdio' },
];

export async function runLeakCheck(
  settings: Settings,
  driver: Driver,
  log: (line: string) => void,
): Promise<ScenarioResult> {
  const rows: Row[] = [];
  for (const v of LEAK_VARIANTS) {
    const label = `${IMPLEMENTATIONS[v.impl].label} (${v.transport === 'stdio' ? 'stdio' : 'HTTP, one legacy session'})`;
    try {
      const points =
        v.transport === 'stdio'
          ? await driver.run<LeakPoint[]>({
              kind: 'stdio-leak',
              server: { args: serverProgram(v.impl, 'stdio'), nodeOptions: GC, cpu: settings.cpus?.server },
              checkpoints: [settings.leakBaseline, settings.leakCalls],
              inflight: 64,
            })
          : await leakOverHttp(v.impl, settings, driver);
      const first = points[0]!;
      const last = points[points.length - 1]!;
      const growth = last.heap.heapUsed - first.heap.heapUsed;
      rows.push(makeRow(v.key, label, [growth], [{ growthBytes: growth, rssBytes: last.heap.rss }]));
      log(
        `  ${label.padEnd(44)} heap ${(first.heap.heapUsed / 1048576).toFixed(2)} MB → ${(last.heap.heapUsed / 1048576).toFixed(2)} MB (${growth >= 0 ? '+' : ''}${(growth / 1024).toFixed(1)} KB)`,
      );
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      rows.push(errorRow(v.key, label, message.split('\n')[0]!));
      log(`  ${label}: FAILED — ${message}`);
    }
  }
  return {
    id: 'leak',
    title: `Leak check: heap growth from call ${settings.leakBaseline.toLocaleString('en-US')} to call ${settings.leakCalls.toLocaleString('en-US')}`,
    unit: 'bytes',
    better: 'lower',
    rows,
    ratios: {},
    notes: [
      `tools/call of echo, 64 in flight (stdio) or 32 connections (HTTP); heap of the server process after forced GC once ${settings.leakBaseline.toLocaleString('en-US')} calls have completed and again after ${settings.leakCalls.toLocaleString('en-US')}, in the same process.`,
    ],
  };
}
