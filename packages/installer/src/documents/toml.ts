/**
 * TOML files (Codex `config.toml`), edited surgically. `toml-eslint-parser` (strict TOML 1.0, with source
 * ranges) locates every line that defines the entry — its `[table]` and `[table.sub]` sections, or keys under a
 * parent table — and only those lines are replaced or removed; the new entry is written as `[mcp_servers.<name>]`
 * sections where the old one stood, or after the last server. Comments outside the entry are never touched.
 * Only entry-level paths (`[table, name]`) can be set or deleted: that is all an installer needs.
 */
import { getStaticTOMLValue, parseTOML, type AST } from 'toml-eslint-parser';
import { ConfigParseError, InstallerError } from '../model.js';
import { detectEol, getIn, isObject, type ConfigDocument, type KeyPath } from './document.js';

interface Region {
  readonly start: number;
  readonly end: number;
  /** A `[table]` section (else a key). */
  readonly table?: boolean;
}

export class TomlDocument implements ConfigDocument {
  readonly file: string;
  readonly format = 'toml' as const;
  #text: string;
  #ast: AST.TOMLProgram;
  readonly #eol: string;

  constructor(file: string, text: string) {
    this.file = file;
    this.#text = text;
    this.#eol = detectEol(text);
    this.#ast = this.#parse(text);
  }

