/**
 * Two processes on one SQLite file, as when a second `mcpengine center` (or the CLI) runs beside the first: both
 * open a fresh file at once (so both try to apply the migrations), then write stage results and runs as fast as
 * they can while reading history. Nothing may be lost and no write may fail with SQLITE_BUSY (WAL and the busy
 * timeout make writers queue). The processes run the built store (`dist/`), like the CLI does.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { MIGRATIONS, openStore } from './index.js';

const DIST = fileURLToPath(new URL('../dist/index.js', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'mcpengine-store-xproc-'));
const sqlitePath = join(dir, 'center.db');
const PER_WRITER = 250;

// A writer: opens the store, says "ready", waits for "go" on stdin, then writes its own run, PER_WRITER stage
// results (each followed by a read of the history, as the dashboard does) and finishes its run.
const WRITER = `
import { openStore } from ${JSON.stringify(DIST)};
const [name, path, count] = process.argv.slice(2);
const store = await openStore({ sqlitePath: path });
process.stdout.write('ready\\n');
await new Promise((resolve) => process.stdin.once('data', resolve));
const runId = 'run-' + name;
await store.createRun({ id: runId, startedAt: Date.now(), finishedAt: null, status: 'running', servers: [name], stages: ['s'] });
for (let i = 0; i < Number(count); i++) {
  await store.putStageResult({
    runId, server: name, stage: 'stage-' + i, verdict: i % 3 === 0 ? 'fail' : 'pass', summary: name + ' ' + i,
    score: i / Number(count), durationMs: i, finishedAt: Date.now(), evidence: { writer: name, i, pad: 'x'.repeat(200) },
  });
  await store.addMonitorCheck({ server: name, at: Date.now(), ok: true, revision: '2025-11-25', toolsHash: String(i), message: 'ok' });
  if (i % 10 === 0) await store.serverHistory(name, 50);
}
await store.finishRun(runId, 'done', Date.now());
await store.close();
process.stdout.write('done\\n');
`;

afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Writer {
  readonly ready: Promise<void>;
  readonly exited: Promise<{ code: number | null; stdout: string; stderr: string }>;
  go(): void;
}

function startWriter(script: string, name: string): Writer {
  const child = spawn(process.execPath, [script, name, sqlitePath, String(PER_WRITER)], {
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const ready = new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (stdout.includes('ready')) resolve();
    });
    child.once('exit', () => reject(new Error(`${name} exited before it was ready: ${stderr}`)));
  });
  const exited = new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.once('exit', (code) => resolve({ code, stdout, stderr })),
  );
  return { ready, exited, go: () => child.stdin.end('go\n') };
}

describe('SQLite store shared by two processes', () => {
  it('applies the migrations once and loses no write of either process, without SQLITE_BUSY', async () => {
    expect(existsSync(DIST), 'the store is built (npm run build)').toBe(true);
    const script = join(dir, 'writer.mjs');
    writeFileSync(script, WRITER);
    // Both open the fresh file at the same moment: both try to apply the migrations.
    const writers = [startWriter(script, 'alpha'), startWriter(script, 'beta')];
    await Promise.all(writers.map((w) => w.ready));
    for (const writer of writers) writer.go();
    const outcomes = await Promise.all(writers.map((w) => w.exited));
    for (const outcome of outcomes) {
      expect(outcome.stderr).not.toMatch(/SQLITE_BUSY|locked/i);
      expect(outcome, outcome.stderr).toMatchObject({ code: 0 });
      expect(outcome.stdout).toContain('done');
    }

    const store = await openStore({ sqlitePath });
    try {
      expect(await store.migrationsApplied()).toEqual(MIGRATIONS.map((m) => m.version));
      for (const name of ['alpha', 'beta']) {
        const run = await store.getRun(`run-${name}`);
        expect(run?.status).toBe('done');
        const results = await store.runResults(`run-${name}`);
        expect(results).toHaveLength(PER_WRITER);
        expect(new Set(results.map((r) => r.stage)).size).toBe(PER_WRITER);
        for (const r of results) {
          const i = Number(r.stage.slice('stage-'.length));
          expect(r).toMatchObject({
            server: name,
            summary: `${name} ${i}`,
            verdict: i % 3 === 0 ? 'fail' : 'pass',
          });
          expect(r.evidence).toEqual({ writer: name, i, pad: 'x'.repeat(200) });
        }
        expect(await store.monitorChecks(name, 10_000)).toHaveLength(PER_WRITER);
      }
    } finally {
      await store.close();
    }
  }, 120_000);
});
