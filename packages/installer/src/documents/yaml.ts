/**
 * YAML files (Goose `config.yaml`), edited through the `yaml` Document API, which keeps comments, key order and
 * scalar styles of everything it does not touch. Lines are never folded.
 */
import { isMap, parseDocument, type Document } from 'yaml';
import { ConfigParseError, InstallerError } from '../model.js';
import { getIn, type ConfigDocument, type KeyPath } from './document.js';

export class YamlDocument implements ConfigDocument {
  readonly file: string;
  readonly format = 'yaml' as const;
  readonly #document: Document;

  constructor(file: string, text: string) {
    this.file = file;
    this.#document = parseDocument(text, { uniqueKeys: true, prettyErrors: false });
    const [error] = this.#document.errors;
    if (error !== undefined) {
      const position = error.linePos?.[0] ?? { line: 1, col: 1 };
      throw new ConfigParseError(
        file,
        position.line,
        position.col,
        `not valid YAML (${error.code}: ${firstLine(error.message)})`,
      );
    }
    if (this.#document.contents !== null && !isMap(this.#document.contents))
      throw new ConfigParseError(file, 1, 1, 'the top level is not a YAML mapping');
  }

  data(): unknown {
    return this.#document.toJS() ?? {};
  }

  get(path: KeyPath): unknown {
    return getIn(this.data(), path);
  }

  set(path: KeyPath, value: unknown): void {
    if (this.#document.contents === null) this.#document.contents = this.#document.createNode({});
    for (let depth = 1; depth < path.length; depth++) {
      const above = this.#document.getIn(path.slice(0, depth), true);
      if (above !== undefined && !isMap(above))
        throw new InstallerError(`${this.file}: "${path.slice(0, depth).join('.')}" is not a mapping`);
    }
    this.#document.setIn(path, this.#document.createNode(value));
  }

  delete(path: KeyPath): void {
    if (this.#document.hasIn(path)) this.#document.deleteIn(path);
  }

  text(): string {
    if (this.#document.contents === null) return '';
    return this.#document.toString({ lineWidth: 0 });
  }
}

function firstLine(text: string): string {
  return text.split('\n')[0]!;
}