  #parse(text: string): AST.TOMLProgram {
    try {
      return parseTOML(text);
    } catch (error) {
      const { lineNumber, column, message } = error as {
        lineNumber?: number;
        column?: number;
        message: string;
      };
      throw new ConfigParseError(
        this.file,
        lineNumber ?? 1,
        (column ?? 0) + 1,
        `not valid TOML (${message})`,
      );
    }
  }

  data(): unknown {
    return getStaticTOMLValue(this.#ast);
  }

  get(path: KeyPath): unknown {
    return getIn(this.data(), path);
  }

  text(): string {
    return this.#text;
  }

  set(path: KeyPath, value: unknown): void {
    const [table, name] = entryPath(this.file, path);
    if (!isObject(value)) throw new TypeError('a TOML entry is a table');
    const block = renderTable([table, name], value, this.#eol);
    const regions = this.#regions(table, name);
    const inPlace = regions[0]?.table === true;
    const at = inPlace ? regions[0]!.start : undefined;
    // Without the old entry; then, unless it stood as its own section, after the last server section.
    this.#update(removeRegions(this.#text, regions));
    const text = this.#text;
    this.#update(insertBlock(text, at ?? this.#afterLastTable(table) ?? text.length, block, this.#eol));
  }

  delete(path: KeyPath): void {
    const [table, name] = entryPath(this.file, path);
    const regions = this.#regions(table, name);
    if (regions.length === 0) return;
    this.#update(removeRegions(this.#text, regions));
  }

  #update(text: string): void {
    this.#ast = this.#parse(text);
    this.#text = text;
  }

  /** Every line range that defines `[table, name]`, in file order. */
  #regions(table: string, name: string): Region[] {
    const regions: Region[] = [];
    const top = this.#ast.body[0];
    if (top === undefined) return regions;
    const refuse = (what: string): never => {
      throw new InstallerError(
        `${this.file}: ${what}; the installer edits only [${table}.${name}] sections and keys. Edit this entry by hand, or rewrite it as a [${table}.<name>] section.`,
      );
    };
    for (const node of top.body) {
      if (node.type === 'TOMLKeyValue') {
        const keys = keyNames(node.key);
        if (keys[0] !== table) continue;
        if (keys.length === 1) {
          if (isObject(getIn(getStaticTOMLValue(node.value), [name])))
            refuse(`"${table}" is written as one inline table`);
          continue;
        }
        if (keys[1] === name) regions.push(lineRegion(this.#text, node.range));
        continue;
      }
      const key = node.resolvedKey.map(String);
      if (key[0] !== table) continue;
      if (key.length >= 2 && key[1] === name) {
        if (node.kind === 'array') refuse(`[[${key.join('.')}]] is an array of tables`);
        regions.push({ ...lineRegion(this.#text, node.range), table: true });
      } else if (key.length === 1) {
        for (const entry of node.body) {
          if (keyNames(entry.key)[0] === name) regions.push(lineRegion(this.#text, entry.range));
        }
      }
    }
    return regions.sort((a, b) => a.start - b.start);
  }

  /** The end of the last `[table...]` section, so a new server joins the others. */
  #afterLastTable(table: string): number | undefined {
    let end: number | undefined;
    for (const node of this.#ast.body[0]?.body ?? []) {
      if (node.type === 'TOMLTable' && String(node.resolvedKey[0]) === table)
        end = lineRegion(this.#text, node.range).end;
    }
    return end;
  }
}

function entryPath(file: string, path: KeyPath): [string, string] {
  if (path.length !== 2) throw new InstallerError(`${file}: only [table.name] entries can be edited`);
  return [path[0]!, path[1]!];
}

function keyNames(key: AST.TOMLKey): string[] {
  return key.keys.map((part) => (part.type === 'TOMLBare' ? part.name : part.value));
}

/** Whole lines from the line of `range[0]` through the end of the line of `range[1]`, newline included. */
function lineRegion(text: string, range: readonly [number, number]): Region {
  const start = text.lastIndexOf('\n', range[0] - 1) + 1;
  const newline = text.indexOf('\n', range[1]);
  return { start, end: newline === -1 ? text.length : newline + 1 };
}

/**
 * Cuts the regions out. Only the blank lines next to a cut are tidied (no double blank line where a section
 * went, none left at the end); the rest of the file keeps its spacing.
 */
function removeRegions(text: string, regions: readonly Region[]): string {
  let out = '';
  let last = 0;
  for (const region of regions) {
    out += text.slice(last, Math.max(last, region.start));
    last = Math.max(last, region.end);
    const blank = /^(?:[ \t]*\r?\n)+/.exec(text.slice(last));
    if (blank !== null && (out === '' || /\n[ \t]*\r?\n$/.test(out))) last += blank[0].length;
  }
  const rest = text.slice(last);
  if (rest === '' && regions.length > 0) return out.replace(/(\r?\n)(?:[ \t]*\r?\n)+$/, '$1');
  return out + rest;
}

/** Puts `block` at `at` (a line start or the end), with one blank line on each side where text continues. */
function insertBlock(text: string, at: number, block: string, eol: string): string {
  let before = text.slice(0, at);
  let after = text.slice(at);
  if (before !== '' && !before.endsWith('\n')) before += eol;
  before = before.replace(/(\r?\n)(?:[ \t]*\r?\n)+$/, '$1');
  if (before !== '') before += eol;
  after = after.replace(/^(?:[ \t]*\r?\n)+/, '');
  return `${before}${block}${after === '' ? '' : eol}${after}`;
}

const BARE_KEY = /^[A-Za-z0-9_-]+$/;

function tomlKey(key: string): string {
  return BARE_KEY.test(key) ? key : tomlString(key);
}

/** A TOML basic string: JSON's escapes are TOML's, plus DEL, which TOML requires escaped. */
function tomlString(value: string): string {
  return JSON.stringify(value).replace(/\x7f/g, '\\u007F');
}

function tomlValue(value: unknown): string {
  if (typeof value === 'string') return tomlString(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return `[${value.map(tomlValue).join(', ')}]`;
  if (isObject(value))
    return `{ ${Object.entries(value)
      .map(([key, item]) => `${tomlKey(key)} = ${tomlValue(item)}`)
      .join(', ')} }`;
  throw new TypeError(`cannot write ${typeof value} as TOML`);
}

/** `[a.b]` with its plain keys, then one `[a.b.key]` section per nested table. */
function renderTable(path: readonly string[], value: Record<string, unknown>, eol: string): string {
  const plain = Object.entries(value).filter(([, item]) => !isObject(item));
  const tables = Object.entries(value).filter(([, item]) => isObject(item));
  let out = `[${path.map(tomlKey).join('.')}]${eol}`;
  for (const [key, item] of plain) out += `${tomlKey(key)} = ${tomlValue(item)}${eol}`;
  for (const [key, item] of tables)
    out += eol + renderTable([...path, key], item as Record<string, unknown>, eol);
  return out;
}
