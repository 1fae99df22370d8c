/**
 * The pipeline over a small fleet: the everything server passes every stage it has; a broken one gets failing
 * verdicts, each with its evidence; results are written as stages complete, and an interrupted run resumes
 * without repeating finished stages. History flags a stage that passed and now fails.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore, type StageResult, type Store } from '@mcpengine/store';
import { Center } from './center.js';
import { regressionsOf, summarizeServer } from './history.js';
import { markInterrupted, type RunEvent } from './runner.js';
import { createFixtureFleet, type FixtureFleet } from './test/fixture-fleet.js';

// One revision per era keeps the test short; the validator's own tests cover every revision.
const SETTINGS = { parallelism: 2, timeoutMs: 15_000, revisions: ['2025-11-25', '2026-07-28'] as const };

describe('pipeline over a fixture fleet', () => {
  let fleet: FixtureFleet;
  let store: Store;
  let center: Center;
  let results: StageResult[];

  beforeAll(async () => {
    fleet = createFixtureFleet();
    store = await openStore({ sqlitePath: join(fleet.root, '.mcpengine', 'center.db') });
    center = new Center(store, fleet.root, SETTINGS);
    const written: string[] = [];
    center.runner.on('event', (event) => {
      if (event.type === 'stage-end') written.push(`${event.result.server}/${event.result.stage}`);
    });
    const { done } = await center.runner.start({ servers: await center.servers(), ...SETTINGS });
    const run = await done;
    expect(run.status).toBe('done');
    results = await store.runResults(run.id);
    expect(written.length).toBe(results.length);
  }, 180_000);

  afterAll(async () => {
    await store?.close();
    fleet?.cleanup();
  });

  const verdict = (server: string, stage: string): StageResult => {
    const result = results.find((r) => r.server === server && r.stage === stage);
    if (result === undefined) throw new Error(`no result for ${server}/${stage}`);
    return result;
  };

  it('passes the everything server through every stage, from the tools’ own reports', () => {
    for (const stage of [
      'described',
      'generated',
      'builds',
      'validates',
      'tests',
      'reviewed',
      'packaged',
      'installable',
    ])
      expect([stage, verdict('good', stage).verdict, verdict('good', stage).summary]).toEqual([
        stage,
        'pass',
        expect.any(String),
      ]);
    const validation = verdict('good', 'validates').evidence as {
      transports: { transport: string; revisions: unknown[] }[];
    };
    expect(validation.transports.map((t) => t.transport)).toEqual(['stdio']);
    expect(
      validation.transports[0]!.revisions.map((r) => (r as { revision: string }).revision).sort(),
    ).toEqual(['2025-11-25', '2026-07-28']);
    const tests = verdict('good', 'tests').evidence as { passed: number; failed: number };
    expect(tests).toMatchObject({ passed: 1, failed: 0 });
    const review = verdict('good', 'reviewed').evidence as {
      checks: { id: string; earned: number; possible: number; evidence: string[] }[];
      score: { earned: number; possible: number };
      tools: { name: string; tokens: number }[];
      listTokens: number;
    };
    // Every point of the score is the sum of the checks' points, and each check shows what it counted.
    expect(review.score.earned).toBeCloseTo(
      review.checks.reduce((sum, c) => sum + c.earned, 0),
      5,
    );
    expect(review.score.possible).toBe(review.checks.reduce((sum, c) => sum + c.possible, 0));
    expect(review.score.earned).toBeLessThan(review.score.possible);
    expect(review.checks.map((c) => c.id)).toEqual(
      expect.arrayContaining(['validator-must', 'tests', 'token-cost', 'annotations', 'shadowing']),
    );
    // The Apps check looks as a host advertising MCP Apps: the chart view is linked and listed.
    const apps = review.checks.find((c) => c.id === 'mcp-apps');
    expect(apps).toMatchObject({ earned: 10, possible: 10 });
    expect(apps?.evidence).toContain('show_chart → ui://everything/chart.html');
    // And the validator's Apps rules ran against it (validate --apps): every rule that applies passes.
    expect(review.checks.find((c) => c.id === 'mcp-apps-rules')).toMatchObject({ earned: 10, possible: 10 });
    expect(review.tools.find((t) => t.name === 'echo')?.tokens).toBeGreaterThan(10);
    expect(review.listTokens).toBeGreaterThan(review.tools.length * 10);
    const installs = verdict('good', 'installable').evidence as {
      clients: { client: string; ok: boolean }[];
    };
    expect(installs.clients.length).toBeGreaterThan(5);
    expect(installs.clients.every((c) => c.ok)).toBe(true);
  });

  it('fails the broken server with evidence of why', () => {
    expect(verdict('broken', 'described').verdict).toBe('pass');
    expect(verdict('broken', 'builds').verdict).toBe('pass');
    const validates = verdict('broken', 'validates');
    expect(validates.verdict).toBe('fail');
    expect(JSON.stringify(validates.evidence).length).toBeGreaterThan(50);
    const tests = verdict('broken', 'tests');
    expect(tests.verdict).toBe('fail');
    expect((tests.evidence as { failures: string[] }).failures.join('\n')).toMatch(/smoke/);
    const reviewed = verdict('broken', 'reviewed');
    expect(reviewed.verdict).toBe('fail');
    expect(JSON.stringify(reviewed.evidence)).toMatch(/BROKEN_API_KEY|closed|exit/i);
    const packaged = verdict('broken', 'packaged');
    expect(packaged.verdict).toBe('fail');
    const problems = (packaged.evidence as { problems: string[] }).problems.join('\n');
    expect(problems).toMatch(/version/);
    expect(problems).toMatch(/\/name/);
    expect(verdict('broken', 'installable').verdict).toBe('fail');
  });

  it('renders the review in Markdown and HTML with every check', async () => {
    const markdown = (await center.reviewText('good', 'md'))!;
    const html = (await center.reviewText('good', 'html'))!;
    expect(markdown).toMatch(/^# Review: good/);
    expect(markdown).toContain('Token cost of tools/list');
    expect(html).toContain('<h1>Review: good</h1>');
    expect(html).not.toContain('<script');
  });

  it('flags a stage that passed and now fails, and a tool whose definition changed', () => {
    const base = { server: 'good', summary: '', score: null, durationMs: 1 };
    const history: StageResult[] = [
      { ...base, runId: 'a', stage: 'tests', verdict: 'pass', finishedAt: 1, evidence: {} },
      {
        ...base,
        runId: 'a',
        stage: 'reviewed',
        verdict: 'pass',
        finishedAt: 2,
        evidence: {
          tools: [
            { name: 'echo', hash: 'h1' },
            { name: 'gone', hash: 'h2' },
          ],
        },
      },
      {
        ...base,
        runId: 'b',
        stage: 'tests',
        verdict: 'fail',
        finishedAt: 3,
        evidence: {},
        summary: '1 failed',
      },
      {
        ...base,
        runId: 'b',
        stage: 'reviewed',
        verdict: 'pass',
        finishedAt: 4,
        evidence: { tools: [{ name: 'echo', hash: 'h9' }] },
      },
    ];
    expect(regressionsOf(history).map((r) => [r.kind, r.stage ?? r.tool])).toEqual([
      ['stage', 'tests'],
      ['tool-changed', 'echo'],
      ['tool-removed', 'gone'],
    ]);
    expect(summarizeServer(history).trend.map((p) => p.passed)).toEqual([2, 1]);
  });
});

describe('interrupted runs', () => {
  it('keeps finished stages, and a resumed run runs only the rest', async () => {
    const fleet = createFixtureFleet(['broken']);
    const store = await openStore({ sqlitePath: join(fleet.root, 'center.db') });
    try {
      const center = new Center(store, fleet.root, SETTINGS);
      const servers = await center.servers();
      // The stages under way are known while they run (a run page opened mid-run shows them).
      const seenRunning: string[][] = [];
      center.runner.on('event', (event) => {
        if (event.type === 'stage-start') seenRunning.push(center.runner.runningStages(event.runId));
      });
      const { run, done } = await center.runner.start({ servers, ...SETTINGS });
      // Cancel as soon as the first stage is written: the run stops between stages.
      await new Promise<void>((resolve) => {
        const cancelOnFirst = (event: RunEvent): void => {
          if (event.type !== 'stage-end') return;
          center.runner.off('event', cancelOnFirst);
          center.runner.cancel(run.id);
          resolve();
        };
        center.runner.on('event', cancelOnFirst);
      });
      expect((await done).status).toBe('cancelled');
      expect(seenRunning[0]).toEqual(['broken/described']);
      expect(center.runner.runningStages(run.id)).toEqual([]);
      const before = await store.runResults(run.id);
      expect(before.length).toBeGreaterThanOrEqual(1);
      expect(before.length).toBeLessThan(8);

      const resumed = await center.runner.resume(run.id, { servers, ...SETTINGS });
      expect((await resumed.done).status).toBe('done');
      const after = await store.runResults(run.id);
      expect(after.map((r) => r.stage).sort()).toEqual(
        [
          'described',
          'generated',
          'builds',
          'validates',
          'tests',
          'reviewed',
          'packaged',
          'installable',
        ].sort(),
      );
      // The stages finished before the interruption were not run again.
      for (const earlier of before)
        expect(after.find((r) => r.stage === earlier.stage)?.finishedAt).toBe(earlier.finishedAt);
    } finally {
      await store.close();
      fleet.cleanup();
    }
  }, 120_000);

  it('starts the servers that took longest last time first (unknown ones before them)', async () => {
    const fleet = createFixtureFleet(['good', 'broken']);
    const store = await openStore({ sqlitePath: join(fleet.root, 'center.db') });
    try {
      const center = new Center(store, fleet.root, SETTINGS);
      const servers = await center.servers();
      expect(servers.map((server) => server.name)).toEqual(['broken', 'good']);
      const order = async (): Promise<string[]> => {
        const started: string[] = [];
        const listen = (event: RunEvent): void => {
          if (event.type === 'stage-start') started.push(event.server);
        };
        center.runner.on('event', listen);
        const { done } = await center.runner.start({ servers, stages: ['described'], parallelism: 1 });
        await done;
        center.runner.off('event', listen);
        return started;
      };
      // A fresh store: the given order.
      expect(await order()).toEqual(['broken', 'good']);
      // A past run where good took 9 s and broken 1 s (the latest run of each server counts).
      await store.createRun({
        id: 'past',
        startedAt: 1,
        finishedAt: 2,
        status: 'done',
        servers: ['broken', 'good'],
        stages: ['validates'],
      });
      for (const [server, seconds] of [
        ['good', 9],
        ['broken', 1],
      ] as const)
        await store.putStageResult({
          runId: 'past',
          server,
          stage: 'validates',
          verdict: 'pass',
          summary: '',
          score: null,
          evidence: null,
          durationMs: seconds * 1000,
          finishedAt: Date.now() + 60_000,
        });
      expect(await order()).toEqual(['good', 'broken']);
    } finally {
      await store.close();
      fleet.cleanup();
    }
  });

  it('marks runs left running by a dead process as interrupted', async () => {
    const fleet = createFixtureFleet([]);
    const store = await openStore({ sqlitePath: join(fleet.root, 'center.db') });
    try {
      await store.createRun({
        id: 'dead',
        startedAt: 1,
        finishedAt: null,
        status: 'running',
        servers: [],
        stages: [],
      });
      await store.createRun({
        id: 'alive',
        startedAt: 2,
        finishedAt: null,
        status: 'running',
        servers: [],
        stages: [],
      });
      expect(await markInterrupted(store, ['alive'])).toEqual(['dead']);
      expect((await store.getRun('dead'))?.status).toBe('interrupted');
      expect((await store.getRun('alive'))?.status).toBe('running');
    } finally {
      await store.close();
      rmSync(fleet.root, { recursive: true, force: true });
    }
  });
});
