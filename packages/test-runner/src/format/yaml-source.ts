/**
 * A YAML document with positions: parses with the `yaml` package's Document API (so duplicate keys, tabs and
 * syntax errors are reported where they are) and answers "where is the node at this JSON Pointer" for errors.
 */
import { isMap, isPair, isScalar, isSeq, LineCounter, parseDocument, type Document, type Node } from 'yaml';
import type { SourceLocation } from '../model.js';

export class FileError extends Error {
  override readonly name = 'FileError';
  /** Each problem, `file:line:column: what is wrong`. */
  readonly problems: readonly string[];

  constructor(problems: readonly string[]) {
    super(problems.join('\n'));
    this.problems = problems;
  }
}

export class YamlSource {
  readonly file: string;
  readonly document: Document.Parsed;
  readonly #lines: LineCounter;

  private constructor(file: string, document: Document.Parsed, lines: LineCounter) {
    this.file = file;
    this.document = document;
    this.#lines = lines;
  }

  /** Parses `text`; throws a FileError listing every syntax problem with its position. */
  static parse(file: string, text: string): YamlSource {
    const lines = new LineCounter();
    const document = parseDocument(text, { lineCounter: lines, uniqueKeys: true, prettyErrors: false });
    const source = new YamlSource(file, document, lines);
    if (document.errors.length > 0) {
      throw new FileError(
        document.errors.map((error) => `${source.at(error.pos[0])}: ${error.message.split('\n')[0]}`),
      );
    }
    return source;
  }

  toJS(): unknown {
    return this.document.toJS({ maxAliasCount: 100 });
  }

  location(offset: number): SourceLocation {
    const { line, col } = this.#lines.linePos(offset);
    return { file: this.file, line, column: col };
  }

  at(offset: number): string {
    const { line, column } = this.location(offset);
    return `${this.file}:${line}:${column}`;
  }

  /** The node at a JSON Pointer, or the deepest ancestor that exists; with `key`, the key node of that member. */
  nodeAt(pointer: string | readonly (string | number)[], key?: string): Node | undefined {
    const segments =
      typeof pointer === 'string'
        ? pointer
            .split('/')
            .slice(1)
            .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
        : pointer.map(String);
    let node: unknown = this.document.contents;
    for (const segment of [...segments, ...(key === undefined ? [] : [key])]) {
      const isLast = key !== undefined && segment === key && segment === segments.concat(key).at(-1);
      let next: unknown;
      if (isMap(node)) {
        const pair = node.items.find(
          (item) => isPair(item) && isScalar(item.key) && String(item.key.value) === segment,
        );
        next = pair === undefined ? undefined : isLast ? pair.key : pair.value;
      } else if (isSeq(node)) next = node.items[Number(segment)];
      if (next === undefined || next === null) break;
      node = next;
    }
    return node as Node | undefined;
  }

  /** Where the node at `pointer` starts (the start of the file when nothing is there). */
  locate(pointer: string | readonly (string | number)[], key?: string): SourceLocation {
    const node = this.nodeAt(pointer, key);
    return this.location(node?.range?.[0] ?? 0);
  }

  where(pointer: string | readonly (string | number)[], key?: string): string {
    const { file, line, column } = this.locate(pointer, key);
    return `${file}:${line}:${column}`;
  }
}
