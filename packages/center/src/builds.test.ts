/**
 * The `builds` stage measures the build: the entry files exist, and no source is newer than the build output
 * (a build older than its sources is stale and fails, with the two files as evidence).
 */
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ServerEntry } from './fleet.js';
import { runStage, type StageContext } from './stages.js';

const root = mkdtempSync(join(tmpdir(), 'mcpengine-center-builds-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function context(dir: string): StageContext {
  const server: ServerEntry = {
    name: 'one',
    kind: 'fleet',
    dir,
    manifest: {
      name: 'one',
      title: 'One',
      description: 'A server to build.',
      origin: 'handwritten',
      stdio: 'node dist/main.js',
    },
  };
  return {
    server,
    signal: new AbortController().signal,
    earlier: new Map(),
    otherTools: async () => [],
    timeoutMs: 1000,
  };
}

function touch(path: string, seconds: number): void {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, '// file\n');
  utimesSync(path, seconds, seconds);
}

describe('builds', () => {
  it('passes a build newer than its sources, fails a stale or missing one with evidence', async () => {
    const dir = join(root, 'one');
    const now = Math.floor(Date.now() / 1000);
    touch(join(dir, 'src', 'main.ts'), now - 100);
    touch(join(dir, 'src', 'tools', 'a.ts'), now - 90);
    touch(join(dir, 'dist', 'main.js'), now - 200);
    touch(join(dir, 'dist', 'tools', 'a.js'), now - 50);
    const fresh = await runStage('builds', context(dir));
    expect(fresh.verdict).toBe('pass');
    expect(fresh.evidence).toMatchObject({
      newestOutput: { file: 'dist/tools/a.js' },
      newestSource: { file: 'src/tools/a.ts' },
    });

    touch(join(dir, 'src', 'tools', 'b.ts'), now - 10);
    const stale = await runStage('builds', context(dir));
    expect(stale.verdict).toBe('fail');
    expect(stale.summary).toMatch(
      /^stale build: src\/tools\/b\.ts is newer than the build output \(dist\/tools\/a\.js\)/,
    );

    // The incremental build's record counts as output: a rebuild that rewrote only it is fresh.
    touch(join(dir, 'tsconfig.tsbuildinfo'), now);
    expect((await runStage('builds', context(dir))).verdict).toBe('pass');

    rmSync(join(dir, 'dist', 'main.js'));
    const missing = await runStage('builds', context(dir));
    expect(missing).toMatchObject({ verdict: 'fail', summary: 'not built: dist/main.js missing' });
  });
});
