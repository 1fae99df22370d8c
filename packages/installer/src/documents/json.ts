/**
 * JSON and JSONC files, edited surgically: `jsonc-parser` finds the nodes and their offsets, and only the entry's
 * own text is replaced, inserted or removed (its own formatter would also reformat neighbouring lines). New
 * values are indented like the file (tabs or N spaces, LF or CRLF). Strict JSON files (clients that read plain
 * JSON) refuse comments and trailing commas, since the client would refuse them too.
 */
import {
  applyEdits,
  findNodeAtLocation,
  modify,
  parseTree,
  printParseErrorCode,
  type Node,
  type ParseError,
} from 'jsonc-parser';
import { ConfigParseError, InstallerError } from '../model.js';
import {
  detectEol,
  getIn,
  isObject,
  lineColumn,
  type ConfigDocument,
  type ConfigFormat,
  type KeyPath,
} from './document.js';

const WIDTH = 100;

export class JsonDocument implements ConfigDocument {
  readonly file: string;
  readonly format: ConfigFormat;
  #text: string;
  #root: Node | undefined;
  readonly #eol: string;
  readonly #unit: string;

  constructor(file: string, text: string, format: 'json' | 'jsonc') {
    this.file = file;
    this.format = format;
    this.#text = text;
    this.#root = this.#parse(text);
    this.#eol = detectEol(text);
    this.#unit = detectIndentUnit(text);
  }

  #parse(text: string): Node | undefined {
    const errors: ParseError[] = [];
    const strict = this.format === 'json';
    const root = parseTree(text, errors, {
      allowTrailingComma: !strict,
      disallowComments: strict,
      allowEmptyContent: true,
    });
    const [first] = errors;
    if (first !== undefined) {
      const { line, column } = lineColumn(text, first.offset);
      const reason = describeJsonError(printParseErrorCode(first.error));
      throw new ConfigParseError(
        this.file,
        line,
        column,
        strict ? `${reason} (this client reads strict JSON)` : reason,
      );
    }
    if (root !== undefined && root.type !== 'object') {
      const { line, column } = lineColumn(text, root.offset);
      throw new ConfigParseError(this.file, line, column, 'the top level is not a JSON object');
    }
    return root;
  }

  data(): unknown {
    return this.#root === undefined ? {} : nodeValue(this.#root);
  }

  get(path: KeyPath): unknown {
    return getIn(this.data(), path);
  }

  text(): string {
    return this.#text;
  }

  set(path: KeyPath, value: unknown): void {
    const text = this.#text;
    const root = this.#root;
    if (root === undefined) {
      // Empty (or comments only): the object goes after whatever is there.
      const object = this.#format(nest(path, value), '');
      const separator = text === '' || /\n\s*$/.test(text) ? '' : this.#eol;
      this.#update(`${text}${separator}${object}${this.#eol}`);
      return;
    }
    // The deepest existing object on the path.
    let parent = root;
    let depth = 0;
    for (; depth < path.length; depth++) {
      const property = propertyOf(parent, path[depth]!);
      if (property === undefined) break;
      const child = property.children?.[1];
      if (depth === path.length - 1) {
        if (child === undefined) break;
        const indent = lineIndent(text, property.offset);
        this.#splice(child.offset, child.offset + child.length, this.#format(value, indent));
        return;
      }
      if (child?.type !== 'object')
        throw new InstallerError(
          `${this.file}: ${JSON.stringify(path.slice(0, depth + 1).join('.'))} is not an object; fix the file or move it away`,
        );
      parent = child;
    }
    const key = path[depth]!;
    const inserted = nest(path.slice(depth + 1), value);
    this.#insertProperty(parent, key, inserted);
  }

  #insertProperty(object: Node, key: string, value: unknown): void {
    const text = this.#text;
    const properties = object.children ?? [];
    const last = properties.at(-1);
    if (last !== undefined) {
      const startsLine = /^[ \t]*$/.test(text.slice(lineStart(text, last.offset), last.offset));
      const end = last.offset + last.length;
      if (!startsLine) {
        // A one-line object: add the property on the same line, compactly.
        this.#splice(end, end, `, ${JSON.stringify(key)}: ${JSON.stringify(value)}`);
        return;
      }
      const indent = lineIndent(text, last.offset);
      this.#splice(end, end, `,${this.#eol}${indent}${JSON.stringify(key)}: ${this.#format(value, indent)}`);
      return;
    }
    const outer = lineIndent(text, object.offset);
    const inner = outer + this.#unit;
    const body = `${this.#eol}${inner}${JSON.stringify(key)}: ${this.#format(value, inner)}${this.#eol}${outer}`;
    const open = object.offset + 1;
    const close = object.offset + object.length - 1;
    if (/^\s*$/.test(text.slice(open, close))) this.#splice(open, close, body);
    else this.#splice(open, open, body.slice(0, body.length - outer.length - this.#eol.length) + ',');
  }

  delete(path: KeyPath): void {
    if (this.#root === undefined || findNodeAtLocation(this.#root, [...path]) === undefined) return;
    const edits = modify(this.#text, [...path], undefined, {});
    this.#update(applyEdits(this.#text, edits));
  }

  #format(value: unknown, indent: string): string {
    return formatJson(value, this.#unit, indent, this.#eol);
  }

  #splice(start: number, end: number, replacement: string): void {
    this.#update(this.#text.slice(0, start) + replacement + this.#text.slice(end));
  }

  #update(text: string): void {
    this.#root = this.#parse(text);
    this.#text = text;
  }
}

