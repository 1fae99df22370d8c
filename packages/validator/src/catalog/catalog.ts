/**
 * The requirement catalog at run time: the statements of each revision, read from `catalog/<revision>.json`.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CATALOG_DIR } from '../paths.js';
import {
  bindsServer,
  isCovered,
  isTestable,
  type CatalogFile,
  type Requirement,
  type Revision,
} from './model.js';

const cache = new Map<Revision, CatalogFile>();

export function loadCatalog(revision: Revision, dir = CATALOG_DIR): CatalogFile {
  let file = cache.get(revision);
  if (file === undefined) {
    file = JSON.parse(readFileSync(join(dir, `${revision}.json`), 'utf8')) as CatalogFile;
    cache.set(revision, file);
  }
  return file;
}

export interface CatalogStats {
  readonly revision: Revision;
  readonly statements: number;
  readonly bindingServer: number;
  readonly testable: number;
  readonly covered: number;
  readonly unclassified: number;
}

export function catalogStats(file: CatalogFile): CatalogStats {
  const binding = file.statements.filter((s) => bindsServer(s.subject));
  const testable = binding.filter(isTestable);
  return {
    revision: file.revision,
    statements: file.statements.length,
    bindingServer: binding.length,
    testable: testable.length,
    covered: testable.filter(isCovered).length,
    unclassified: file.statements.filter((s) => s.status === 'unclassified').length,
  };
}

/** Statements of the revision that bind the server, in catalog order. */
export function serverRequirements(revision: Revision): Requirement[] {
  return loadCatalog(revision).statements.filter((s) => bindsServer(s.subject));
}
