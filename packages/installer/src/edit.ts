/**
 * Plans a change to a client's file: reads it, opens it in the editor of its format, sets or deletes one entry
 * (and what the descriptor keeps beside it), then checks the result by parsing it again and comparing it with the
 * intended data — everything else equal, the entry as rendered. Nothing is written here: `writeEdit` does that.
 */
import { readFile } from 'node:fs/promises';
import { isDeepStrictEqual } from 'node:util';
import { deleteIn, setIn, type ConfigDocument, type KeyPath } from './documents/document.js';
import { openDocument } from './documents/open.js';
import { InstallerError, type Platform, type ServerSpec } from './model.js';
import type { Target } from './target.js';

export interface EditPlan {
  readonly target: Target;
  readonly name: string;
  /** The file's text before, or undefined when it does not exist. */
  readonly before: string | undefined;
  readonly after: string;
  readonly changed: boolean;
  /** A unified diff of the change ("" when unchanged). */
  readonly diff: string;
  readonly notes: readonly string[];
  /** The entry as written (add), or as it was (remove). */
  readonly entry: unknown;
}

const BOM = '\uFEFF';

export async function readConfig(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    if (code === 'EISDIR') throw new InstallerError(`${file} is a directory, not a configuration file`);
    throw new InstallerError(`cannot read ${file}: ${(error as Error).message}`, 2, { cause: error });
  }
}

/** A document that also applies every change to plain data: what the text should parse back to. */
class Intended {
  expected: unknown;

  constructor(readonly document: ConfigDocument) {
    this.expected = document.data();
  }

  set(path: KeyPath, value: unknown): void {
    this.document.set(path, value);
    this.expected = setIn(this.expected, path, value);
  }

  delete(path: KeyPath): void {
    this.document.delete(path);
    this.expected = deleteIn(this.expected, path);
  }
}

/** A view of a document whose set/delete go through `Intended`, for descriptor hooks. */
function hookView(intended: Intended): ConfigDocument {
  const document = intended.document;
  return {
    file: document.file,
    format: document.format,
    data: () => document.data(),
    get: (path) => document.get(path),
    set: (path, value) => intended.set(path, value),
    delete: (path) => intended.delete(path),
    text: () => document.text(),
  };
}

async function open(
  target: Target,
  before: string | undefined,
): Promise<{ document: ConfigDocument; bom: string }> {
  const text = before ?? '';
  const bom = text.startsWith(BOM) ? BOM : '';
  return { document: await openDocument(target.file, text, target.client.format), bom };
}

async function finish(
  target: Target,
  name: string,
  before: string | undefined,
  intended: Intended,
  bom: string,
  notes: readonly string[],
  entry: unknown,
): Promise<EditPlan> {
  const body = intended.document.text();
  const reread = (await openDocument(target.file, body, target.client.format)).data();
  // TOML tables exist only through their keys: a table left empty by a removal is no table at all.
  const normalise = (data: unknown) =>
    target.client.format === 'toml' ? pruneEmpty(plain(data)) : plain(data);
  if (!isDeepStrictEqual(normalise(reread), normalise(intended.expected)))
    throw new InstallerError(
      `internal error: editing ${target.file} would have changed more than the "${name}" entry, so nothing was written. Please report this with the file's structure.`,
    );
  const after = bom + body;
  const changed = after !== (before ?? '');
  return {
    target,
    name,
    before,
    after,
    changed,
    diff: changed ? await unifiedDiff(target.file, before, after) : '',
    notes,
    entry,
  };
}

export async function planAdd(
  target: Target,
  name: string,
  spec: ServerSpec,
  platform: Platform,
): Promise<EditPlan> {
  const before = await readConfig(target.file);
  const { document, bom } = await open(target, before);
  const rendered = target.client.render(spec, { platform, name });
  const intended = new Intended(document);
  const path = [...target.client.serversKey, name];
  if (!isDeepStrictEqual(plain(document.get(path)), plain(rendered.entry)))
    intended.set(path, rendered.entry);
  target.client.afterSet?.(hookView(intended), name, rendered.entry);
  return finish(target, name, before, intended, bom, rendered.notes, rendered.entry);
}

/** Plans the removal; `entry` is undefined (and nothing changes) when there is no such server. */
export async function planRemove(target: Target, name: string): Promise<EditPlan> {
  const before = await readConfig(target.file);
  const { document, bom } = await open(target, before);
  const intended = new Intended(document);
  const path = [...target.client.serversKey, name];
  const existing = document.get(path);
  if (existing !== undefined) {
    intended.delete(path);
    target.client.afterDelete?.(hookView(intended), name, existing);
  }
  return finish(target, name, before, intended, bom, [], existing);
}

async function unifiedDiff(file: string, before: string | undefined, after: string): Promise<string> {
  // Loaded on first use: most runs print no diff.
  const { createTwoFilesPatch } = await import('diff');
  return createTwoFilesPatch(
    before === undefined ? '/dev/null' : file,
    file,
    before ?? '',
    after,
    undefined,
    undefined,
    { context: 3 },
  ).replace(/^={3,}\r?\n/m, '');
}

/** Plain data for comparison: prototypes, dates and big integers made comparable. */
function plain(value: unknown): unknown {
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'bigint') return `${value}n`;
  if (Array.isArray(value)) return value.map(plain);
  if (typeof value === 'object' && value !== null) {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) out[key] = plain(item);
    return out;
  }
  return value;
}

function pruneEmpty(value: unknown): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    const pruned = pruneEmpty(item);
    const empty =
      typeof pruned === 'object' &&
      pruned !== null &&
      !Array.isArray(pruned) &&
      Object.keys(pruned).length === 0;
    if (!empty) out[key] = pruned;
  }
  return out;
}
