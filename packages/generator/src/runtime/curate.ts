/**
 * Curation of generated operations, for `src/custom/`: a few operations become tools named and described for
 * models (the arguments a model needs, a compact output schema); every other operation can stay reachable behind
 * discover_tools / call_operation. A project's customize.ts keeps only its table of curations; the helpers live
 * here so that every generated project gets the same ones (and their fixes) on regeneration.
 */
import type { JsonSchemaObject, JsonValue, OperationTool } from './model.js';

export interface Curation {
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly annotations: OperationTool['annotations'];
  /** The arguments a model needs (arguments the description requires always stay). Default: all. */
  readonly keep?: readonly string[];
  /** Fixed path values: the argument disappears and its value is written into the path. */
  readonly fixed?: Readonly<Record<string, string>>;
  /** Arguments whose schema keeps only its type and description (deep schemas the API validates anyway). */
  readonly loosen?: readonly string[];
  /** `shallow` (default): the output schema keeps its top-level properties and their types only. */
  readonly output?: 'shallow' | 'full' | 'none';
}

export const READ = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true };
export const CREATE = {
  readOnlyHint: false,
  destructiveHint: false,
  idempotentHint: false,
  openWorldHint: true,
};
export const UPDATE = {
  readOnlyHint: false,
  destructiveHint: true,
  idempotentHint: true,
  openWorldHint: true,
};
export const DELETE = {
  readOnlyHint: false,
  destructiveHint: true,
  idempotentHint: true,
  openWorldHint: true,
};

/**
 * The top level of an object schema: each property keeps its `type`; descriptions and nested structure are
 * dropped. Every value valid against the full schema stays valid (constraints only loosen), and `tools/list`
 * stops paying for deep schemas a model never needs to read.
 */
export function shallowSchema(schema: JsonSchemaObject | undefined): JsonSchemaObject | undefined {
  if (schema === undefined || schema['type'] !== 'object') return undefined;
  const properties = (schema['properties'] ?? {}) as Record<string, JsonSchemaObject>;
  const top: Record<string, JsonValue> = {};
  for (const [key, value] of Object.entries(properties)) {
    const property: Record<string, JsonValue> = {};
    if (value['type'] !== undefined) property['type'] = value['type'];
    top[key] = property;
  }
  return {
    type: 'object',
    properties: top,
    ...(Array.isArray(schema['required']) ? { required: schema['required'] } : {}),
  };
}

/** Removes arguments (and their bindings), writing fixed values into the path. */
export function withoutArgs(
  tool: OperationTool,
  dropped: readonly string[],
  fixed: Readonly<Record<string, string>> = {},
): OperationTool {
  const names = new Set([...dropped, ...Object.keys(fixed)]);
  const gone = new Set([
    ...tool.params.filter((param) => names.has(param.name)).map((param) => param.arg),
    ...dropped,
  ]);
  const schema = tool.inputSchema as { properties?: Record<string, JsonValue>; required?: string[] };
  let path = tool.path;
  for (const [name, value] of Object.entries(fixed))
    path = path.replace(`{${name}}`, encodeURIComponent(value));
  const body = tool.body;
  return {
    ...tool,
    path,
    params: tool.params.filter((param) => !gone.has(param.arg)),
    ...(body?.properties === undefined
      ? {}
      : { body: { ...body, properties: body.properties.filter(([arg]) => !gone.has(arg)) } }),
    inputSchema: {
      ...tool.inputSchema,
      properties: Object.fromEntries(
        Object.entries(schema.properties ?? {}).filter(([arg]) => !gone.has(arg)),
      ),
      required: (schema.required ?? []).filter((arg) => !gone.has(arg)),
    } as JsonSchemaObject,
  };
}

/** Applies a curation to a generated tool. */
export function applyCuration(tool: OperationTool, curation: Curation): OperationTool {
  const fixedTool = withoutArgs(tool, [], curation.fixed);
  const schema = fixedTool.inputSchema as { properties?: Record<string, JsonValue>; required?: string[] };
  const keep =
    curation.keep === undefined ? undefined : new Set([...curation.keep, ...(schema.required ?? [])]);
  const dropped = Object.keys(schema.properties ?? {}).filter((arg) => keep !== undefined && !keep.has(arg));
  // Pagination stays when its argument is kept (max_pages follows the cursor for the model).
  const curated = withoutArgs(fixedTool, dropped);
  const output =
    curation.output === 'none'
      ? undefined
      : curation.output === 'full'
        ? curated.outputSchema
        : shallowSchema(curated.outputSchema);
  const { outputSchema: _full, pagination, ...rest } = loosen(curated, curation.loosen ?? []);
  const keepPagination = pagination !== undefined && (keep === undefined || keep.has(pagination.arg));
  return {
    ...rest,
    ...(keepPagination ? { pagination } : {}),
    ...(output === undefined ? {} : { outputSchema: output }),
    name: curation.name,
    title: curation.title,
    description: curation.description,
    annotations: { title: curation.title, ...curation.annotations },
  };
}

/** Replaces the schema of some arguments by their type and description. */
function loosen(tool: OperationTool, args: readonly string[]): OperationTool {
  if (args.length === 0) return tool;
  const properties = { ...((tool.inputSchema['properties'] ?? {}) as Record<string, JsonSchemaObject>) };
  for (const arg of args) {
    const schema = properties[arg];
    if (schema === undefined) continue;
    properties[arg] = {
      ...(schema['type'] === undefined ? {} : { type: schema['type'] }),
      ...(typeof schema['description'] === 'string' ? { description: schema['description'] } : {}),
    };
  }
  return { ...tool, inputSchema: { ...tool.inputSchema, properties } };
}
