/**
 * One description of the corpus: loaded, mapped, served on Streamable HTTP in this process, and validated with
 * `@mcpengine/validator` (every revision, both eras). Tool calls go to a closed loopback port, so validation
 * never reaches a real API: they fail fast and come back as `isError` results, which is what they must be.
 */
import { availableParallelism, loadavg } from 'node:os';
import { serveHttp } from 'mcpengine/http';
import { runValidation, StreamableHttpTarget } from '@mcpengine/validator';
import { DescriptionError } from '../errors.js';
import { loadDescription } from '../load/load.js';
import { buildApiModel } from '../map/build.js';
import { DEFAULT_THRESHOLD, type Exposure } from '../runtime/register.js';
import { createOpenApiServer } from '../serve/server.js';
import { measureTokensPerByte, toolsListCost } from '../tokens.js';
import { dummyCredentials } from './mock-check.js';

export type Verdict = 'served' | 'refused' | 'invalid' | 'crashed';

export interface ServeOutcome {
  readonly description: string;
  readonly verdict: Verdict;
  /** served: tools and exposure; refused: the one-line reason; invalid/crashed: what failed. */
  readonly detail: string;
  readonly operations?: number;
  readonly listTokens?: number;
  readonly ms: number;
  /** When the corpus script checked it a second time, alone: the first verdict and its detail. */
  readonly firstDetail?: string;
  /** A late ping excused by the machine's load (see `judgeTimingUnderLoad`): what failed and why it passes. */
  readonly timingNote?: string;
  /** Invalid only through missed time limits (see `timingOnly`): checked once more before it counts. */
  readonly timingSuspect?: boolean;
}

/** The validator's time limit for a ping answer (MUST answer promptly: 2 s). */
export const PING_LIMIT_MS = 2_000;

/** The machine's load per core (1-minute average), at least 1: how much slower than idle a check can be. */
export function currentLoad(): number {
  return Math.max(1, loadavg()[0]! / Math.max(1, availableParallelism()));
}

/**
 * Timing judged against the machine's load. The validator fails a ping answered after 2 s; on a machine loaded
 * N times over (per core), an in-process server that answered after more than 2 s but within N × 2 s was late
 * because of the machine, not of itself. When every failed requirement of a report is caused only by that check
 * and every late ping is within the load-scaled limit, this returns the note that replaces the failure;
 * otherwise undefined (the report stands). Nothing else is ever excused.
 */
export function judgeTimingUnderLoad(
  failures: readonly {
    readonly causes: readonly string[];
    readonly checks: Readonly<Record<string, { readonly status: string; readonly message: string }>>;
  }[],
  load: number,
): string | undefined {
  if (failures.length === 0) return undefined;
  const limit = Math.round(PING_LIMIT_MS * Math.max(1, load));
  let slowest = 0;
  for (const { causes, checks } of failures) {
    if (causes.length === 0 || causes.some((cause) => cause !== 'lifecycle.ping')) return undefined;
    const match = /^answered after (\d+) ms$/.exec(checks['lifecycle.ping']?.message ?? '');
    if (match === null) return undefined;
    const ms = Number(match[1]);
    if (ms > limit) return undefined;
    slowest = Math.max(slowest, ms);
  }
  return `ping answered after ${slowest} ms at load ${load.toFixed(1)} per core: within the 2 s limit scaled by the load (${limit} ms)`;
}

/** What a check says when an answer did not come in time (the validator's fixed limits and ours). */
const TIMING_MESSAGE =
  /^answered after \d+ ms$|HTTP 0\b|no response within \d+ ms|got no response|connection closed before a response|exceeded its time limit/;

/**
 * Every failure is a time limit missed (a late ping, a request unanswered within a fixed limit: the
 * validator's 800 ms GET, 2 s stream end, or the request limit): a verdict the machine's load can produce.
 * The corpus script checks such a description once more before it counts (`firstDetail` keeps the first).
 */
export function timingOnly(
  failures: readonly {
    readonly causes: readonly string[];
    readonly checks: Readonly<Record<string, { readonly status: string; readonly message: string }>>;
  }[],
): boolean {
  return (
    failures.length > 0 &&
    failures.every(
      ({ causes, checks }) =>
        causes.length > 0 && causes.every((cause) => TIMING_MESSAGE.test(checks[cause]?.message ?? '')),
    )
  );
}

