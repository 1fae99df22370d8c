/**
 * The report: every requirement of every validated revision with its verdict, the advisory lints, the scores.
 * Built by joining the checks' outcomes with the catalog; the renderers (terminal, JSON, JUnit, HTML) only
 * format it.
 */
import { factsOf } from '../revisions.js';
import { catalogStats, loadCatalog, serverRequirements } from '../catalog/catalog.js';
import type { Requirement, Revision } from '../catalog/model.js';
import { allChecks, checkDef, parseCheckRef } from '../checks/registry.js';
import {
  foldOutcomes,
  type Area,
  type CheckDef,
  type Evidence,
  type Outcome,
  type Verdict,
} from '../outcomes.js';
import type { TransportKind } from '@mcpengine/wire';

export interface RequirementVerdict {
  readonly requirement: Requirement;
  readonly verdict: Verdict;
  readonly message: string;
  readonly evidence: readonly Evidence[];
  readonly area: Area | undefined;
  /** For a failure or warning: the checks (without facet) whose failure it is — its root causes. */
  readonly causes?: readonly string[];
}

export interface AdvisoryVerdict {
  readonly check: CheckDef;
  readonly verdict: 'pass' | 'warning' | 'not-run' | 'not-applicable';
  readonly message: string;
  readonly evidence: readonly Evidence[];
}

export interface Score {
  readonly passed: number;
  readonly failed: number;
  readonly notRun: number;
  /** passed / (passed + failed + notRun), or undefined when nothing applies. */
  readonly share: number | undefined;
}

export interface RevisionReport {
  readonly revision: Revision;
  readonly era: 'legacy' | 'modern';
  readonly requirements: readonly RequirementVerdict[];
  readonly advisory: readonly AdvisoryVerdict[];
  /** Outcomes of checks that no statement of this revision names (should be empty). */
  readonly unmapped: readonly Outcome[];
  /** Every check that ran, with its folded outcome (what the verdicts above were built from). */
  readonly checks: Readonly<
    Record<
      string,
      {
        readonly status: Outcome['status'];
        readonly message: string;
        /** Kept for failures only: the evidence a finding shows once. */
        readonly evidence?: readonly Evidence[];
      }
    >
  >;
  readonly must: Score;
  readonly should: Score;
  readonly coverage: {
    readonly testable: number;
    readonly covered: number;
    readonly share: number | undefined;
  };
}

export interface ValidationReport {
  readonly tool: { readonly name: string; readonly version: string };
  readonly target: string;
  readonly transport: TransportKind;
  readonly startedAt: string;
  readonly durationMs: number;
  readonly server?: { readonly name?: string; readonly version?: string };
  readonly revisions: readonly RevisionReport[];
  /** Problems met while connecting or running (not verdicts). */
  readonly notes: readonly string[];
  readonly exitCode: 0 | 1;
  /** Robustness findings failed the run (`--strict`). */
  readonly strict?: boolean;
}

/**
 * One verdict from the checks that test a statement: any failure fails it; otherwise it passes when at least one
 * check passed (the message says how many ran); otherwise it is not applicable or not run.
 */
function combine(
  checks: readonly string[],
  outcomes: readonly Outcome[],
): Outcome & { causes?: readonly string[] } {
  const folded = checks.map((ref) => {
    const { check, facet } = parseCheckRef(ref);
    return { check: ref, outcome: foldOutcomes(check, outcomes, facet) };
  });
  const label = (check: string, message: string): string =>
    checks.length === 1 ? message : `${check}: ${message}`;
  const failed = folded.filter((f) => f.outcome?.status === 'fail');
  if (failed.length > 0) {
    return {
      check: checks[0]!,
      status: 'fail',
      message: failed.map((f) => label(f.check, f.outcome!.message)).join(' | '),
      evidence: failed.flatMap((f) => f.outcome!.evidence).slice(0, 6),
      causes: [...new Set(failed.map((f) => parseCheckRef(f.check).check))],
    };
  }
  const passed = folded.filter((f) => f.outcome?.status === 'pass');
  if (passed.length > 0) {
    const note = checks.length > 1 ? ` (${passed.length} of ${checks.length} checks ran and passed)` : '';
    return {
      check: checks[0]!,
      status: 'pass',
      message: passed.map((f) => label(f.check, f.outcome!.message)).join(' | ') + note,
      evidence: passed.flatMap((f) => f.outcome!.evidence).slice(0, 3),
    };
  }
  const applicable = folded.filter((f) => f.outcome?.status !== 'not-applicable');
  if (applicable.length === 0) {
    return {
      check: checks[0]!,
      status: 'not-applicable',
      message: folded.map((f) => label(f.check, f.outcome!.message)).join(' | '),
      evidence: [],
    };
  }
  return {
    check: checks[0]!,
    status: 'not-run',
    message: applicable.map((f) => label(f.check, f.outcome?.message ?? 'did not run')).join(' | '),
    evidence: [],
  };
}

/**
 * Whether a statement about `scope` concerns the target's transport. A revision's HTTP statements are about its
 * own HTTP transport: HTTP+SSE in 2024-11-05, Streamable HTTP from 2025-03-26 on (where HTTP+SSE survives only
 * as a deprecated compatibility mode, governed by 2024-11-05's rules).
 */
