/**
 * The terminal summary: per revision, the scores and each area's counts, then every failure and warning with
 * its requirement, spec link and evidence.
 */
import { AREAS, type Evidence, type Verdict } from '../outcomes.js';
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

function evidenceLines(evidence: readonly Evidence[], style: Style, max = 2): string[] {
  const out: string[] = [];
  for (const item of evidence.slice(0, max)) {
    if (item.label) out.push(style.dim(`      ${item.label}:`));
    if (item.sent) out.push(indent(item.sent, style.dim('      → ')));
    if (item.received) out.push(indent(item.received, style.dim('      ← ')));
    if (item.note) out.push(indent(item.note, style.dim('      · ')));
  }
  return out;
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
    style.bold(`${report.revision} (${report.era})`) +
      `  MUST ${report.must.passed}/${report.must.passed + report.must.failed + report.must.notRun} passed (${percent(report.must)})` +
      `  SHOULD ${report.should.passed}/${report.should.passed + report.should.failed + report.should.notRun} (${percent(report.should)})` +
      `  catalog coverage ${report.coverage.covered}/${report.coverage.testable} (${percent(report.coverage)})`,
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
  for (const revision of report.revisions)
    lines.push(...revisionSection(revision, style, options.verbose), '');
  for (const note of report.notes) lines.push(style.dim(`note: ${note}`));
  const failures = report.revisions.reduce((n, r) => n + r.must.failed, 0);
  const warnings = report.revisions.reduce((n, r) => n + r.should.failed, 0);
  lines.push(
    report.exitCode === 0
      ? style.green(`PASS: every applicable MUST passed (${warnings} SHOULD warning(s))`)
      : style.red(`FAIL: ${failures} MUST requirement(s) failed, ${warnings} SHOULD warning(s)`),
  );
  return `${lines.join('\n')}\n`;
}
