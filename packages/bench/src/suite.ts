/**
 * Runs the scenarios, prints what was measured, checks the targets and writes the JSON results.
 */
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { cpus } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { planCpus } from './driver/cpus.js';
import { Driver } from './orchestrator.js';
import { formatBytes, formatRatio, scenarioTable, textTable } from './report/format.js';
import type { BenchResults, ScenarioResult } from './results.js';
import { THROUGHPUT } from './scenarios/catalog.js';
import { runColdStart } from './scenarios/cold-start.js';
import { REPO_ROOT, resolvePackageDir, runFootprint } from './scenarios/footprint.js';
import { runIdleSessions, runLeakCheck } from './scenarios/memory.js';
import { OPENAPI_SCENARIOS, runOpenApi } from './scenarios/openapi.js';
import { runThroughput } from './scenarios/throughput.js';
import { runTestRunner } from './scenarios/test-runner.js';
import { runCenterPipeline } from './scenarios/center-pipeline.js';
import { runScaleOut, SCALE_OUT_ID } from './scenarios/scale-out.js';
import type { Settings } from './settings.js';
import { checkTargets } from './targets.js';
import { print } from './report/print.js';

export const SCENARIO_IDS: readonly (readonly [string, string])[] = [
  ...THROUGHPUT.map((s) => [s.id, s.title] as const),
  ['idle-sessions', 'Idle legacy HTTP sessions: heap per session'],
  ['leak', 'Leak check: heap growth over many calls'],
  ['cold-start', 'Cold start: spawn to first tools/list over stdio'],
  ['footprint', 'Install footprint: dependencies, installed size, hello-world bundle'],
  ['test-runner', 'mcpengine test: 1,000 generated cases against the everything server over stdio'],
  ['center-pipeline', 'Command center: full pipeline over the fleet (wall time, per-stage time)'],
  [SCALE_OUT_ID, 'Scale-out on Redis: per-request cost vs in memory, one and two nodes, Redis ops per call'],
  ...OPENAPI_SCENARIOS,
];

function versionOf(name: string): string {
  const dir = resolvePackageDir(name, REPO_ROOT);
  if (dir === undefined) return 'not installed';
  return (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version: string }).version;
}

function describeValue(
  value: number | undefined,
  threshold: number,
  unitIsBytes: boolean,
  isRatio: boolean,
): string {
  if (value === undefined) return 'not measured';
  if (isRatio) return formatRatio(value);
  return unitIsBytes && threshold > 100 ? formatBytes(value) : String(Math.round(value * 100) / 100);
}

export function printScenario(scenario: ScenarioResult): void {
  const { headers, rows, right } = scenarioTable(scenario);
  print(`\n${scenario.title}  [${scenario.id}]`);
  print(
    `(${scenario.unit}, ${scenario.better} is better${scenario.rows.some((r) => r.samples.length > 1) ? '; median of the runs' : ''})`,
  );
  print(textTable(headers, rows, right));
  for (const note of scenario.notes) print(`  · ${note}`);
}