function transportMatches(
  scope: Requirement['transport'],
  transport: TransportKind,
  revision: Revision,
): boolean {
  if (scope === undefined || scope === 'any') return true;
  if (scope === 'http') return transport === factsOf(revision).httpTransport;
  return scope === transport;
}

function score(verdicts: readonly RequirementVerdict[], failing: Verdict): Score {
  const passed = verdicts.filter((v) => v.verdict === 'pass').length;
  const failed = verdicts.filter((v) => v.verdict === failing).length;
  const notRun = verdicts.filter((v) => v.verdict === 'not-run').length;
  const total = passed + failed + notRun;
  return { passed, failed, notRun, share: total === 0 ? undefined : passed / total };
}

export function revisionReport(
  revision: Revision,
  outcomes: readonly Outcome[],
  context: {
    transport: TransportKind;
    capabilities: (capability: string) => boolean;
    /** Robustness failures fail MUST statements too (`--strict`). */
    strict?: boolean;
  },
): RevisionReport {
  const requirements = serverRequirements(revision).map((requirement): RequirementVerdict => {
    const checks = requirement.checks ?? [];
    const area = checks.length === 0 ? undefined : checkDef(parseCheckRef(checks[0]!).check)?.area;
    const base = { requirement, area, evidence: [] as Evidence[] };
    if (requirement.untestable !== undefined)
      return { ...base, verdict: 'not-testable', message: requirement.untestable };
    if (checks.length === 0)
      return { ...base, verdict: 'not-run', message: 'no check implements this requirement yet' };
    if (!transportMatches(requirement.transport, context.transport, revision)) {
      const scope =
        requirement.transport === 'http'
          ? factsOf(revision).httpTransport === 'sse'
            ? 'HTTP+SSE'
            : 'Streamable HTTP'
          : requirement.transport;
      return { ...base, verdict: 'not-applicable', message: `concerns the ${scope} transport` };
    }
    if (requirement.capability !== undefined && !context.capabilities(requirement.capability)) {
      return {
        ...base,
        verdict: 'not-applicable',
        message: `the server does not advertise ${requirement.capability}`,
      };
    }
    const outcome = combine(checks, outcomes);
    // Only robustness checks failed: a warning unless --strict (the MUST stays the statement's level).
    const robustnessOnly =
      outcome.causes !== undefined &&
      outcome.causes.length > 0 &&
      outcome.causes.every((check) => checkDef(check)?.robustness === true);
    const verdict: Verdict =
      outcome.status === 'fail'
        ? requirement.level === 'MUST' && (!robustnessOnly || context.strict === true)
          ? 'fail'
          : 'warning'
        : outcome.status;
    return {
      ...base,
      verdict,
      message:
        robustnessOnly && verdict === 'warning' && requirement.level === 'MUST'
          ? `robustness (fails the run only with --strict): ${outcome.message}`
          : outcome.message,
      evidence: outcome.evidence,
      ...(outcome.causes === undefined ? {} : { causes: outcome.causes }),
    };
  });
  const named = new Set(
    loadCatalog(revision).statements.flatMap((s) => (s.checks ?? []).map((ref) => parseCheckRef(ref).check)),
  );
  const advisory = allChecks()
    .filter((check) => (check.advisory === true || check.area === 'security') && !named.has(check.id))
    .flatMap((check): AdvisoryVerdict[] => {
      const outcome = foldOutcomes(check.id, outcomes);
      if (outcome === undefined) return [];
      const verdict = outcome.status === 'fail' ? 'warning' : outcome.status;
      return [{ check, verdict, message: outcome.message, evidence: outcome.evidence }];
    });
  const advisoryIds = new Set(advisory.map((a) => a.check.id));
  const unmapped = [...new Set(outcomes.map((o) => o.check))]
    .filter((id) => !named.has(id) && !advisoryIds.has(id) && checkDef(id)?.advisory !== true)
    .map((id) => foldOutcomes(id, outcomes)!)
    .filter((outcome) => outcome.status === 'fail' || outcome.status === 'pass');
  const stats = catalogStats(loadCatalog(revision));
  const checks: Record<string, { status: Outcome['status']; message: string; evidence?: Evidence[] }> = {};
  for (const id of [...new Set(outcomes.map((o) => o.check))].sort()) {
    const folded = foldOutcomes(id, outcomes)!;
    checks[id] = {
      status: folded.status,
      message: folded.message,
      ...(folded.status === 'fail' ? { evidence: [...folded.evidence] } : {}),
    };
  }
  return {
    checks,
    revision,
    era: factsOf(revision).era,
    requirements,
    advisory,
    unmapped,
    must: score(
      requirements.filter((v) => v.requirement.level === 'MUST'),
      'fail',
    ),
    should: score(
      requirements.filter((v) => v.requirement.level === 'SHOULD'),
      'warning',
    ),
    coverage: {
      testable: stats.testable,
      covered: stats.covered,
      share: stats.testable === 0 ? undefined : stats.covered / stats.testable,
    },
  };
}
