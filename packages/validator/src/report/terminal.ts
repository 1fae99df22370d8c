/**
 * The terminal summary. It leads with one screen: the verdict, the defects grouped by root cause (most severe
 * first, one line each with the spec sentence), per revision how many statements passed, failed and did not
 * run, and how to run what did not. `--verbose` adds the evidence and every statement per revision; big
 * payloads are clipped with a pointer to the JSON/HTML reports.
 */
import { AREAS, type Evidence, type Verdict } from '../outcomes.js';
import { findingsOf, notRunOf, type Finding } from './findings.js';
import type { RequirementVerdict, RevisionReport, Score, ValidationReport } from './model.js';

interface Style {
  bold(text: string): string;
  dim(text: string): string;
  red(text: string): string;
  yellow(text: string): string;
  green(text: string): string;
}

const PLAIN: Style = { bold: (t) => t, dim: (t) => t, red: (t) => t, yellow: (t) => t, green: (t) => t };
const ANSI: Style = {
  bold: (t) => `\u001b[1m${t}\u001b[22m`,
  dim: (t) => `\u001b[2m${t}\u001b[22m`,
  red: (t) => `\u001b[31m${t}\u001b[39m`,
  yellow: (t) => `\u001b[33m${t}\u001b[39m`,
  green: (t) => `\u001b[32m${t}\u001b[39m`,
};

const SYMBOL: Record<Verdict, string> = {
  pass: '✓',
  fail: '✗',
  warning: '!',
  'not-applicable': '–',
  'not-testable': '·',
  'not-run': '○',
};

export function percent(score: Score | { share: number | undefined }): string {
  return score.share === undefined ? 'n/a' : `${(score.share * 100).toFixed(1)}%`;
}

function indent(text: string, prefix: string): string {
  return text
    .split('\n')
    .map((line) => prefix + line)
    .join('\n');
}

/** Longest payload shown in the terminal; the JSON and HTML reports keep the whole text. */
const MAX_PAYLOAD = 400;

function clipPayload(text: string): string {
  if (text.length <= MAX_PAYLOAD) return text;
  return `${text.slice(0, MAX_PAYLOAD)}… (${text.length - MAX_PAYLOAD} more characters: see the --json or --html report)`;
}

function evidenceLines(evidence: readonly Evidence[], style: Style, max = 2): string[] {
  const out: string[] = [];
  for (const item of evidence.slice(0, max)) {
    if (item.label) out.push(style.dim(`      ${item.label}:`));
    if (item.sent) out.push(indent(clipPayload(item.sent), style.dim('      → ')));
    if (item.received) out.push(indent(clipPayload(item.received), style.dim('      ← ')));
    if (item.note) out.push(indent(clipPayload(item.note), style.dim('      · ')));
  }
  return out;
}

/** One line, cut to fit a terminal. */
function oneLine(text: string, max = 160): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}

function revisionList(revisions: readonly string[], all: number): string {
  return revisions.length === all && all > 1 ? 'all revisions' : revisions.join(', ');
}

function findingLines(finding: Finding, all: number, style: Style, verbose: boolean): string[] {
  const color = finding.severity === 'MUST' ? style.red : style.yellow;
  const [first, ...others] = finding.statements;
  const lines = [
    `${color(finding.severity === 'MUST' ? '✗ MUST  ' : finding.robustness ? '! ROBUST' : '! SHOULD')} ${style.bold(finding.check)} ${style.dim(`(${revisionList(finding.revisions, all)})`)}`,
    `    ${oneLine(finding.message)}`,
  ];
  if (first === undefined)
    lines.push(
      `    ${style.dim('no statement of these revisions names it; it fails the run because the checks that needed those connections did not run')}`,
    );
  if (first !== undefined)
    lines.push(
      `    “${oneLine(first.sentence, 150)}”` +
        style.dim(others.length > 0 ? ` +${others.length} statement(s)` : ''),
    );
  if (verbose) {
    for (const statement of finding.statements)
      lines.push(
        style.dim(
          `      ${statement.level} ${statement.id} ${statement.url} (${revisionList(statement.revisions, all)})`,
        ),
      );
    lines.push(...evidenceLines(finding.evidence, style));
  }
  return lines;
}

function scoreLine(report: RevisionReport, style: Style): string {
  const { must, should } = report;
  return (
    `  ${report.revision} (${report.era})`.padEnd(24) +
    `MUST ${must.passed} passed, ${must.failed > 0 ? style.red(`${must.failed} failed`) : '0 failed'}, ${must.notRun} not run` +
    style.dim(`   SHOULD ${should.passed} passed, ${should.failed} warned, ${should.notRun} not run`)
  );
}