export async function runSuite(settings: Settings, argv: readonly string[]): Promise<number> {
  const selected = (id: string) =>
    settings.only.length === 0 ||
    settings.only.includes(id) ||
    (id.startsWith('footprint') && settings.only.includes('footprint'));
  const unknown = settings.only.filter((id) => !SCENARIO_IDS.some(([known]) => known === id));
  if (unknown.length > 0) {
    console.error(`Unknown scenario(s): ${unknown.join(', ')} (see --list)`);
    return 2;
  }
  // The command as the user typed it: through npm (the documented way), or the built entry point directly.
  const args = argv.length > 0 ? ` ${argv.join(' ')}` : '';
  const command =
    process.env.npm_lifecycle_event === 'bench'
      ? `npm run bench${args === '' ? '' : ` --${args}`}`
      : `node packages/bench/dist/main.js${args}`;
  const cpuList = cpus();
  settings.cpus = settings.pin ? planCpus() : undefined;
  const results: BenchResults = {
    meta: {
      command,
      node: process.version,
      platform: process.platform,
      arch: process.arch,
      cpus: cpuList.length,
      cpuModel: cpuList[0]?.model.trim() ?? 'unknown',
      date: new Date().toISOString(),
      quick: settings.quick,
      runs: settings.runs,
      warmupMs: settings.warmupMs,
      durationMs: settings.durationMs,
      versions: {
        mcpengine: versionOf('mcpengine'),
        '@modelcontextprotocol/sdk': versionOf('@modelcontextprotocol/sdk'),
        '@modelcontextprotocol/server': versionOf('@modelcontextprotocol/server'),
        '@modelcontextprotocol/node': versionOf('@modelcontextprotocol/node'),
        zod: versionOf('zod'),
      },
      httpClient: settings.httpClient,
      ...(settings.cpus ? { pinned: { ...settings.cpus } } : {}),
    },
    scenarios: [],
    targets: [],
  };
  const { meta } = results;
  print(`MCPEngine benchmark suite — ${command}`);
  print(
    `Node ${meta.node} on ${meta.platform}/${meta.arch}, ${meta.cpus} CPUs (${meta.cpuModel}), ${meta.date}`,
  );
  print(
    `${settings.runs} run(s) per implementation, ${settings.warmupMs} ms warm-up + ${settings.durationMs} ms measured; HTTP client: ${settings.httpClient === 'raw' ? 'raw sockets' : 'node:http Agent'}`,
  );
  print(
    `Versions: ${Object.entries(meta.versions)
      .map(([name, version]) => `${name} ${version}`)
      .join(', ')}`,
  );
  print(
    settings.cpus
      ? `Servers run in their own processes, pinned to CPU ${settings.cpus.server}; the load driver runs in another, pinned to CPU ${settings.cpus.driver}.`
      : `Servers run in their own processes; the load driver runs in another (not pinned${settings.pin ? ': needs Linux, two CPUs and taskset' : ''}).`,
  );
  if (settings.quick) {
    print(
      'Quick run: a smoke test of the suite. Windows are too short for the JIT to settle; do not quote these numbers.',
    );
  }

  const log = (line: string) => print(line);
  const driver = new Driver(settings.cpus?.driver);
  const add = (scenario: ScenarioResult) => {
    results.scenarios.push(scenario);
    printScenario(scenario);
  };
  try {
    for (const spec of THROUGHPUT) {
      if (!selected(spec.id)) continue;
      print(`\n▶ ${spec.title}`);
      add(await runThroughput(spec, settings, driver, log));
    }
    if (selected('idle-sessions')) {
      print('\n▶ Idle legacy sessions');
      add(await runIdleSessions(settings, driver, log));
    }
    if (selected('leak')) {
      print('\n▶ Leak check');
      add(await runLeakCheck(settings, driver, log));
    }
    if (selected('cold-start')) {
      print('\n▶ Cold start');
      add(await runColdStart(settings, log));
    }
    if (selected('test-runner')) {
      print('\n▶ mcpengine test');
      add(await runTestRunner(settings, log));
    }
    if (selected('center-pipeline')) {
      print('\n▶ Command center pipeline');
      add(await runCenterPipeline(settings, log));
    }
    if (selected(SCALE_OUT_ID)) {
      print('\n▶ Scale-out on Redis');
      add(await runScaleOut(settings, log));
    }
    if (selected('footprint')) {
      print('\n▶ Install footprint');
      for (const scenario of await runFootprint(log)) add(scenario);
    }
    for (const [id, title] of OPENAPI_SCENARIOS) {
      if (!selected(id)) continue;
      print(`\n▶ ${title}`);
      add(await runOpenApi(id, settings, log));
    }
  } finally {
    await driver.close();
  }

  results.targets = checkTargets(results.scenarios);
  if (results.targets.length > 0) {
    print('\nTargets');
    const rows = results.targets.map((t) => {
      const scenario = results.scenarios.find((s) => s.id === t.scenario);
      const isRatio = t.description.includes('×');
      const value = describeValue(t.value, t.threshold, scenario?.unit === 'bytes', isRatio);
      return [t.met === undefined ? 'n/a ' : t.met ? 'met ' : 'MISS', t.description, value];
    });
    print(textTable(['', 'target', 'measured'], rows, [false, false, true]));
  }
  const failed = results.scenarios.flatMap((s) =>
    s.rows.filter((r) => r.error).map((r) => `${s.id}/${r.impl}`),
  );
  if (failed.length > 0) print(`\nFailed measurements: ${failed.join(', ')}`);

  if (settings.json !== undefined) {
    const path = resolve(process.env.INIT_CWD ?? process.cwd(), settings.json);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, JSON.stringify(results, null, 2) + '\n');
    print(`\nResults written to ${path}`);
  }
  return 0;
}
