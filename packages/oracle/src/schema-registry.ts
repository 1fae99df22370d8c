/**
 * The official schemas of every revision (and the tasks extension), loaded on first use and kept.
 */
import { join } from 'node:path';
import { MethodCatalog } from './method-catalog.js';
import type { Revision, Side } from './revisions.js';
import { isSchemaNode, SchemaDocument } from './schema-document.js';
import { locateSpecDir } from './spec-dir.js';
import { WIRE_RULES, type WireRules } from './wire-rules.js';

export type Envelope = 'request' | 'notification' | 'result' | 'error';

/** A definition tied to an error code. */
export interface ErrorDefinition {
  readonly definition: string;
  /** `response`: the definition describes the whole error response; `error`: only its `error` member. */
  readonly scope: 'response' | 'error';
}

/** One revision's schema plus the facts the oracle derives from it. */
export class RevisionSchema {
  readonly revision: Revision;
  readonly document: SchemaDocument;
  readonly methods: MethodCatalog;
  readonly rules: WireRules;
  /** The definitions that validate each kind of JSON-RPC message (renamed in 2025-11-25). */
  readonly envelopes: Readonly<Record<Envelope, string>>;
  /** `JSONRPCMessage` admits arrays (only 2025-03-26 does). */
  readonly allowsBatches: boolean;
  /** `Result` requires `resultType` (2026-07-28 on). */
  readonly requiresResultType: boolean;
  readonly #errorDefinitions: ReadonlyMap<number, ErrorDefinition>;

  constructor(revision: Revision, document: SchemaDocument) {
    this.revision = revision;
    this.document = document;
    this.methods = MethodCatalog.ofRevision(document);
    this.rules = WIRE_RULES[revision];
    const pick = (...names: string[]): string => {
      const found = names.find((name) => document.has(name));
      if (found === undefined) throw new Error(`${document.path} defines none of ${names.join(', ')}`);
      return found;
    };
    this.envelopes = {
      request: pick('JSONRPCRequest'),
      notification: pick('JSONRPCNotification'),
      result: pick('JSONRPCResultResponse', 'JSONRPCResponse'),
      error: pick('JSONRPCErrorResponse', 'JSONRPCError'),
    };
    const message = document.definition('JSONRPCMessage');
    const members = Array.isArray(message?.['anyOf']) ? (message['anyOf'] as unknown[]) : [];
    this.allowsBatches = members.some((member) => isSchemaNode(member) && member['type'] === 'array');
    const required = document.definition('Result')?.['required'];
    this.requiresResultType = Array.isArray(required) && required.includes('resultType');
    this.#errorDefinitions = errorDefinitions(document);
  }

  /** The definition that validates errors with this code, if the schema has one. */
  errorDefinitionFor(code: number): ErrorDefinition | undefined {
    return this.#errorDefinitions.get(code);
  }

  /** The union every result sent by `sender` must match when the request it answers is unknown. */
  genericResult(sender: Side): string {
    return sender === 'server' ? 'ServerResult' : 'ClientResult';
  }
}

export interface SchemaRegistryOptions {
  /** The folder holding `<revision>/schema.json`; found with `locateSpecDir()` when omitted. */
  readonly specDir?: string;
}

export class SchemaRegistry {
  #specDir: string | undefined;
  readonly #revisions = new Map<Revision, RevisionSchema>();
  #tasks: MethodCatalog | undefined;

  constructor(options: SchemaRegistryOptions = {}) {
    this.#specDir = options.specDir;
  }

  /** Located on first use, so that merely importing this package never touches the file system. */
  get specDir(): string {
    return (this.#specDir ??= locateSpecDir());
  }

  revision(revision: Revision): RevisionSchema {
    let schema = this.#revisions.get(revision);
    if (!schema) {
      schema = new RevisionSchema(revision, SchemaDocument.load(join(this.specDir, revision, 'schema.json')));
      this.#revisions.set(revision, schema);
    }
    return schema;
  }

  /**
   * The tasks extension (`io.modelcontextprotocol/tasks`). Per tasks.md the client sends `tasks/get`,
   * `tasks/update` and `tasks/cancel`, and the server sends `notifications/tasks`.
   */
  tasksExtension(): MethodCatalog {
    this.#tasks ??= MethodCatalog.ofExtension(
      SchemaDocument.load(join(this.specDir, 'extensions', 'tasks', 'schema.json'), {
        labelPrefix: 'tasks:',
      }),
      { request: 'client', notification: 'server' },
    );
    return this.#tasks;
  }
}

/**
 * Error definitions by code. Two shapes occur in the schemas: the whole response with `error.allOf` pinning
 * the code (`HeaderMismatchError`, `URLElicitationRequiredError`), and the bare error object with `code.const`
 * (`ParseError`, `InvalidParamsError`…).
 */
function errorDefinitions(document: SchemaDocument): Map<number, ErrorDefinition> {
  const found = new Map<number, ErrorDefinition>();
  const codeOf = (node: unknown): unknown => {
    if (!isSchemaNode(node)) return undefined;
    const properties = node['properties'];
    const code = isSchemaNode(properties) ? properties['code'] : undefined;
    if (isSchemaNode(code) && typeof code['const'] === 'number') return code['const'];
    return Array.isArray(node['allOf']) ? node['allOf'].map(codeOf).find((c) => c !== undefined) : undefined;
  };
  for (const name of document.definitionNames) {
    const node = document.definition(name);
    const properties = node?.['properties'];
    const bare = codeOf(node);
    const wrapped = isSchemaNode(properties) ? codeOf(properties['error']) : undefined;
    if (typeof bare === 'number') found.set(bare, { definition: name, scope: 'error' });
    if (typeof wrapped === 'number') found.set(wrapped, { definition: name, scope: 'response' });
  }
  return found;
}