/** The one-screen summary every run prints. */
function summaryLines(report: ValidationReport, style: Style, verbose: boolean): string[] {
  const findings = findingsOf(report);
  const defects = findings.filter((f) => f.severity === 'MUST');
  const warnings = findings.filter((f) => f.severity === 'SHOULD');
  const notRun = notRunOf(report);
  const notRunCount = notRun.reduce((n, g) => n + g.must, 0);
  const all = report.revisions.length;
  const lines: string[] = [
    report.exitCode === 0
      ? style.green(
          `PASS: no MUST failed in ${all} revision(s)` +
            (notRunCount > 0 ? ` — ${notRunCount} MUST statement(s) did not run (see below)` : ''),
        )
      : style.red(
          // Refused connections (run.ts) are a defect of their own, even where no statement names them.
          `FAIL: ${defects.length} defect(s) ${defects.some((d) => d.statements.length === 0) ? 'fail the run' : 'break MUST statements'}` +
            (notRunCount > 0 ? ` — ${notRunCount} MUST statement(s) did not run` : ''),
        ),
    '',
  ];
  if (findings.length > 0) {
    lines.push(
      style.bold(`Defects (${defects.length} MUST, ${warnings.length} SHOULD), one per root cause:`),
    );
    for (const finding of verbose ? findings : findings.slice(0, 12))
      lines.push(...findingLines(finding, all, style, verbose));
    if (!verbose && findings.length > 12)
      lines.push(style.dim(`  … ${findings.length - 12} more: --verbose, or the --json/--html report`));
    lines.push('');
  }
  lines.push(style.bold('Statements per revision:'));
  for (const revision of report.revisions) lines.push(scoreLine(revision, style));
  if (notRun.length > 0) {
    lines.push('', style.bold(`Did not run (${notRunCount} MUST statement(s)):`));
    for (const group of notRun.slice(0, 6)) {
      lines.push(
        `  ${group.must} × ${oneLine(group.reason, 110)} ${style.dim(`(${group.revisions.join(', ')})`)}`,
      );
      if (group.hint !== undefined) lines.push(`      → ${group.hint}`);
    }
    if (notRun.length > 6) lines.push(style.dim(`  … ${notRun.length - 6} more reasons in --verbose`));
  }
  if (!verbose && findings.length > 0)
    lines.push('', style.dim('--verbose shows the evidence of each defect and every statement'));
  return lines;
}

function verdictLine(entry: RequirementVerdict, style: Style, withEvidence: boolean): string[] {
  const { requirement, verdict } = entry;
  const color =
    verdict === 'fail'
      ? style.red
      : verdict === 'warning'
        ? style.yellow
        : verdict === 'pass'
          ? style.green
          : style.dim;
  const lines = [
    `  ${color(SYMBOL[verdict])} ${style.bold(requirement.id)} ${requirement.level} ${style.dim(`[${(requirement.checks ?? []).join(', ') || 'no check'}]`)}`,
    `    “${requirement.sentence}”`,
    style.dim(`    ${requirement.url}`),
    `    ${color(entry.message)}`,
  ];
  if (withEvidence) lines.push(...evidenceLines(entry.evidence, style));
  return lines;
}

function revisionSection(report: RevisionReport, style: Style, verbose: boolean): string[] {
  const lines: string[] = [];
  const failed = report.requirements.filter((r) => r.verdict === 'fail');
  const warnings = report.requirements.filter((r) => r.verdict === 'warning');
  lines.push(
    style.bold(scoreLine(report, style).trimStart()) +
      style.dim(`   catalog coverage ${report.coverage.covered}/${report.coverage.testable}`),
  );
  for (const area of AREAS) {
    const mine = report.requirements.filter((r) => r.area === area);
    if (mine.length === 0) continue;
    const count = (verdict: Verdict): number => mine.filter((r) => r.verdict === verdict).length;
    const parts = [
      `${count('pass')} pass`,
      count('fail') > 0 ? style.red(`${count('fail')} fail`) : '',
      count('warning') > 0 ? style.yellow(`${count('warning')} warning`) : '',
      count('not-run') > 0 ? `${count('not-run')} not run` : '',
      count('not-applicable') > 0 ? `${count('not-applicable')} n/a` : '',
    ].filter(Boolean);
    lines.push(`  ${area.padEnd(14)} ${parts.join(', ')}`);
  }
  const untestable = report.requirements.filter((r) => r.verdict === 'not-testable').length;
  lines.push(
    style.dim(
      `  ${untestable} statement(s) of this revision bind the server but cannot be tested from outside`,
    ),
  );
  for (const entry of failed) lines.push(...verdictLine(entry, style, true));
  for (const entry of warnings) lines.push(...verdictLine(entry, style, true));
  if (verbose) {
    for (const entry of report.requirements.filter((r) => r.verdict !== 'fail' && r.verdict !== 'warning')) {
      lines.push(...verdictLine(entry, style, false));
    }
  }
  const advisories = report.advisory.filter((a) => a.verdict === 'warning');
  if (advisories.length > 0) {
    lines.push(style.bold('  security lints (advisory)'));
    for (const advisory of advisories) {
      lines.push(
        `  ${style.yellow('!')} ${advisory.check.id}: ${advisory.check.title}`,
        `    ${style.yellow(advisory.message)}`,
      );
    }
  }
  for (const outcome of report.unmapped) {
    lines.push(
      style.dim(
        `  (check ${outcome.check} ${outcome.status}, but no statement of ${report.revision} names it: ${outcome.message})`,
      ),
    );
  }
  return lines;
}

export function renderTerminal(
  report: ValidationReport,
  options: { color: boolean; verbose: boolean },
): string {
  const style = options.color ? ANSI : PLAIN;
  const lines: string[] = [
    style.bold(`${report.tool.name} ${report.tool.version}`) + ` — ${report.target} (${report.transport})`,
  ];
  if (report.server)
    lines.push(`server: ${report.server.name ?? '?'} ${report.server.version ?? ''}`.trimEnd());
  lines.push(
    `revisions: ${report.revisions.map((r) => r.revision).join(', ') || 'none'}   time: ${(report.durationMs / 1000).toFixed(1)} s`,
    '',
  );
  lines.push(...summaryLines(report, style, options.verbose));
  if (options.verbose) {
    lines.push('', style.bold('Every statement, per revision:'), '');
    for (const revision of report.revisions) lines.push(...revisionSection(revision, style, true), '');
  }
  if (report.notes.length > 0) lines.push('');
  for (const note of report.notes) lines.push(style.dim(`note: ${note}`));
  return `${lines.join('\n')}\n`;
}
