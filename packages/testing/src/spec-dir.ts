/**
 * Finds the official specification folder (`shared/spec`), which lives beside the repository, not inside it.
 */
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Set this to the folder holding `<revision>/schema.json` to skip the search. */
export const SPEC_DIR_ENV = 'MCP_SPEC_DIR';

/** A file every usable spec folder has; checking for it rejects an empty or unrelated `shared/spec`. */
const MARKER = join('2026-07-28', 'schema.json');

export interface LocateSpecDirOptions {
  /** Defaults to `process.env`. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Where the upward search starts; defaults to this package's own folder. */
  readonly startDir?: string;
}

/**
 * Returns the spec folder: `$MCP_SPEC_DIR` if set, else the first `shared/spec` found walking up from this
 * package (the repository root's sibling in a normal checkout). Throws with a how-to-fix message otherwise.
 */
export function locateSpecDir(options: LocateSpecDirOptions = {}): string {
  const env = options.env ?? process.env;
  const override = env[SPEC_DIR_ENV];
  if (override !== undefined && override !== '') {
    const dir = resolve(override);
    if (!existsSync(join(dir, MARKER))) {
      throw new Error(
        `${SPEC_DIR_ENV}=${override} does not look like the MCP spec folder: ${join(dir, MARKER)} is missing.`,
      );
    }
    return dir;
  }

  const start = options.startDir ?? dirname(fileURLToPath(import.meta.url));
  const searched: string[] = [];
  for (let dir = resolve(start); ; dir = dirname(dir)) {
    const candidate = join(dir, 'shared', 'spec');
    searched.push(candidate);
    if (existsSync(join(candidate, MARKER))) return candidate;
    if (dirname(dir) === dir) break;
  }
  throw new Error(
    `Cannot find the official MCP schemas (shared/spec/<revision>/schema.json). Looked in:\n` +
      searched.map((path) => `  ${path}`).join('\n') +
      `\nCheck out the shared folder beside the repository, or set ${SPEC_DIR_ENV} to its spec folder.`,
  );
}
