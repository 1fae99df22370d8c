#!/usr/bin/env node
/**
 * Builds the requirement catalog from the spec pages:
 *
 *   npm run spec:sync   (or: node packages/validator/dist/catalog/extract.js [--spec <dir>] [--check])
 *
 * Every normative sentence of every page (the changelog excepted: it restates the pages) becomes a statement
 * with a stable id. The hand-made classification (`catalog/classification.json`, keyed by those ids) is merged
 * in, so re-running after a spec update keeps every decision whose sentence did not change; new sentences come
 * out `unclassified` and retired ids are reported. The official schemas and examples are copied into the oracle's
 * package so that nothing at run time or in the tests needs the spec checkout.
 *
 * `--check` writes nothing and exits 1 when a committed file differs from what would be written.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CATALOG_DIR, PACKAGE_DIR, SCHEMA_DIR } from '../paths.js';
import { statementId } from './ids.js';
import { markdownBlocks } from './markdown.js';
import {
  REVISIONS,
  bindsServer,
  isCovered,
  type CatalogFile,
  type Classification,
  type Requirement,
  type Revision,
} from './model.js';
import { levelOf, normativeStatements, strongest, type RawStatement } from './statements.js';
import { typedocBlocks } from './typedoc.js';

const SKIPPED_PAGES = new Set(['changelog.mdx']);

interface Located {
  readonly revision: Revision;
  readonly page: string;
  readonly statement: RawStatement;
  readonly id: string;
}

export function locateSpec(explicit: string | undefined): string {
  const candidates: string[] = [];
  if (explicit !== undefined) candidates.push(resolve(explicit));
  if (process.env['MCP_SPEC_DIR']) candidates.push(resolve(process.env['MCP_SPEC_DIR']));
  for (let dir = PACKAGE_DIR; ; dir = dirname(dir)) {
    candidates.push(join(dir, 'shared', 'spec'));
    if (dirname(dir) === dir) break;
  }
  const found = candidates.find((dir) => existsSync(join(dir, '2026-07-28', 'schema.json')));
  if (found === undefined) throw new Error(`No spec folder found; looked in:\n  ${candidates.join('\n  ')}`);
  return found;
}

function filesUnder(root: string, dir = root): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesUnder(root, join(dir, entry.name)) : [relative(root, join(dir, entry.name))],
  );
}

function pagesOf(docs: string, dir = docs): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) => {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) return pagesOf(docs, path);
      return entry.name.endsWith('.mdx') ? [relative(docs, path)] : [];
    })
    .sort();
}

/** `basic/transports/stdio.mdx` → `stdio`; `basic/index.mdx` → `basic`; `index.mdx` → `overview`. */
export function pageKey(page: string): string {
  const parts = page
    .replace(/\.mdx$/, '')
    .split('/')
    .filter((part) => part !== 'index');
  return parts.at(-1) ?? 'overview';
}

export function pageUrl(revision: Revision, page: string, anchor: string): string {
  const path = page.replace(/\.mdx$/, '').replace(/(^|\/)index$/, '');
  const base = `https://modelcontextprotocol.io/specification/${revision}${path === '' ? '' : `/${path}`}`;
  return anchor === '' ? base : `${base}#${anchor}`;
}

export function extractRevision(specDir: string, revision: Revision): Located[] {
  const docs = join(specDir, revision, 'docs');
  const located: Located[] = [];
  for (const page of pagesOf(docs)) {
    if (SKIPPED_PAGES.has(page)) continue;
    const source = readFileSync(join(docs, page), 'utf8');
    const blocks = page === 'schema.mdx' ? typedocBlocks(source) : markdownBlocks(source);
    const used = new Map<string, number>();
    for (const statement of normativeStatements(blocks)) {
      const id = statementId(pageKey(page), statement.sentence, statement.context, used);
      located.push({ revision, page, statement, id });
    }
  }
  return located;
}