function propertyOf(object: Node, key: string): Node | undefined {
  return object.children?.find((property) => property.children?.[0]?.value === key);
}

function nest(path: KeyPath, value: unknown): unknown {
  return path.reduceRight<unknown>((inner, key) => ({ [key]: inner }), value);
}

/** The node as plain data; a later duplicate key wins, as in JSON.parse. */
function nodeValue(node: Node): unknown {
  switch (node.type) {
    case 'object': {
      const object: Record<string, unknown> = {};
      for (const property of node.children ?? []) {
        const [key, value] = property.children ?? [];
        if (key !== undefined && value !== undefined) {
          Object.defineProperty(object, String(key.value), {
            value: nodeValue(value),
            enumerable: true,
            writable: true,
            configurable: true,
          });
        }
      }
      return object;
    }
    case 'array':
      return (node.children ?? []).map(nodeValue);
    default:
      return node.value;
  }
}

function lineStart(text: string, offset: number): number {
  return text.lastIndexOf('\n', offset - 1) + 1;
}

function lineIndent(text: string, offset: number): string {
  return /^[ \t]*/.exec(text.slice(lineStart(text, offset), offset))![0];
}

/** The file's indentation unit: a tab, or the smallest run of leading spaces (default two). */
export function detectIndentUnit(text: string): string {
  let smallest = Infinity;
  for (const line of text.split('\n')) {
    const match = /^([ \t]+)\S/.exec(line);
    if (match === null) continue;
    if (match[1]!.startsWith('\t')) return '\t';
    smallest = Math.min(smallest, match[1]!.length);
  }
  return smallest === Infinity ? '  ' : ' '.repeat(smallest);
}

/** Objects one key a line; arrays of plain values on one line when they fit, like hand-written configs. */
export function formatJson(value: unknown, unit: string, indent: string, eol = '\n'): string {
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    const flat = `[${value.map((item) => JSON.stringify(item)).join(', ')}]`;
    if (
      value.every((item) => !isObject(item) && !Array.isArray(item)) &&
      indent.length + flat.length <= WIDTH
    )
      return flat;
    const inner = indent + unit;
    return `[${eol}${value.map((item) => inner + formatJson(item, unit, inner, eol)).join(`,${eol}`)}${eol}${indent}]`;
  }
  if (isObject(value)) {
    const entries = Object.entries(value);
    if (entries.length === 0) return '{}';
    const inner = indent + unit;
    return `{${eol}${entries
      .map(([key, item]) => `${inner}${JSON.stringify(key)}: ${formatJson(item, unit, inner, eol)}`)
      .join(`,${eol}`)}${eol}${indent}}`;
  }
  return JSON.stringify(value);
}

function describeJsonError(code: string): string {
  switch (code) {
    case 'InvalidCommentToken':
      return 'a comment, which this file may not contain';
    case 'PropertyNameExpected':
    case 'ValueExpected':
      return `not valid JSON (${code}; a trailing comma?)`;
    default:
      return `not valid JSON (${code})`;
  }
}
