/**
 * Where the package's data lives at run time: the requirement catalog sits beside `dist/`; the official schemas
 * are the oracle's copy.
 */
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
export { BUNDLED_SPEC_DIR as SCHEMA_DIR } from '@mcpengine/oracle';

/** `packages/validator`, found from this file whether it runs from `src/` (tests) or `dist/`. */
export const PACKAGE_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const CATALOG_DIR = join(PACKAGE_DIR, 'catalog');
