/**
 * Where the official schemas come from. The package carries its own copy (`spec/<revision>/schema.json`,
 * `spec/extensions/tasks/schema.json`, `spec/2026-07-28/examples/`), byte for byte as published, so a clone or
 * an install needs nothing beside it. Maintainers refresh the copy from the upstream specification with
 * `npm run spec:sync` (see the README).
 */
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Set this to another folder holding `<revision>/schema.json` (a newer spec checkout, say) to use it instead. */
export const SPEC_DIR_ENV = 'MCP_SPEC_DIR';

/** The copy this package carries, found from this file whether it runs from `src/` or `dist/`. */
export const BUNDLED_SPEC_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '..', 'spec');

/** A file every usable spec folder has; checking for it rejects an empty or unrelated folder. */
const MARKER = join('2026-07-28', 'schema.json');

export interface LocateSpecDirOptions {
  /** Defaults to `process.env`. */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

/** Returns `$MCP_SPEC_DIR` when set (and checked), else the bundled copy. */
export function locateSpecDir(options: LocateSpecDirOptions = {}): string {
  const env = options.env ?? process.env;
  const override = env[SPEC_DIR_ENV];
  if (override === undefined || override === '') return BUNDLED_SPEC_DIR;
  const dir = resolve(override);
  if (!existsSync(join(dir, MARKER))) {
    throw new Error(
      `${SPEC_DIR_ENV}=${override} does not look like the MCP spec folder: ${join(dir, MARKER)} is missing.`,
    );
  }
  return dir;
}
