/**
 * One validation: discover the revisions, run every applicable probe for each, join the outcomes with the
 * catalog. Time is bounded at three levels (request, probe, whole run) and every process is gone at the end.
 */
import { factsOf, LATEST_LEGACY } from './revisions.js';
import { isRevision, LEGACY_REVISIONS, type Revision } from './catalog/model.js';
import {
  eraOf,
  ProbeAbort,
  ProbeContext,
  RevisionState,
  SharedAnnotations,
  type RunSettings,
} from './checks/context.js';
import { PROBES } from './checks/index.js';
import { CONNECTIONS, judgeConnections, legacyHandshake, modernHandshake } from './checks/lifecycle.js';
import { appliesTo, type Probe } from './checks/probe.js';
import { discover, negotiatedRevisions, type Discovery } from './discovery.js';
import type { Outcome } from './outcomes.js';
import { revisionReport, type RevisionReport, type ValidationReport } from './report/model.js';
import { hasCapability, profileOf } from './session.js';
import { StdioTarget, type Target } from './target.js';
import type { Lane, Timings } from './timings.js';
import { isObject, resultOf } from '@mcpengine/wire';

export interface RunOptions {
  readonly target: Target;
  /** Validate only these revisions (`--revision`); default: every revision the server negotiates. */
  readonly revisions?: readonly Revision[];
  readonly settings: RunSettings;
  /** Limit for the whole run. */
  readonly totalTimeoutMs: number;
  /** How many revisions run at once. */
  readonly concurrency?: number;
  /** Where the time goes (`--timings`). */
  readonly timings?: Timings;
}

export const VALIDATOR = { name: 'mcpengine validate', version: '0.1.0' } as const;

/** The probes that only read what the others produced, in PROBES order from the first of them on. */
const PASSIVE = new Set([
  'logging opt-in',
  'log and cancellation notifications',
  'response ids',
  'stdio output',
  'negotiated capabilities',
]);

/** The probes that still make sense when the server could not even be initialized. */
const WITHOUT_SESSION = new Set([
  'legacy handshake',
  'server/discover and per-request versions',
  'stdio output',
]);

async function withTimeout<T>(
  promise: Promise<T>,
  ms: number,
  onTimeout: () => void,
): Promise<T | 'timeout'> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => {
      onTimeout();
      resolve('timeout');
    }, ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

async function runProbe(probe: Probe, state: RevisionState, deadline: number): Promise<Outcome[]> {
  const ctx = new ProbeContext(state);
  const remaining = deadline - Date.now();
  if (remaining <= 0) {
    return probe.checks.map((check) => ({
      check,
      status: 'not-run',
      message: 'the run’s time limit was reached',
      evidence: [],
    }));
  }
  let reason: string | undefined;
  const outcome = await withTimeout(
    probe.run(ctx).catch((error: unknown) => {
      reason =
        error instanceof ProbeAbort
          ? error.message
          : `the validator met an error in probe “${probe.name}”: ${error instanceof Error ? error.message : String(error)}`;
    }),
    Math.min(state.settings.probeTimeoutMs, remaining),
    () => {
      reason = `probe “${probe.name}” exceeded its time limit (${Math.round(Math.min(state.settings.probeTimeoutMs, remaining) / 1000)} s)`;
    },
  );
  const outcomes = ctx.seal();
  // A probe that ran out of time may still hold connections: closing them ends its pending requests.
  ctx.closeOpened();
  if (outcome === 'timeout') await state.close();
  const done = new Set(outcomes.map((o) => o.check));
  for (const check of probe.checks) {
    if (!done.has(check))
      outcomes.push({
        check,
        status: 'not-run',
        message: reason ?? `probe “${probe.name}” did not reach this check`,
        evidence: [],
      });
  }
  return outcomes;
}