/** A closed port on loopback: connections are refused at once. */
const NOWHERE = 'http://127.0.0.1:9';

export async function checkDescription(
  path: string,
  label: string,
  options: {
    validate: boolean;
    expose?: Exposure;
    tokens?: boolean;
    /** Load per core to judge timing against (default: measured when the report comes). */
    load?: number;
  },
): Promise<ServeOutcome> {
  const started = Date.now();
  const done = (verdict: Verdict, detail: string, extra: Partial<ServeOutcome> = {}): ServeOutcome => ({
    description: label,
    verdict,
    detail,
    ms: Date.now() - started,
    ...extra,
  });
  let served;
  try {
    const loaded = await loadDescription(path);
    const mapped = buildApiModel(loaded).api;
    // As serve-openapi does: the token ratio that chooses disclosure, measured when it can matter.
    const tokensPerByte =
      options.expose === undefined && mapped.tools.length <= DEFAULT_THRESHOLD
        ? await measureTokensPerByte(mapped.tools)
        : undefined;
    const api = tokensPerByte === undefined ? mapped : { ...mapped, tokensPerByte };
    served = createOpenApiServer(api, {
      baseUrl: NOWHERE,
      env: dummyCredentials(api),
      maxRetries: 0,
      timeoutMs: 5_000,
      log: () => undefined,
      ...(options.expose === undefined ? {} : { expose: options.expose }),
    });
    if (served.tools.length === 0) return done('refused', 'no operation could be served');
  } catch (error) {
    if (error instanceof DescriptionError) return done('refused', error.line(label).slice(label.length + 2));
    return done(
      'crashed',
      `mapping: ${(error as Error).stack?.split('\n').slice(0, 3).join(' ') ?? String(error)}`,
    );
  }
  const extra = {
    operations: served.tools.length,
    ...(options.tokens ? { listTokens: (await toolsListCost(served.server)).tokens } : {}),
  };
  const summary = `${served.tools.length} operations, ${served.registration.exposure}`;
  if (!options.validate) return done('served', summary, extra);
  const serving = await serveHttp(served.server, { port: 0 });
  // The request time limit is this script's setting (not a rule of the specification): 10 s on an idle
  // machine, scaled by the load per core, so that a loaded machine does not read as a server that never answers.
  const requestTimeoutMs = Math.min(120_000, Math.round(10_000 * (options.load ?? currentLoad())));
  try {
    const report = await runValidation({
      target: new StreamableHttpTarget({ url: serving.url, headers: {}, timeoutMs: requestTimeoutMs }),
      settings: {
        requestTimeoutMs,
        probeTimeoutMs: 60_000,
        callTools: new Set(),
        callAllTools: false,
      },
      totalTimeoutMs: 300_000,
    });
    const failures = report.revisions.flatMap((r) =>
      r.requirements
        .filter((v) => v.verdict === 'fail')
        .map((v) => ({ revision: r.revision, verdict: v, r })),
    );
    const failed = failures.map(
      ({ revision, verdict }) => `${revision} ${verdict.requirement.id}: ${verdict.message}`,
    );
    const timing = judgeTimingUnderLoad(
      failures.map(({ verdict, r }) => ({ causes: verdict.causes ?? [], checks: r.checks })),
      options.load ?? currentLoad(),
    );
    if (timing !== undefined)
      return done('served', `${summary}, ${report.revisions.length} revisions valid; ${timing}`, {
        ...extra,
        timingNote: `${failed.slice(0, 3).join(' | ')} → ${timing}`,
      });
    if (report.exitCode !== 0 || failed.length > 0)
      return done('invalid', failed.slice(0, 3).join(' | ') || report.notes.join(' | '), {
        ...extra,
        ...(timingOnly(failures.map(({ verdict, r }) => ({ causes: verdict.causes ?? [], checks: r.checks })))
          ? { timingSuspect: true }
          : {}),
      });
    return done('served', `${summary}, ${report.revisions.length} revisions valid`, extra);
  } catch (error) {
    return done('crashed', `validation: ${(error as Error).message}`, extra);
  } finally {
    await serving.close();
  }
}
