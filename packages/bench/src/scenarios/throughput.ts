/**
 * Throughput scenarios: every implementation under the same load, several runs in rotating order, medians.
 */
import type { HttpClientKind } from '../driver/http-load.js';
import type { LoadResult } from '../driver/load-stats.js';
import { IMPLEMENTATIONS, serverProgram, type ImplId } from '../implementations.js';
import { HttpServerProcess, type Driver } from '../orchestrator.js';
import { engineRatios, errorRow, makeRow, type Row, type ScenarioResult } from '../results.js';
import type { Settings } from '../settings.js';
import { rotation } from '../stats.js';
import type { Era, Workload } from '../workloads.js';

export interface Variant {
  /** The row id: an implementation id, or `impl/variant`. */
  key: string;
  impl: ImplId;
  label: string;
  era: Era;
  /** HTTP legacy: open one session and send every request in it. */
  session?: boolean;
  client?: HttpClientKind;
}

export interface ThroughputSpec {
  id: string;
  title: string;
  transport: 'stdio' | 'http';
  workload: Workload;
  catalog?: boolean;
  /** stdio: requests in flight. */
  inflight?: number;
  /** HTTP: keep-alive connections. */
  connections?: number;
  variants: Variant[];
  notes: string[];
}

export function variant(impl: ImplId, era: Era, extra: Partial<Variant> = {}): Variant {
  return { key: impl, impl, label: IMPLEMENTATIONS[impl].label, era, ...extra };
}

function detailsOf(result: LoadResult): Record<string, number> {
  const details: Record<string, number> = {
    p50Ms: result.p50Ms,
    p99Ms: result.p99Ms,
    driverCpuPct: (result.driverCpuMs / result.elapsedMs) * 100,
  };
  if (result.serverCpuMs !== undefined && result.completed > 0) {
    details.serverCpuPct = (result.serverCpuMs / result.elapsedMs) * 100;
    details.serverCpuUsPerCall = (result.serverCpuMs * 1000) / result.completed;
  }
  return details;
}

async function runOnce(
  spec: ThroughputSpec,
  v: Variant,
  settings: Settings,
  driver: Driver,
): Promise<LoadResult> {
  const program = serverProgram(v.impl, spec.transport, spec.catalog);
  if (spec.transport === 'stdio') {
    return driver.run<LoadResult>({
      kind: 'stdio-load',
      server: { args: program, cpu: settings.cpus?.server },
      era: v.era,
      workload: spec.workload,
      inflight: spec.inflight ?? 1,
      warmupMs: settings.warmupMs,
      durationMs: settings.durationMs,
    });
  }
  const server = await HttpServerProcess.start(program, { cpu: settings.cpus?.server });
  try {
    return await driver.run<LoadResult>({
      kind: 'http-load',
      endpoint: server.endpoint,
      serverPid: server.pid,
      era: v.era,
      session: v.session ?? false,
      workload: spec.workload,
      client: v.client ?? settings.httpClient,
      connections: spec.connections ?? 32,
      warmupMs: settings.warmupMs,
      durationMs: settings.durationMs,
    });
  } catch (error) {
    const stderr = server.stderr;
    throw stderr ? new Error(`${(error as Error).message}\nserver stderr:\n${stderr}`) : error;
  } finally {
    await server.stop();
  }
}

export async function runThroughput(
  spec: ThroughputSpec,
  settings: Settings,
  driver: Driver,
  log: (line: string) => void,
): Promise<ScenarioResult> {
  const samples = new Map<string, number[]>();
  const details = new Map<string, Record<string, number>[]>();
  const errors = new Map<string, string>();
  for (let run = 0; run < settings.runs; run++) {
    for (const v of rotation(spec.variants, run)) {
      if (errors.has(v.key)) continue;
      try {
        const result = await runOnce(spec, v, settings, driver);
        (samples.get(v.key) ?? samples.set(v.key, []).get(v.key)!).push(result.throughput);
        (details.get(v.key) ?? details.set(v.key, []).get(v.key)!).push(detailsOf(result));
        log(
          `  run ${run + 1}/${settings.runs} ${v.label.padEnd(28)} ${Math.round(result.throughput).toLocaleString('en-US').padStart(9)} ${spec.transport === 'stdio' ? 'calls' : 'req'}/s`,
        );
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        errors.set(v.key, message.split('\n')[0]!);
        log(`  ${v.label}: FAILED — ${message}`);
      }
    }
  }
  const rows: Row[] = spec.variants.map((v) => {
    const error = errors.get(v.key);
    return error !== undefined
      ? errorRow(v.key, v.label, error)
      : makeRow(v.key, v.label, samples.get(v.key) ?? [], details.get(v.key));
  });
  return {
    id: spec.id,
    title: spec.title,
    unit: spec.transport === 'stdio' ? 'calls/s' : 'req/s',
    better: 'higher',
    rows,
    ratios: engineRatios(rows, 'higher'),
    notes: spec.notes,
  };
}