async function validateRevision(
  revision: Revision,
  options: RunOptions,
  discovery: Discovery,
  deadline: number,
): Promise<{ report: RevisionReport; serverInfo: unknown }> {
  const state = new RevisionState(revision, options.target, options.settings, discovery);
  const era = eraOf(revision);
  state.profile = profileOf(
    era === 'modern' ? discovery.discoverResult : resultOf(discovery.initialize.get(revision)),
  );
  const reachable = era === 'modern' ? discovery.modern : discovery.legacy.includes(revision);
  const outcomes: Outcome[] = [];
  const timings = options.timings;
  const revisionStart = timings?.now() ?? 0;
  try {
    const applicable = PROBES.filter((probe) => appliesTo(probe, revision, era, options.target.kind));
    // Legacy revisions on stdio: the robustness lane continues on the legacy handshake's connection.
    if (
      reachable &&
      options.target.kind === 'stdio' &&
      applicable.includes(legacyHandshake) &&
      applicable.some((probe) => probe.lane === 'robustness')
    )
      state.expectHandoff();
    const handoff = state.handoff;
    // On stdio every fresh connection is a server start: start those the probes will need now, side by side.
    if (reachable && options.target.kind === 'stdio')
      state.warm(applicable.reduce((sum, probe) => sum + (probe.fresh?.(state) ?? 0), 0));
    const runLane = async (probes: readonly Probe[], lane: Lane): Promise<void> => {
      for (const probe of probes) {
        if (!reachable && !WITHOUT_SESSION.has(probe.name)) {
          for (const check of probe.checks) {
            outcomes.push({
              check,
              status: 'not-run',
              message:
                era === 'modern' && discovery.modernWithoutDiscover
                  ? `the server answers ${revision} requests but does not implement server/discover`
                  : `the server does not negotiate ${revision}`,
              evidence: [],
            });
          }
          continue;
        }
        const before = timings?.now() ?? 0;
        outcomes.push(...(await runProbe(probe, state, deadline)));
        // Whatever happened to it, the handshake has nothing more to hand over.
        if (probe === legacyHandshake) handoff?.give(undefined);
        timings?.probe(revision, lane, probe.name, before);
      }
    };
    // The passive judges come last in PROBES: they run once every lane is done.
    const passiveFrom = applicable.findIndex((probe) => PASSIVE.has(probe.name));
    const active = passiveFrom === -1 ? applicable : applicable.slice(0, passiveFrom);
    const passive = passiveFrom === -1 ? [] : applicable.slice(passiveFrom);
    // The modern handshake runs alone first: it notifies on the shared stdio process right after
    // `server/discover`, and what a server makes of that must not depend on whether another lane's request
    // reached the process before (interpretations.md, "A notification right after server/discover on stdio").
    const first = active.filter((probe) => probe === modernHandshake);
    await runLane(first, 'first');
    const rest = active.filter((probe) => probe !== modernHandshake);
    await Promise.all([
      runLane(
        rest.filter((probe) => probe.lane === 'isolated'),
        'isolated',
      ),
      runLane(
        rest.filter((probe) => probe.lane === 'robustness'),
        'robustness',
      ),
      runLane(
        rest.filter((probe) => probe.lane === undefined),
        'shared',
      ),
    ]);
    await runLane(passive, 'passive');
    const connections = judgeConnections(state);
    if (connections !== undefined) state.outcomes.push(connections);
    state.schema.finish((check, reason) =>
      state.outcomes.push({ check, status: 'not-applicable', message: reason, evidence: [] }),
    );
    outcomes.push(...state.outcomes);
  } finally {
    await state.close();
    timings?.revision(revision, revisionStart, state.channels.length);
  }
  const profile = state.profile;
  return {
    report: revisionReport(revision, outcomes, {
      transport: options.target.kind,
      capabilities: (capability) => hasCapability(profile, capability),
      strict: options.settings.strict === true,
    }),
    serverInfo: profile?.serverInfo,
  };
}

