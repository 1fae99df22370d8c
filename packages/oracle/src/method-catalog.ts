/**
 * Which methods a schema defines, who may send them, and which definitions validate them and their results, all
 * read off the schema itself.
 */
import type { Side } from './revisions.js';
import { isSchemaNode, type SchemaDocument, type SchemaNode } from './schema-document.js';
import { EMPTY_RESULT_METHODS } from './wire-rules.js';

export type MethodKind = 'request' | 'notification';

type MethodTable = Record<MethodKind, Record<Side, ReadonlyMap<string, string>>>;

/** The union definitions that say who may send what. */
const UNIONS: Record<MethodKind, Record<Side, string>> = {
  request: { client: 'ClientRequest', server: 'ServerRequest' },
  notification: { client: 'ClientNotification', server: 'ServerNotification' },
};

export class MethodCatalog {
  readonly document: SchemaDocument;
  readonly #methods: MethodTable;

  private constructor(document: SchemaDocument, methods: MethodTable) {
    this.document = document;
    this.#methods = methods;
  }

  /** A core revision schema: methods come from the `Client…`/`Server…` request and notification unions. */
  static ofRevision(document: SchemaDocument): MethodCatalog {
    const table = (kind: MethodKind, side: Side): Map<string, string> => {
      const methods = new Map<string, string>();
      for (const name of unionMembers(document, UNIONS[kind][side])) {
        const method = methodOf(document.definition(name));
        if (method !== undefined) methods.set(method, name);
      }
      return methods;
    };
    return new MethodCatalog(document, {
      request: { client: table('request', 'client'), server: table('request', 'server') },
      notification: { client: table('notification', 'client'), server: table('notification', 'server') },
    });
  }

  /**
   * An extension schema, which has no sender unions. Its wire messages are the definitions composed from
   * `JSONRPCRequest`/`JSONRPCNotification` (the bare `{method, params}` ones are embedded input requests);
   * who sends them comes from the extension's prose and is passed in.
   */
  static ofExtension(document: SchemaDocument, senders: Record<MethodKind, Side>): MethodCatalog {
    const empty = (): Map<string, string> => new Map();
    const methods: Record<MethodKind, Record<Side, Map<string, string>>> = {
      request: { client: empty(), server: empty() },
      notification: { client: empty(), server: empty() },
    };
    const envelopes: Record<string, MethodKind> = {
      JSONRPCRequest: 'request',
      JSONRPCNotification: 'notification',
    };
    for (const name of document.definitionNames) {
      const node = document.definition(name);
      const parts = Array.isArray(node?.['allOf']) ? (node['allOf'] as unknown[]) : [];
      const kind = parts
        .map((part) => envelopes[document.refTarget(part) ?? ''])
        .find((k) => k !== undefined);
      const method = methodOf(node);
      if (kind !== undefined && method !== undefined) methods[kind][senders[kind]].set(method, name);
    }
    return new MethodCatalog(document, methods);
  }

  /** The definition of `method` when sent by `sender`, or `undefined` if the schema does not allow it. */
  definitionFor(kind: MethodKind, sender: Side, method: string): string | undefined {
    return this.#methods[kind][sender].get(method);
  }

  /** Who may send `method` (empty if nobody may). */
  sendersOf(kind: MethodKind, method: string): Side[] {
    return (['client', 'server'] as const).filter((side) => this.#methods[kind][side].has(method));
  }

  methods(kind: MethodKind, sender: Side): string[] {
    return [...this.#methods[kind][sender].keys()];
  }

  /** The union that lists what `sender` may send; named in reports of a method it may not. */
  unionName(kind: MethodKind, sender: Side): string {
    return UNIONS[kind][sender];
  }

  /**
   * The definition of the result answering `method`: `<X>Result` for a `<X>Request`, `EmptyResult` for the few
   * requests without a result of their own. `undefined` if the method is unknown here.
   */
  resultDefinitionFor(method: string): string | undefined {
    const request = this.#requestDefinition(method);
    if (request === undefined) return undefined;
    if (EMPTY_RESULT_METHODS.has(method) && this.document.has('EmptyResult')) return 'EmptyResult';
    const result = request.replace(/Request$/, 'Result');
    return result !== request && this.document.has(result) ? result : undefined;
  }

  /** The method whose result `definition` is; the reverse of `resultDefinitionFor`. */
  methodAnsweredBy(definition: string): string | undefined {
    for (const side of ['client', 'server'] as const) {
      for (const method of this.#methods.request[side].keys()) {
        if (this.resultDefinitionFor(method) === definition) return method;
      }
    }
    return undefined;
  }

  /**
   * Whether `method` may be answered with an `InputRequiredResult` (2026-07-28 multi round-trip requests). The
   * generic `ServerResult` admits it anywhere; the method's own `<X>ResultResponse` says where it really may.
   */
  admitsInputRequired(method: string): boolean {
    const response = this.document.definition(`${this.resultDefinitionFor(method) ?? ''}Response`);
    const result = isSchemaNode(response?.['properties']) ? response['properties']['result'] : undefined;
    const members = isSchemaNode(result) ? [result, ...branches(result)] : [];
    return members.some((member) => this.document.refTarget(member) === 'InputRequiredResult');
  }

  /** Whether the request's params accept `task` (2025-11-25 task augmentation): it may then be answered by `CreateTaskResult`. */
  acceptsTask(method: string): boolean {
    const request = this.document.definition(this.#requestDefinition(method) ?? '');
    const params = this.#resolve(
      isSchemaNode(request?.['properties']) ? request['properties']['params'] : undefined,
    );
    const variants = [params, ...branches(params).map((branch) => this.#resolve(branch))];
    return variants.some((node) => isSchemaNode(node?.['properties']) && 'task' in node['properties']);
  }

  #requestDefinition(method: string): string | undefined {
    return this.#methods.request.client.get(method) ?? this.#methods.request.server.get(method);
  }

  #resolve(node: unknown): SchemaNode | undefined {
    const target = this.document.refTarget(node);
    if (target !== undefined) return this.document.definition(target);
    return isSchemaNode(node) ? node : undefined;
  }
}

/** The definitions a union lists. A union of one may be collapsed to its member (2026-07-28 `ClientNotification`). */
function unionMembers(document: SchemaDocument, union: string): string[] {
  const node = document.definition(union);
  if (node === undefined) return [];
  const members = branches(node);
  if (members.length > 0) return members.flatMap((member) => document.refTarget(member) ?? []);
  return [document.refTarget(node) ?? union];
}

function branches(node: SchemaNode | undefined): unknown[] {
  const list = node?.['anyOf'] ?? node?.['oneOf'];
  return Array.isArray(list) ? list : [];
}

/** The method a definition fixes with `const` (or a one-value `enum`), looking through `allOf`. */
export function methodOf(node: SchemaNode | undefined): string | undefined {
  if (node === undefined) return undefined;
  const properties = node['properties'];
  const method = isSchemaNode(properties) ? properties['method'] : undefined;
  if (isSchemaNode(method)) {
    if (typeof method['const'] === 'string') return method['const'];
    const values = method['enum'];
    if (Array.isArray(values) && values.length === 1 && typeof values[0] === 'string') return values[0];
  }
  const parts = node['allOf'];
  if (!Array.isArray(parts)) return undefined;
  for (const part of parts) {
    const found = isSchemaNode(part) ? methodOf(part) : undefined;
    if (found !== undefined) return found;
  }
  return undefined;
}
