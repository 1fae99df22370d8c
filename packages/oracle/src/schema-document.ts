/**
 * One official `schema.json`, read as data and compiled lazily, one definition at a time.
 *
 * The MCP schemas have no root schema: everything is a named definition (`#/definitions/<Name>` in the
 * draft-07 files, `#/$defs/<Name>` in the 2020-12 ones). A definition is compiled the first time something is
 * validated against it and the validator is kept, so a test run pays only for the definitions it touches.
 */
import { readFileSync } from 'node:fs';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

/** A JSON Schema node, read-only: the oracle inspects the schemas but never changes them. */
export type SchemaNode = { readonly [keyword: string]: unknown };

export class SchemaDocument {
  /** Where the document came from, for error messages. */
  readonly path: string;
  readonly #definitions: Readonly<Record<string, SchemaNode>>;
  /** `definitions` (draft-07) or `$defs` (2020-12). */
  readonly #defsKeyword: 'definitions' | '$defs';
  readonly #draft: 'draft-07' | '2020-12';
  readonly #raw: SchemaNode;
  /** Prefixed to definition names in reports (e.g. `tasks:`), empty for a core revision schema. */
  readonly #labelPrefix: string;
  #ajv: Ajv | undefined;
  readonly #validators = new Map<string, ValidateFunction>();

  constructor(raw: unknown, options: { path: string; labelPrefix?: string }) {
    this.path = options.path;
    this.#labelPrefix = options.labelPrefix ?? '';
    if (!isSchemaNode(raw)) throw new Error(`${this.path}: not a JSON Schema object`);
    this.#raw = raw;
    const dialect = typeof raw['$schema'] === 'string' ? raw['$schema'] : '';
    if (dialect.includes('draft-07')) this.#draft = 'draft-07';
    else if (dialect.includes('2020-12')) this.#draft = '2020-12';
    else throw new Error(`${this.path}: unsupported $schema ${JSON.stringify(dialect)}`);

    const defs = raw['$defs'] ?? raw['definitions'];
    if (!isSchemaNode(defs)) throw new Error(`${this.path}: no definitions`);
    this.#defsKeyword = raw['$defs'] !== undefined ? '$defs' : 'definitions';
    this.#definitions = defs as Readonly<Record<string, SchemaNode>>;
  }

  static load(path: string, options: { labelPrefix?: string } = {}): SchemaDocument {
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch (cause) {
      throw new Error(`Cannot read the MCP schema ${path}`, { cause });
    }
    return new SchemaDocument(JSON.parse(text), { path, ...options });
  }

  get definitionNames(): string[] {
    return Object.keys(this.#definitions);
  }

  has(name: string): boolean {
    return Object.hasOwn(this.#definitions, name);
  }

  /** The raw definition, or `undefined` if the document has none by that name. */
  definition(name: string): SchemaNode | undefined {
    return this.has(name) ? this.#definitions[name] : undefined;
  }

  /** The definition name a local `$ref` (`#/$defs/X`, `#/definitions/X`) points at. */
  refTarget(node: unknown): string | undefined {
    if (!isSchemaNode(node) || typeof node['$ref'] !== 'string') return undefined;
    const prefix = `#/${this.#defsKeyword}/`;
    const ref = node['$ref'];
    return ref.startsWith(prefix) ? decodeURIComponent(ref.slice(prefix.length)) : undefined;
  }

  /** How a definition is named in reports. */
  label(name: string): string {
    return this.#labelPrefix + name;
  }

  /**
   * Validates `data` against a definition. Returns readable errors (empty when valid); each error's path is
   * prefixed with `pathPrefix` so that it points into the whole message (e.g. `/result`).
   */
  validate(name: string, data: unknown, pathPrefix = ''): string[] {
    const validator = this.#validator(name);
    if (validator(data)) return [];
    return [...new Set((validator.errors ?? []).map((error) => describeError(error, pathPrefix)))];
  }

  #validator(name: string): ValidateFunction {
    const cached = this.#validators.get(name);
    if (cached) return cached;
    if (!this.has(name)) throw new Error(`${this.path} has no definition ${name}`);
    const ajv = (this.#ajv ??= this.#createAjv());
    const validator = ajv.getSchema(`${DOCUMENT_KEY}#/${this.#defsKeyword}/${encodeURIComponent(name)}`);
    if (!validator) throw new Error(`${this.path}: Ajv could not resolve ${name}`);
    this.#validators.set(name, validator);
    return validator;
  }

  #createAjv(): Ajv {
    const options = {
      // Schema problems (unknown keywords) fail loudly; data-shape heuristics would only print noise.
      strictSchema: true,
      strictTypes: false,
      strictTuples: false,
      strictRequired: false,
      allErrors: true,
    } as const;
    const ajv = this.#draft === '2020-12' ? new Ajv2020(options) : new Ajv(options);
    addFormats.default(ajv);
    // Registered under a fixed key, so `$ref`s resolve whether or not the document declares an `$id`.
    const { $id: _ignored, ...withoutId } = this.#raw;
    ajv.addSchema(withoutId, DOCUMENT_KEY);
    return ajv;
  }
}

const DOCUMENT_KEY = 'mcp-schema.json';

export function isSchemaNode(value: unknown): value is SchemaNode {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function describeError(error: ErrorObject, pathPrefix: string): string {
  const path = pathPrefix + error.instancePath || '/';
  const params = error.params as Record<string, unknown>;
  let detail = error.message ?? `fails ${error.keyword}`;
  if (error.keyword === 'const') detail += ` ${JSON.stringify(params['allowedValue'])}`;
  else if (error.keyword === 'enum') detail += ` ${JSON.stringify(params['allowedValues'])}`;
  else if (error.keyword === 'additionalProperties') detail += ` (${String(params['additionalProperty'])})`;
  return `${path} ${detail}`;
}