export async function runValidation(options: RunOptions): Promise<ValidationReport> {
  const started = Date.now();
  const deadline = started + options.totalTimeoutMs;
  const notes: string[] = [];
  try {
    // On stdio, start the processes the first probes of the revisions will need (one per legacy revision: the
    // handshake's, or those of 2026-07-28) while discovery runs, rather than after it.
    if (options.target instanceof StdioTarget) options.target.prestart(LEGACY_REVISIONS.length);
    const discovery = await (options.timings?.phase('discovery', () =>
      discover(options.target, options.settings.requestTimeoutMs),
    ) ?? discover(options.target, options.settings.requestTimeoutMs));
    notes.push(...discovery.problems);
    let revisions: Revision[] =
      options.revisions !== undefined ? [...options.revisions] : negotiatedRevisions(discovery);
    if (revisions.length === 0) {
      // Nothing negotiated: report the handshake of the latest legacy revision, which failed.
      revisions = [LATEST_LEGACY];
      notes.push(
        `the server negotiated no protocol revision; the handshake results are reported under ${LATEST_LEGACY}`,
      );
    }
    for (const revision of revisions) {
      if (!isRevision(revision)) throw new Error(`unknown revision ${String(revision)}`);
    }
    const annotations = new SharedAnnotations();
    if (!revisions.some((revision) => factsOf(revision).toolAnnotations)) annotations.settle();
    const runOptions: RunOptions = { ...options, settings: { ...options.settings, annotations } };
    const reports: RevisionReport[] = [];
    let serverInfo: unknown;
    const queue = [...revisions];
    const concurrency = Math.max(1, options.concurrency ?? 5);
    const revisionsRun = Promise.all(
      Array.from({ length: Math.min(concurrency, queue.length) }, async () => {
        for (let revision = queue.shift(); revision !== undefined; revision = queue.shift()) {
          const { report, serverInfo: info } = await validateRevision(
            revision,
            runOptions,
            discovery,
            deadline,
          );
          if (factsOf(revision).toolAnnotations) annotations.settle();
          reports.push(report);
          serverInfo ??= info;
        }
      }),
    );
    await (options.timings?.phase('revisions', () => revisionsRun) ?? revisionsRun);
    reports.sort((a, b) => (a.revision < b.revision ? 1 : -1));
    if (Date.now() > deadline)
      notes.push(
        `the run’s time limit (${options.totalTimeoutMs} ms) was reached; remaining checks were not run`,
      );
    // A server that refused connections fails even where no statement of the revision names the check: the
    // checks those connections were for did not run, and "not run" is never silently a pass.
    // The reports show it as a finding of its own (report/findings.ts), not as a note.
    const refused = reports.some((report) => report.checks[CONNECTIONS]?.status === 'fail');
    const failed = refused || reports.some((report) => report.requirements.some((r) => r.verdict === 'fail'));
    const info = isObject(serverInfo) ? serverInfo : undefined;
    return {
      tool: VALIDATOR,
      target: options.target.label,
      transport: options.target.kind,
      startedAt: new Date(started).toISOString(),
      durationMs: Date.now() - started,
      ...(info === undefined
        ? {}
        : {
            server: {
              ...(typeof info['name'] === 'string' ? { name: info['name'] } : {}),
              ...(typeof info['version'] === 'string' ? { version: info['version'] } : {}),
            },
          }),
      revisions: reports,
      notes,
      exitCode: failed ? 1 : 0,
      ...(options.settings.strict === true ? { strict: true } : {}),
    };
  } finally {
    // Whatever a probe left behind (a timed-out request's process included), and unused spare connections.
    // Only this run's own processes: other validations may be running in the same process.
    const dispose = options.target.dispose();
    await (options.timings?.phase('closing every connection', () => dispose) ?? dispose);
    if (options.timings !== undefined)
      options.timings.connections +=
        options.target instanceof StdioTarget ? options.target.started : options.target.opened.length;
  }
}
