/** Test support for validating a whole reference server, as the command line does with its defaults. */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PACKAGE_DIR } from '../paths.js';
import type { ValidationReport } from '../report/model.js';
import { runValidation } from '../run.js';
import { StdioTarget, type Target } from '../target.js';

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

/** Where the root devDependencies are installed. */
export const NODE_MODULES = join(PACKAGE_DIR, '..', '..', 'node_modules');

/** A real server of the corpus: an npm package run over stdio, and its expected-findings document. */
export interface RealServer {
  /** The package, a root devDependency. */
  readonly name: string;
  /** docs/validator/<document>: the expected findings. */
  readonly document: string;
  /** The entry point inside the package, and the arguments it needs. */
  readonly entry: string;
  readonly args?: (scratch: string) => readonly string[];
  readonly env?: (scratch: string) => Readonly<Record<string, string>>;
}

/** Validates a real server over stdio the way `mcpengine validate --stdio` does; `scratch` is a fresh temp dir. */
export function validateRealServer(server: RealServer): Promise<ValidationReport> {
  const scratch = mkdtempSync(join(tmpdir(), 'mcpengine-validator-real-'));
  return validate(
    new StdioTarget(
      {
        command: process.execPath,
        args: [join(NODE_MODULES, server.name, server.entry), ...(server.args?.(scratch) ?? [])],
        env: server.env?.(scratch) ?? {},
        cwd: scratch,
      },
      10_000,
      server.name,
    ),
  );
}
