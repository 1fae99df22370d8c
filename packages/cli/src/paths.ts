/**
 * Where the package's data lives at run time: the catalog and the copied official schemas sit beside `dist/`.
 */
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** `packages/cli`, found from this file whether it runs from `src/` (tests) or `dist/`. */
export const PACKAGE_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const CATALOG_DIR = join(PACKAGE_DIR, 'catalog');
/** The official schemas, copied by the catalog extractor: `<revision>/schema.json`, `extensions/tasks/schema.json`. */
export const SCHEMA_DIR = join(CATALOG_DIR, 'spec');
