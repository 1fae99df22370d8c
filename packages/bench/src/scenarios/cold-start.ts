/**
 * Cold start: from spawning the server process to the first `tools/list` response over stdio (legacy
 * handshake: initialize, its response, notifications/initialized, tools/list).
 */
import { spawn } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { LineSplitter } from '../driver/responses.js';
import { awaitExit, captureStderr } from '../driver/proc.js';
import { IMPLEMENTATIONS, serverProgram, type ImplId } from '../implementations.js';
import { engineRatios, errorRow, makeRow, type Row, type ScenarioResult } from '../results.js';
import type { Settings } from '../settings.js';
import { rotation } from '../stats.js';
import { CLIENT_INFO, LEGACY_REVISION } from '../workloads.js';

const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: LEGACY_REVISION, capabilities: {}, clientInfo: CLIENT_INFO },
});
const AFTER_INITIALIZE =
  JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) +
  '\n' +
  JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} }) +
  '\n';

/** Milliseconds from spawn to the tools/list response. */
export async function coldStartOnce(args: string[], limitMs = 20_000): Promise<number> {
  const start = performance.now();
  const child = spawn(process.execPath, args, { stdio: ['pipe', 'pipe', 'pipe'] });
  const stderr = captureStderr(child);
  const splitter = new LineSplitter();
  try {
    return await new Promise<number>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`no tools/list response within ${limitMs / 1000} s: ${stderr()}`)),
        limitMs,
      );
      child.once('exit', (code) => reject(new Error(`server exited (code ${code}): ${stderr()}`)));
      child.stdout.setEncoding('utf8');
      child.stdout.on('data', (chunk: string) =>
        splitter.push(chunk, (line) => {
          const message = JSON.parse(line) as { id?: unknown; result?: { tools?: unknown[] } };
          if (message.id === 1) child.stdin.write(AFTER_INITIALIZE);
          else if (message.id === 2) {
            clearTimeout(timer);
            if (!Array.isArray(message.result?.tools))
              reject(new Error(`unexpected tools/list response: ${line.slice(0, 200)}`));
            else resolve(performance.now() - start);
          }
        }),
      );
      child.stdin.write(INITIALIZE + '\n');
    });
  } finally {
    child.stdin.end();
    await awaitExit(child, 1000);
  }
}

export async function runColdStart(settings: Settings, log: (line: string) => void): Promise<ScenarioResult> {
  const impls: ImplId[] = ['mcpengine', 'sdk1', 'sdk2', 'raw'];
  const samples = new Map<ImplId, number[]>();
  const errors = new Map<ImplId, string>();
  for (let run = 0; run < settings.coldStartRuns; run++) {
    for (const impl of rotation(impls, run)) {
      if (errors.has(impl)) continue;
      try {
        const ms = await coldStartOnce(serverProgram(impl, 'stdio'));
        (samples.get(impl) ?? samples.set(impl, []).get(impl)!).push(ms);
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
    return error !== undefined ? errorRow(impl, label, error) : makeRow(impl, label, samples.get(impl) ?? []);
  });
  for (const row of rows)
    if (!row.error)
      log(
        `  ${row.label.padEnd(28)} ${row.median.toFixed(1).padStart(7)} ms (median of ${row.samples.length})`,
      );
  return {
    id: 'cold-start',
    title: 'Cold start: process spawn to first tools/list response over stdio',
    unit: 'ms',
    better: 'lower',
    rows,
    ratios: engineRatios(rows, 'lower'),
    notes: [
      `${settings.coldStartRuns} starts per implementation in rotating order; the raw ceiling is Node.js start-up plus a trivial script.`,
    ],
  };
}
