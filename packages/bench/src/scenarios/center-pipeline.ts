/**
 * The command center's full pipeline over the fleet present in this repository (servers/*\/fleet.json): every
 * stage for every server, two servers at a time, into a throwaway SQLite store. Reported as the run's wall time,
 * with each stage's time summed over the servers in the notes.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Center, STAGES } from '@mcpengine/center';
import { openStore } from '@mcpengine/store';
import { errorRow, makeRow, type ScenarioResult } from '../results.js';
import type { Settings } from '../settings.js';
import { REPO_ROOT } from './footprint.js';

export async function runCenterPipeline(
  settings: Settings,
  log: (line: string) => void,
): Promise<ScenarioResult> {
  const title = 'Command center: full pipeline over the fleet (wall time)';
  const dir = mkdtempSync(join(tmpdir(), 'mcpengine-bench-center-'));
  const samples: number[] = [];
  const perStage = new Map<string, number[]>();
  let servers = 0;
  // The machine is shared: the load average says how much of it the pipeline had.
  const loads: string[] = [];
  try {
    for (let run = 0; run < settings.runs; run++) {
      const store = await openStore({ sqlitePath: join(dir, `center-${run}.db`) });
      try {
        const center = new Center(store, REPO_ROOT, { parallelism: 2, timeoutMs: 30_000 });
        const fleet = (await center.servers()).filter((server) => server.kind === 'fleet');
        servers = fleet.length;
        const loadBefore = loadavg()[0]!;
        const started = performance.now();
        const { done } = await center.runner.start({ servers: fleet, parallelism: 2, timeoutMs: 30_000 });
        const ended = await done;
        const seconds = (performance.now() - started) / 1000;
        const results = await store.runResults(ended.id);
        for (const stage of STAGES) {
          const total =
            results.filter((r) => r.stage === stage).reduce((sum, r) => sum + r.durationMs, 0) / 1000;
          perStage.set(stage, [...(perStage.get(stage) ?? []), total]);
        }
        const failed = results.filter((r) => r.verdict === 'fail').map((r) => `${r.server}/${r.stage}`);
        samples.push(seconds);
        const load = `${loadBefore.toFixed(1)} → ${loadavg()[0]!.toFixed(1)}`;
        loads.push(load);
        log(
          `  run ${run + 1}: ${seconds.toFixed(1)} s for ${servers} server(s), load average ${load}; per stage (s, summed over servers): ${STAGES.map((stage) => `${stage} ${perStage.get(stage)!.at(-1)!.toFixed(1)}`).join(', ')}${failed.length ? `; failed: ${failed.join(', ')}` : ''}`,
        );
      } finally {
        await store.close();
      }
    }
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    log(`  FAILED — ${message}`);
    return {
      id: 'center-pipeline',
      title,
      unit: 's',
      better: 'lower',
      rows: [errorRow('mcpengine', 'center pipeline', message)],
      ratios: {},
      notes: [],
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const median = (values: number[]): number =>
    [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
  return {
    id: 'center-pipeline',
    title,
    unit: 's',
    better: 'lower',
    rows: [makeRow('mcpengine', `center pipeline (${servers} server(s), 2 at a time)`, samples)],
    ratios: {},
    notes: [
      `Per stage, seconds summed over servers (median of runs): ${STAGES.map((stage) => `${stage} ${median(perStage.get(stage) ?? []).toFixed(1)}`).join(', ')}.`,
      'validates runs every revision the server negotiates over each transport it declares; installable verifies every client format, one handshake per distinct launch.',
      `1-minute load average at the start → end of each run: ${loads.join('; ')} (2 cores).`,
    ],
  };
}
