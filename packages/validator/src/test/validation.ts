/** Test support for validating a whole reference server, as the command line does with its defaults. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PACKAGE_DIR } from '../paths.js';
import type { ValidationReport } from '../report/model.js';
import { runValidation } from '../run.js';
import type { Target } from '../target.js';

const SETTINGS = {
  requestTimeoutMs: 10_000,
  probeTimeoutMs: 60_000,
  callTools: new Set<string>(),
  callAllTools: false,
};

export function validate(target: Target): Promise<ValidationReport> {
  return runValidation({ target, settings: SETTINGS, totalTimeoutMs: 300_000 });
}

/** `revision requirement verdict` for every requirement failed or warned about, sorted. */
export function failedOrWarned(report: ValidationReport): string[] {
  return report.revisions
    .flatMap((r) =>
      r.requirements
        .filter((v) => v.verdict === 'fail' || v.verdict === 'warning')
        .map((v) => `${r.revision} ${v.requirement.id} ${v.verdict}`),
    )
    .sort();
}

/**
 * `revision requirement verdict` lines of an expected-findings document (docs/validator/<server>.md) for one
 * transport: its table rows `| transport | revisions | \`requirement\` | level | verdict | … |`.
 */
export function documentedFindings(document: string, transport: string): string[] {
  const text = readFileSync(join(PACKAGE_DIR, '..', '..', 'docs', 'validator', document), 'utf8');
  const rows = text.split('\n').filter((line) => line.startsWith(`| ${transport} |`));
  return rows
    .flatMap((row) => {
      const [, , revisions, requirement, , verdict] = row.split('|').map((cell) => cell.trim());
      return revisions!
        .split(' ')
        .map((revision) => `${revision} ${requirement!.replace(/`/g, '')} ${verdict!}`);
    })
    .sort();
}