interface DescriptiveEntry {
  readonly key: string;
  readonly revisions: readonly Revision[];
  readonly page: string;
  readonly section: string;
  readonly anchor: string;
  readonly fragments: readonly string[];
  readonly sentence: string;
  readonly subject: Classification['subject'];
  readonly capability?: string;
  readonly checks: readonly string[];
  /** Catalogued at SHOULD unless the entry says otherwise, with the reason (kept as the statement's context). */
  readonly level?: 'MUST' | 'SHOULD';
  readonly levelReason?: string;
}

export function readDescriptive(): DescriptiveEntry[] {
  const path = join(CATALOG_DIR, 'descriptive.json');
  if (!existsSync(path)) return [];
  return (JSON.parse(readFileSync(path, 'utf8')) as { statements: DescriptiveEntry[] }).statements;
}

/** The page as plain prose, for checking that a descriptive statement's fragments still occur in it. */
function pageText(specDir: string, revision: Revision, page: string): string {
  const blocks = markdownBlocks(readFileSync(join(specDir, revision, 'docs', page), 'utf8'));
  return blocks
    .map((block) => block.text)
    .join(' ')
    .replace(/\s+/g, ' ')
    .toLowerCase();
}

/** Descriptive statements as requirements; throws when a fragment no longer occurs in its page. */
export function descriptiveRequirements(specDir: string, revision: Revision): Requirement[] {
  return readDescriptive()
    .filter((entry) => entry.revisions.includes(revision))
    .map((entry): Requirement => {
      const text = pageText(specDir, revision, entry.page);
      const missing = entry.fragments.filter((fragment) => !text.includes(fragment.toLowerCase()));
      if (missing.length > 0) {
        throw new Error(
          `descriptive statement ${entry.key}: ${revision}/${entry.page} no longer says ${missing.map((m) => JSON.stringify(m)).join(', ')}`,
        );
      }
      return {
        id: `${pageKey(entry.page)}-d-${entry.key}`,
        revisions: entry.revisions,
        level: entry.level ?? 'SHOULD',
        keywords: [],
        page: entry.page,
        section: entry.section,
        url: pageUrl(revision, entry.page, entry.anchor),
        sentence: entry.sentence,
        ...(entry.levelReason === undefined ? {} : { context: entry.levelReason }),
        descriptive: true,
        status: 'classified',
        subject: entry.subject,
        ...(entry.capability === undefined ? {} : { capability: entry.capability }),
        checks: entry.checks,
      };
    });
}

export interface ExtractResult {
  readonly files: ReadonlyMap<Revision, CatalogFile>;
  readonly unclassified: readonly string[];
  readonly retired: readonly string[];
}

export function buildCatalog(
  specDir: string,
  classification: Readonly<Record<string, Classification>>,
): ExtractResult {
  const all = REVISIONS.flatMap((revision) => extractRevision(specDir, revision));
  const revisionsOf = new Map<string, Revision[]>();
  for (const { id, revision } of all) {
    const list = revisionsOf.get(id) ?? [];
    if (!list.includes(revision)) list.push(revision);
    revisionsOf.set(id, list);
  }
  const files = new Map<Revision, CatalogFile>();
  const unclassified = new Set<string>();
  for (const revision of REVISIONS) {
    const statements = all
      .filter((entry) => entry.revision === revision)
      .map(({ page, statement, id }): Requirement => {
        const decided = classification[id];
        if (decided === undefined) unclassified.add(id);
        const strongestKeyword = strongest(statement.keywords);
        const status = decided === undefined ? 'unclassified' : isGap(decided) ? 'gap' : 'classified';
        return {
          id,
          revisions: revisionsOf.get(id) ?? [revision],
          level: decided?.level ?? levelOf(strongestKeyword),
          keywords: [...new Set(statement.keywords)],
          page,
          section: statement.headings.join(' › '),
          url: pageUrl(revision, page, statement.anchor),
          sentence: statement.sentence,
          ...(statement.context === undefined ? {} : { context: statement.context }),
          status,
          ...(decided === undefined ? {} : withoutLevel(decided)),
        };
      });
    statements.push(...descriptiveRequirements(specDir, revision));
    files.set(revision, { revision, source: `shared/spec/${revision}/docs`, statements });
  }
  const retired = Object.keys(classification).filter((id) => !revisionsOf.has(id));
  return { files, unclassified: [...unclassified], retired };
}

