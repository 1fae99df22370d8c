/**
 * Findings: one per root cause. A check that fails breaks several statements, often in every revision; the
 * report groups them under that check, so a server author reads one defect with the statements and revisions
 * it violates and its evidence once. Also what did not run, and how to make it run.
 */
import type { Level } from '../catalog/statements.js';
import type { Revision } from '../catalog/model.js';
import { CONNECTIONS } from '../checks/lifecycle.js';
import { checkDef } from '../checks/registry.js';
import type { Evidence } from '../outcomes.js';
import type { RevisionReport, ValidationReport } from './model.js';

export interface FindingStatement {
  readonly id: string;
  readonly level: Level;
  readonly sentence: string;
  readonly url: string;
  readonly revisions: readonly Revision[];
}

export interface Finding {
  /** The failed check: the root cause. */
  readonly check: string;
  readonly title: string;
  /** MUST when any statement it breaks is a MUST (the run fails), else SHOULD (a warning). */
  readonly severity: 'MUST' | 'SHOULD';
  /** A robustness finding (replies to garbage input): reported, fails the run only with --strict. */
  readonly robustness: boolean;
  readonly revisions: readonly Revision[];
  /** Strongest first. */
  readonly statements: readonly FindingStatement[];
  /** What was wrong, as the check saw it in the newest revision it failed in. */
  readonly message: string;
  readonly evidence: readonly Evidence[];
}

export interface NotRunGroup {
  readonly reason: string;
  /** How to make these checks run, when the validator knows. */
  readonly hint?: string;
  /** MUST statements (per revision) that did not run for this reason. */
  readonly must: number;
  readonly revisions: readonly Revision[];
}

const LEVEL_ORDER: Record<string, number> = { MUST: 0, 'MUST NOT': 0, SHOULD: 1, 'SHOULD NOT': 1 };

export function findingsOf(report: ValidationReport): Finding[] {
  const byCheck = new Map<
    string,
    {
      severity: 'MUST' | 'SHOULD';
      revisions: Set<Revision>;
      statements: Map<string, FindingStatement & { revisions: Revision[] }>;
      message?: string;
      evidence: readonly Evidence[];
    }
  >();
  // Revisions come newest first: the first message and evidence kept are the newest revision's.
  for (const revision of report.revisions) {
    for (const entry of revision.requirements) {
      if (entry.verdict !== 'fail' && entry.verdict !== 'warning') continue;
      for (const check of entry.causes ?? []) {
        let finding = byCheck.get(check);
        if (finding === undefined) {
          finding = { severity: 'SHOULD', revisions: new Set(), statements: new Map(), evidence: [] };
          byCheck.set(check, finding);
        }
        // A robustness check is a MUST defect only under --strict, even where the statement fails for
        // another cause as well.
        const robust = checkDef(check)?.robustness === true && report.strict !== true;
        if (entry.verdict === 'fail' && !robust) finding.severity = 'MUST';
        finding.revisions.add(revision.revision);
        const { requirement } = entry;
        const statement = finding.statements.get(requirement.id) ?? {
          id: requirement.id,
          level: requirement.level,
          sentence: requirement.sentence,
          url: requirement.url,
          revisions: [],
        };
        statement.revisions.push(revision.revision);
        finding.statements.set(requirement.id, statement);
        const folded = revision.checks[check];
        if (finding.message === undefined && folded !== undefined) {
          finding.message = folded.message;
          finding.evidence = folded.evidence ?? entry.evidence;
        }
      }
    }
  }
  // Refused connections fail the run even in revisions where no statement names the check (run.ts): they are a
  // defect of their own, shown like any other, with the revisions they happened in and the refusal as evidence.
  for (const revision of report.revisions) {
    const refused = revision.checks[CONNECTIONS];
    if (refused?.status !== 'fail') continue;
    let finding = byCheck.get(CONNECTIONS);
    if (finding === undefined) {
      finding = { severity: 'MUST', revisions: new Set(), statements: new Map(), evidence: [] };
      byCheck.set(CONNECTIONS, finding);
    }
    finding.severity = 'MUST';
    finding.revisions.add(revision.revision);
    if (finding.message === undefined) {
      finding.message = `${refused.message}; the checks that needed them did not run, and “not run” is never a pass`;
      finding.evidence = refused.evidence ?? [];
    }
  }
  const findings = [...byCheck].map(([check, f]): Finding => ({
    check,
    title: checkDef(check)?.title ?? check,
    severity: f.severity,
    robustness: checkDef(check)?.robustness === true,
    revisions: [...f.revisions],
    statements: [...f.statements.values()].sort(
      (a, b) => (LEVEL_ORDER[a.level] ?? 2) - (LEVEL_ORDER[b.level] ?? 2),
    ),
    message: f.message ?? '',
    evidence: f.evidence,
  }));
  // Most severe first; among equals, the defect that breaks more revisions and statements.
  return findings.sort(
    (a, b) =>
      (a.severity === 'MUST' ? 0 : 1) - (b.severity === 'MUST' ? 0 : 1) ||
      b.revisions.length - a.revisions.length ||
      b.statements.length - a.statements.length ||
      a.check.localeCompare(b.check),
  );
}

/** How to make a check run that did not, read from the reason it gives. */
function hintFor(reason: string): string | undefined {
  if (/--call\b|--call-all|not read-only|readOnlyHint|no tool was called/.test(reason))
    return 'run with --call <tool> (or --call-all) to let the validator call tools that may have effects';
  if (/time limit/.test(reason)) return 'raise --timeout / --total-timeout';
  if (/does not negotiate/.test(reason)) return undefined;
  return undefined;
}

/** The MUST statements that did not run, grouped by reason (most frequent first). */
export function notRunOf(report: ValidationReport): NotRunGroup[] {
  const groups = new Map<string, { must: number; revisions: Set<Revision> }>();
  const add = (revision: RevisionReport, reason: string): void => {
    const group = groups.get(reason) ?? { must: 0, revisions: new Set<Revision>() };
    group.must += 1;
    group.revisions.add(revision.revision);
    groups.set(reason, group);
  };
  for (const revision of report.revisions) {
    for (const entry of revision.requirements) {
      if (entry.verdict !== 'not-run' || entry.requirement.level !== 'MUST') continue;
      // A statement of several checks gives one reason per check: group by the most telling one.
      const reasons = entry.message.split(' | ').map((r) => r.replace(/^[a-z-]+\.[a-z0-9.#-]+: /, ''));
      const reason =
        reasons.find((r) => hintFor(r) !== undefined) ??
        reasons.find((r) => r !== 'did not run') ??
        reasons[0]!;
      add(revision, reason);
    }
  }
  return [...groups]
    .map(([reason, g]): NotRunGroup => {
      const hint = hintFor(reason);
      return { reason, must: g.must, revisions: [...g.revisions], ...(hint === undefined ? {} : { hint }) };
    })
    .sort((a, b) => b.must - a.must || a.reason.localeCompare(b.reason));
}
