/**
 * The store against both backends: SQLite in a temporary file and the real PostgreSQL on 127.0.0.1:5432
 * (database `test`, a schema of its own per test, dropped afterwards).
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MIGRATIONS, openStore, type StageResult, type Store } from './index.js';

const POSTGRES_URL = process.env['TEST_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';

interface Backend {
  readonly name: string;
  open(): Promise<{ open: () => Promise<Store>; cleanup: () => Promise<void> }>;
}

const BACKENDS: Backend[] = [
  {
    name: 'sqlite',
    async open() {
      const dir = mkdtempSync(join(tmpdir(), 'mcpengine-store-'));
      const sqlitePath = join(dir, 'center.db');
      return {
        open: () => openStore({ sqlitePath }),
        cleanup: async () => rmSync(dir, { recursive: true, force: true }),
      };
    },
  },
  {
    name: 'postgres',
    async open() {
      const schema = `store_test_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
      return {
        open: () => openStore({ databaseUrl: POSTGRES_URL, sqlitePath: ':memory:', schema }),
        cleanup: async () => {
          const { default: pg } = await import('pg');
          const client = new pg.Client({ connectionString: POSTGRES_URL });
          await client.connect();
          await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
          await client.end();
        },
      };
    },
  },
];

function result(
  runId: string,
  stage: string,
  verdict: StageResult['verdict'],
  finishedAt: number,
): StageResult {
  return {
    runId,
    server: 'everything',
    stage,
    verdict,
    summary: `${stage} ${verdict}`,
    score: verdict === 'pass' ? 1 : 0.25,
    durationMs: 12.6,
    finishedAt,
    evidence: { stage, nested: { list: [1, 2, 3] } },
  };
}

describe.each(BACKENDS)('store on $name', (backend) => {
  const opened: Store[] = [];
  let cleanup: (() => Promise<void>) | undefined;

  afterEach(async () => {
    for (const store of opened.splice(0)) await store.close();
    await cleanup?.();
    cleanup = undefined;
  });

  async function fresh(): Promise<() => Promise<Store>> {
    const handle = await backend.open();
    cleanup = handle.cleanup;
    return async () => {
      const store = await handle.open();
      opened.push(store);
      return store;
    };
  }

  it('applies every migration once, also when opened again or by two at once', async () => {
    const open = await fresh();
    const [a, b] = await Promise.all([open(), open()]);
    const c = await open();
    const expected = MIGRATIONS.map((migration) => migration.version);
    expect(await a!.migrationsApplied()).toEqual(expected);
    expect(await b!.migrationsApplied()).toEqual(expected);
    expect(await c.migrationsApplied()).toEqual(expected);
    expect(c.backend).toBe(backend.name);
  });

  it('keeps servers, runs and stage results with their evidence', async () => {
    const store = await (await fresh())();
    await store.putServer({
      name: 'everything',
      kind: 'fleet',
      manifest: { stdio: 'node dist/main.js' },
      addedAt: 5,
    });
    await store.putServer({
      name: 'everything',
      kind: 'fleet',
      manifest: { stdio: 'node other.js' },
      addedAt: 9,
    });
    expect(await store.listServers()).toEqual([
      { name: 'everything', kind: 'fleet', manifest: { stdio: 'node other.js' }, addedAt: 5 },
    ]);

    await store.createRun({
      id: 'r1',
      startedAt: 100,
      finishedAt: null,
      status: 'running',
      servers: ['everything'],
      stages: ['a', 'b'],
    });
    await expect(
      store.createRun({
        id: 'r1',
        startedAt: 101,
        finishedAt: null,
        status: 'running',
        servers: [],
        stages: [],
      }),
    ).rejects.toThrow();
    await store.putStageResult(result('r1', 'a', 'pass', 110));
    await store.putStageResult(result('r1', 'b', 'fail', 120));
    await store.finishRun('r1', 'done', 130);

    expect(await store.getRun('r1')).toEqual({
      id: 'r1',
      startedAt: 100,
      finishedAt: 130,
      status: 'done',
      servers: ['everything'],
      stages: ['a', 'b'],
    });
    const results = await store.runResults('r1');
    expect(results.map((r) => [r.stage, r.verdict, r.durationMs])).toEqual([
      ['a', 'pass', 13],
      ['b', 'fail', 13],
    ]);
    expect(results[1]!.evidence).toEqual({ stage: 'b', nested: { list: [1, 2, 3] } });
    expect(results[1]!.score).toBe(0.25);
  });

  it('replaces a stage result written again (a resumed stage) and orders history by time', async () => {
    const store = await (await fresh())();
    await store.createRun({
      id: 'old',
      startedAt: 1,
      finishedAt: 2,
      status: 'done',
      servers: ['everything'],
      stages: ['a'],
    });
    await store.createRun({
      id: 'new',
      startedAt: 3,
      finishedAt: null,
      status: 'running',
      servers: ['everything'],
      stages: ['a'],
    });
    await store.putStageResult(result('old', 'a', 'pass', 10));
    await store.putStageResult(result('new', 'a', 'fail', 20));
    await store.putStageResult(result('new', 'a', 'pass', 30));
    const history = await store.serverHistory('everything', 10);
    expect(history.map((r) => [r.runId, r.verdict, r.finishedAt])).toEqual([
      ['old', 'pass', 10],
      ['new', 'pass', 30],
    ]);
    expect((await store.serverHistory('everything', 1)).map((r) => r.runId)).toEqual(['new']);
    expect((await store.listRuns(10)).map((run) => run.id)).toEqual(['new', 'old']);
    await store.reopenRun('old');
    expect((await store.getRun('old'))?.status).toBe('running');
  });

  it('records monitor checks and removes external servers', async () => {
    const store = await (await fresh())();
    await store.putServer({
      name: 'ext',
      kind: 'external',
      manifest: { url: 'http://127.0.0.1:9/mcp' },
      addedAt: 1,
    });
    await store.addMonitorCheck({
      server: 'ext',
      at: 2,
      ok: true,
      revision: '2025-11-25',
      toolsHash: 'abc',
      message: 'ok',
    });
    await store.addMonitorCheck({
      server: 'ext',
      at: 3,
      ok: false,
      revision: null,
      toolsHash: null,
      message: 'down',
    });
    expect(await store.monitorChecks('ext', 10)).toEqual([
      { server: 'ext', at: 2, ok: true, revision: '2025-11-25', toolsHash: 'abc', message: 'ok' },
      { server: 'ext', at: 3, ok: false, revision: null, toolsHash: null, message: 'down' },
    ]);
    expect(await store.removeServer('ext')).toBe(true);
    expect(await store.removeServer('ext')).toBe(false);
    expect(await store.listServers()).toEqual([]);
  });

  it('loses no result written by concurrent writers', async () => {
    const open = await fresh();
    const [a, b] = await Promise.all([open(), open()]);
    await a!.createRun({
      id: 'r',
      startedAt: 1,
      finishedAt: null,
      status: 'running',
      servers: ['everything'],
      stages: [],
    });
    await Promise.all(
      Array.from({ length: 20 }, (_, index) =>
        (index % 2 === 0 ? a! : b!).putStageResult(result('r', `stage-${index}`, 'pass', 100 + index)),
      ),
    );
    expect((await b!.runResults('r')).length).toBe(20);
  });
});
