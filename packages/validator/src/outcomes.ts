/**
 * What checks produce: outcomes with evidence. Verdicts (pass, fail, warning…) are decided later, when each
 * outcome is joined with the catalog statements that name its check: a failed check is a `fail` for a MUST and a
 * `warning` for a SHOULD.
 */
import type { Revision } from './catalog/model.js';

export const AREAS = [
  'lifecycle',
  'jsonrpc',
  'capabilities',
  'schema',
  'tools',
  'resources',
  'prompts',
  'completion',
  'logging',
  'pagination',
  'cancellation',
  'progress',
  'mrtr',
  'subscriptions',
  'caching',
  'stdio',
  'http',
  'security',
] as const;
export type Area = (typeof AREAS)[number];

export interface CheckDef {
  readonly id: string;
  readonly area: Area;
  /** What the check establishes, phrased as the behaviour that passes. */
  readonly title: string;
  /**
   * Advisory checks (the security lints) test no statement of the spec: they warn, never fail, and do not
   * count in the scores.
   */
  readonly advisory?: boolean;
  /**
   * Robustness checks judge replies to input no conforming client sends (garbage, invalid envelopes): a failure
   * does not fail the run unless `--strict` (docs/validator/interpretations.md).
   */
  readonly robustness?: boolean;
  /**
   * The distinct rules one check tests (`empty`, `token`… for x-mcp-header). A catalog statement names
   * `check#facet` when it states only one of them, so a failure is charged only to the statements it breaks.
   */
  readonly facets?: readonly string[];
}

/** One exchange shown as proof: exactly what was sent and what came back. */
export interface Evidence {
  readonly label?: string;
  readonly sent?: string;
  readonly received?: string;
  readonly note?: string;
}

export type OutcomeStatus = 'pass' | 'fail' | 'not-applicable' | 'not-run';

export interface Outcome {
  readonly check: string;
  readonly status: OutcomeStatus;
  /** Why: for a pass, what was observed; for a fail, what was wrong; otherwise the reason it did not run. */
  readonly message: string;
  readonly evidence: readonly Evidence[];
  /** For a failure: the facets of the check it breaks (absent: all of them). */
  readonly facets?: readonly string[];
}

export type Verdict = 'pass' | 'fail' | 'warning' | 'not-applicable' | 'not-testable' | 'not-run';

/** Outcomes recorded for one revision (or for the transport, shared by every revision). */
export interface RevisionOutcomes {
  readonly revision: Revision;
  readonly outcomes: readonly Outcome[];
}

/**
 * Several outcomes for the same check (a check exercised more than once) fold into one: any failure fails it,
 * else any pass passes it, else the first reason it did not run.
 */
export function foldOutcomes(
  check: string,
  outcomes: readonly Outcome[],
  facet?: string,
): Outcome | undefined {
  const mine = outcomes
    .filter((outcome) => outcome.check === check)
    .map((outcome): Outcome => {
      // Seen from one facet, a failure that breaks only other facets is a pass: the check looked, and found
      // nothing wrong with this rule.
      if (
        facet === undefined ||
        outcome.status !== 'fail' ||
        outcome.facets === undefined ||
        outcome.facets.includes(facet)
      )
        return outcome;
      return {
        check,
        status: 'pass',
        message: `no ${facet} problem (the check’s failure concerns: ${outcome.facets.join(', ')})`,
        evidence: [],
      };
    });
  if (mine.length === 0) return undefined;
  const failures = mine.filter((outcome) => outcome.status === 'fail');
  if (failures.length > 0) {
    return {
      check,
      status: 'fail',
      message: [...new Set(failures.map((failure) => failure.message))].join('; '),
      evidence: failures.flatMap((failure) => failure.evidence).slice(0, 6),
    };
  }
  const passes = mine.filter((outcome) => outcome.status === 'pass');
  if (passes.length > 0) {
    return {
      check,
      status: 'pass',
      message: [...new Set(passes.map((pass) => pass.message))].slice(0, 3).join('; '),
      evidence: passes.flatMap((pass) => pass.evidence).slice(0, 3),
    };
  }
  return mine.find((outcome) => outcome.status === 'not-run') ?? mine[0];
}