function isGap(classification: Classification): boolean {
  return (
    bindsServer(classification.subject) &&
    (classification.checks ?? []).length === 0 &&
    classification.untestable === undefined
  );
}

function withoutLevel(classification: Classification): Omit<Classification, 'level'> {
  const { level: _level, ...rest } = classification;
  return rest;
}

export function readClassification(): Record<string, Classification> {
  const path = join(CATALOG_DIR, 'classification.json');
  if (!existsSync(path)) return {};
  return JSON.parse(readFileSync(path, 'utf8')) as Record<string, Classification>;
}

/** Formats like the repository's Prettier setup when Prettier is installed, else plain two-space JSON. */
async function formatJson(value: unknown, path: string): Promise<string> {
  const text = `${JSON.stringify(value, null, 2)}\n`;
  try {
    const prettier = (await import('prettier')) as {
      format(source: string, options: Record<string, unknown>): Promise<string>;
      resolveConfig(path: string): Promise<Record<string, unknown> | null>;
    };
    const options = (await prettier.resolveConfig(path)) ?? {};
    return await prettier.format(text, { ...options, filepath: path });
  } catch {
    return text;
  }
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const specIndex = args.indexOf('--spec');
  const checkOnly = args.includes('--check');
  const specDir = locateSpec(specIndex === -1 ? undefined : args[specIndex + 1]);
  const result = buildCatalog(specDir, readClassification());

  const outputs = new Map<string, string>();
  for (const [revision, file] of result.files) {
    const path = join(CATALOG_DIR, `${revision}.json`);
    outputs.set(path, await formatJson(file, path));
  }
  let stale = 0;
  for (const [path, text] of outputs) {
    const current = existsSync(path) ? readFileSync(path, 'utf8') : undefined;
    if (current === text) continue;
    stale++;
    if (!checkOnly) {
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, text);
    }
  }
  // The official schemas and examples are copied byte for byte into the oracle's package, which every test and
  // command reads: a clone needs nothing beside it.
  const copies: [string, string][] = [
    ...REVISIONS.map((r): [string, string] => [
      join(specDir, r, 'schema.json'),
      join(SCHEMA_DIR, r, 'schema.json'),
    ]),
    [
      join(specDir, 'extensions', 'tasks', 'schema.json'),
      join(SCHEMA_DIR, 'extensions', 'tasks', 'schema.json'),
    ],
    ...filesUnder(join(specDir, '2026-07-28', 'examples')).map((path): [string, string] => [
      join(specDir, '2026-07-28', 'examples', path),
      join(SCHEMA_DIR, '2026-07-28', 'examples', path),
    ]),
  ];
  for (const [from, to] of copies) {
    const bytes = readFileSync(from);
    if (existsSync(to) && readFileSync(to).equals(bytes)) continue;
    stale++;
    if (!checkOnly) {
      mkdirSync(dirname(to), { recursive: true });
      writeFileSync(to, bytes);
    }
  }

  for (const [revision, file] of result.files) {
    const serverSide = file.statements.filter((s) => bindsServer(s.subject));
    const testable = serverSide.filter((s) => s.untestable === undefined);
    const covered = testable.filter(isCovered);
    console.log(
      `${revision}: ${file.statements.length} statements, ${serverSide.length} bind the server, ` +
        `${testable.length} testable, ${covered.length} covered`,
    );
  }
  if (result.unclassified.length > 0) console.log(`${result.unclassified.length} unclassified statement(s)`);
  if (result.retired.length > 0) console.log(`retired classification ids: ${result.retired.join(', ')}`);
  if (checkOnly && stale > 0) {
    console.error(`${stale} catalog file(s) out of date: run npm run spec:sync`);
    process.exitCode = 1;
  } else if (!checkOnly) {
    console.log(`${stale} file(s) written to ${relative(process.cwd(), CATALOG_DIR) || '.'}`);
  }
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await main();
}
