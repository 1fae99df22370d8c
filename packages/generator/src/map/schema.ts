/**
 * OpenAPI schemas → portable JSON Schema 2020-12 for tool input and output. The description arrives
 * dereferenced (the parser resolved every `$ref` into a shared object graph); this walk inlines it with a cycle
 * guard, a depth limit and a size budget, and emits only keywords that our validator and the common model APIs
 * accept: no `$ref`/`$defs`, `nullable` → `"null"` in `type`, `oneOf` → `anyOf` (real descriptions overlap their
 * variants), mergeable `allOf` merged, discriminators dropped (the variants keep their own property constraints),
 * arrays always with `items`, regexes checked in Unicode mode, formats only where they mean something portable.
 */
import type { JsonSchemaObject, JsonValue } from '../runtime/model.js';

export type SchemaIo = 'input' | 'output';

export interface SchemaBudget {
  /** Subschemas left for this tool. */
  nodes: number;
}

export interface ConvertOptions {
  readonly io: SchemaIo;
  readonly maxDepth: number;
  /** Characters of a property description. */
  readonly descriptionChars: number;
}

const PORTABLE_FORMATS = new Set([
  'date-time',
  'date',
  'time',
  'email',
  'uri',
  'uuid',
  'ipv4',
  'ipv6',
  'hostname',
]);
const TYPES = new Set(['string', 'number', 'integer', 'boolean', 'array', 'object', 'null']);
const CUT_NOTE = 'nested value (not described further here; see the API documentation)';

type Raw = Record<string, unknown>;

function isObject(value: unknown): value is Raw {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function shorten(text: string, limit: number): string {
  const clean = text
    .replace(/<[^>]{1,200}>/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  if (clean.length <= limit) return clean;
  const cut = clean.slice(0, limit - 1);
  const space = cut.lastIndexOf(' ');
  return `${space > limit * 0.6 ? cut.slice(0, space) : cut}…`;
}

function validRegex(source: unknown): source is string {
  if (typeof source !== 'string' || source.length > 1000) return false;
  try {
    new RegExp(source, 'u');
    return true;
  } catch {
    return false;
  }
}

function isJsonValue(value: unknown, depth = 0): value is JsonValue {
  if (depth > 8) return false;
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return true;
  if (typeof value === 'number') return Number.isFinite(value);
  if (Array.isArray(value)) return value.every((v) => isJsonValue(v, depth + 1));
  if (isObject(value)) return Object.values(value).every((v) => isJsonValue(v, depth + 1));
  return false;
}

function typesOf(schema: Raw): string[] | undefined {
  const raw = schema['type'];
  let types: string[] | undefined;
  if (typeof raw === 'string') types = [raw === 'file' ? 'string' : raw];
  else if (Array.isArray(raw))
    types = raw.filter((t): t is string => typeof t === 'string').map((t) => (t === 'file' ? 'string' : t));
  types = types?.filter((t) => TYPES.has(t));
  if (types !== undefined && types.length === 0) types = undefined;
  if (types !== undefined && schema['nullable'] === true && !types.includes('null'))
    types = [...types, 'null'];
  return types;
}

export class SchemaConverter {
  readonly #options: ConvertOptions;
  readonly #budget: SchemaBudget;
  readonly #stack = new Set<object>();

  constructor(options: ConvertOptions, budget: SchemaBudget) {
    this.#options = options;
    this.#budget = budget;
  }

  /** Whether this schema describes a binary payload (a file). */
  static isBinary(schema: unknown): boolean {
    return (
      isObject(schema) &&
      (schema['type'] === 'file' ||
        (schema['type'] === 'string' && (schema['format'] === 'binary' || schema['format'] === 'byte')))
    );
  }

  convert(schema: unknown, depth = 0): JsonSchemaObject {
    if (schema === true || schema === undefined) return {};
    if (schema === false) return { not: {} };
    if (!isObject(schema)) return {};
    if (this.#stack.has(schema)) return { description: `recursive ${CUT_NOTE}` };
    if (depth > this.#options.maxDepth || this.#budget.nodes <= 0) return { description: CUT_NOTE };
    this.#budget.nodes--;
    this.#stack.add(schema);
    try {
      return this.#convert(schema, depth);
    } finally {
      this.#stack.delete(schema);
    }
  }

  #convert(schema: Raw, depth: number): JsonSchemaObject {
    const io = this.#options.io;
    const out: JsonSchemaObject = {};
    const notes: string[] = [];
    const types = typesOf(schema);
    const nullable = schema['nullable'] === true;
    if (types !== undefined) out['type'] = types.length === 1 ? types[0]! : types;

    // Combinators
    const allOf = Array.isArray(schema['allOf']) ? schema['allOf'] : undefined;
    const unions = [
      ...(Array.isArray(schema['oneOf']) ? schema['oneOf'] : []),
      ...(Array.isArray(schema['anyOf']) ? schema['anyOf'] : []),
    ];
    if (allOf !== undefined && allOf.length > 0) {
      const parts = allOf.map((part) => this.convert(part, depth + 1));
      const merged = mergeAll(parts);
      if (merged !== undefined) Object.assign(out, mergeInto(out, merged));
      else out['allOf'] = parts;
    }
    if (unions.length > 0) {
      const variants = unions.map((variant) => this.convert(variant, depth + 1));
      if (nullable && types === undefined) variants.push({ type: 'null' });
      // One variant (or all permissive) needs no union.
      if (
        variants.some(
          (v) => Object.keys(v).length === 0 || (Object.keys(v).length === 1 && 'description' in v),
        )
      ) {
        // A permissive variant makes the union accept anything.
      } else if (variants.length === 1) Object.assign(out, mergeInto(out, variants[0]!));
      else out['anyOf'] = variants;
    }
    if (isObject(schema['discriminator']) && typeof schema['discriminator']['propertyName'] === 'string')
      notes.push(`the "${schema['discriminator']['propertyName']}" property selects the variant`);
    if (schema['not'] !== undefined && io === 'input' && isObject(schema['not']))
      out['not'] = this.convert(schema['not'], depth + 1);

    // Objects
    if (isObject(schema['properties'])) {
      const properties: Record<string, JsonValue> = {};
      for (const [name, sub] of Object.entries(schema['properties'])) {
        if (
          isObject(sub) &&
          ((io === 'input' && sub['readOnly'] === true) || (io === 'output' && sub['writeOnly'] === true))
        )
          continue;
        properties[name] = this.convert(sub, depth + 1);
      }
      out['properties'] = properties;
      if (Array.isArray(schema['required']) && io === 'input') {
        const required = [
          ...new Set(schema['required'].filter((r): r is string => typeof r === 'string' && r in properties)),
        ];
        if (required.length > 0) out['required'] = required;
      }
    } else if (Array.isArray(schema['required']) && io === 'input' && schema['required'].length > 0) {
      // Beside a merged `allOf`, the names its parts declare (shipengine's body requires the `rate_options` an
      // allOf part declares); beside an unmerged one, as before, none.
      const declared = isObject(out['properties']) ? out['properties'] : undefined;
      const required =
        allOf === undefined
          ? schema['required'].filter((r): r is string => typeof r === 'string')
          : declared === undefined
            ? []
            : schema['required'].filter((r): r is string => typeof r === 'string' && r in declared);
      if (required.length > 0) out['required'] = mergeRequired(out['required'], required);
    }
    const additional = schema['additionalProperties'];
    if (additional === false) {
      // Not when union variants declare properties of their own: `additionalProperties` sees only the
      // properties beside it, so every variant would be refused (shipengine's `compare_bulk_rates` body).
      if (io === 'input' && !variantsAddProperties(out)) out['additionalProperties'] = false;
    } else if (isObject(additional) && Object.keys(additional).length > 0) {
      out['additionalProperties'] = this.convert(additional, depth + 1);
    }
    if (isObject(schema['patternProperties'])) {
      const patterns: Record<string, JsonValue> = {};
      for (const [pattern, sub] of Object.entries(schema['patternProperties']))
        if (validRegex(pattern)) patterns[pattern] = this.convert(sub, depth + 1);
      if (Object.keys(patterns).length > 0) out['patternProperties'] = patterns;
    }

    // Arrays: `items` is always present (OpenAI rejects arrays without it).
    const isArray = types?.includes('array') ?? false;
    if (Array.isArray(schema['prefixItems']))
      out['prefixItems'] = schema['prefixItems'].map((s) => this.convert(s, depth + 1));
    if (Array.isArray(schema['items'])) {
      // Draft-04-style tuple `items`: the first item schema stands for all.
      out['items'] = this.convert(schema['items'][0], depth + 1);
    } else if (schema['items'] !== undefined) out['items'] = this.convert(schema['items'], depth + 1);
    else if (isArray) out['items'] = {};

    // Validation keywords: inputs keep them; outputs are descriptive only (real APIs stray from their specs).
    if (io === 'input') {
      for (const key of [
        'minLength',
        'maxLength',
        'minItems',
        'maxItems',
        'minProperties',
        'maxProperties',
      ] as const) {
        const value = schema[key];
        if (typeof value === 'number' && Number.isInteger(value) && value >= 0) out[key] = value;
      }
      for (const key of ['minimum', 'maximum', 'multipleOf'] as const) {
        const value = schema[key];
        if (typeof value === 'number' && Number.isFinite(value) && (key !== 'multipleOf' || value > 0))
          out[key] = value;
      }
      // OpenAPI 3.0 booleans → 2020-12 numbers.
      for (const [key, bound] of [
        ['exclusiveMinimum', 'minimum'],
        ['exclusiveMaximum', 'maximum'],
      ] as const) {
        const value = schema[key];
        if (typeof value === 'number' && Number.isFinite(value)) out[key] = value;
        else if (value === true && typeof schema[bound] === 'number') {
          out[key] = schema[bound] as number;
          delete out[bound];
        }
      }
      if (schema['uniqueItems'] === true) out['uniqueItems'] = true;
      if (validRegex(schema['pattern'])) out['pattern'] = schema['pattern'];
      if (
        Array.isArray(schema['enum']) &&
        schema['enum'].length > 0 &&
        schema['enum'].every((v) => isJsonValue(v))
      ) {
        const values = [...(schema['enum'] as JsonValue[])];
        if (nullable && !values.includes(null)) values.push(null);
        out['enum'] = values;
      }
      if (schema['const'] !== undefined && isJsonValue(schema['const'])) out['const'] = schema['const'];
      const format = schema['format'];
      if (
        typeof format === 'string' &&
        PORTABLE_FORMATS.has(format) &&
        (types === undefined || types.includes('string'))
      )
        out['format'] = format;
    } else if (
      Array.isArray(schema['enum']) &&
      schema['enum'].length <= 20 &&
      schema['enum'].every((v) => typeof v === 'string')
    ) {
      notes.push(`one of ${(schema['enum'] as string[]).map((v) => JSON.stringify(v)).join(', ')}`);
    }
    if (SchemaConverter.isBinary(schema) && io === 'input')
      notes.push('file content: base64 (or a data: URL), or an http(s) URL to fetch it from');
    if (
      schema['default'] !== undefined &&
      isJsonValue(schema['default']) &&
      typeof schema['default'] !== 'object'
    )
      out['default'] = schema['default'];

    const description =
      typeof schema['description'] === 'string'
        ? schema['description']
        : typeof schema['title'] === 'string'
          ? schema['title']
          : '';
    if (schema['deprecated'] === true) notes.unshift('deprecated');
    const text = [description, ...notes].filter((part) => part.trim() !== '').join('; ');
    if (text !== '') out['description'] = shorten(text, this.#options.descriptionChars);
    return out;
  }
}

const MERGEABLE = new Set(['type', 'properties', 'required', 'description', 'additionalProperties']);

/** Merges `allOf` parts that are plain object schemas; undefined when any part is something else. */
function mergeAll(parts: readonly JsonSchemaObject[]): JsonSchemaObject | undefined {
  let merged: JsonSchemaObject = {};
  for (const part of parts) {
    if (!Object.keys(part).every((key) => MERGEABLE.has(key))) return undefined;
    if (part['type'] !== undefined && part['type'] !== 'object') return undefined;
    merged = mergeInto(merged, part);
  }
  return merged;
}

function mergeInto(base: JsonSchemaObject, extra: JsonSchemaObject): JsonSchemaObject {
  const out: JsonSchemaObject = { ...base };
  for (const [key, value] of Object.entries(extra)) {
    if (key === 'properties' && isObject(out['properties']) && isObject(value))
      out['properties'] = {
        ...(out['properties'] as Record<string, JsonValue>),
        ...(value as Record<string, JsonValue>),
      };
    else if (key === 'required' && Array.isArray(out['required']) && Array.isArray(value))
      out['required'] = [...new Set([...(out['required'] as string[]), ...(value as string[])])];
    else if (key === 'description' && typeof out['description'] === 'string') continue;
    else if (key === 'additionalProperties' && out['properties'] !== undefined && value === false) continue;
    else out[key] = value;
  }
  // `additionalProperties: false` from one part would reject the other parts' properties.
  if (out['additionalProperties'] === false && parts(extra, base)) delete out['additionalProperties'];
  return out;
}

function mergeRequired(existing: JsonValue | undefined, more: readonly string[]): string[] {
  return [...new Set([...(Array.isArray(existing) ? (existing as string[]) : []), ...more])];
}

/** Whether an `anyOf` beside the object's properties declares properties those do not. */
function variantsAddProperties(schema: JsonSchemaObject): boolean {
  const own = isObject(schema['properties']) ? schema['properties'] : {};
  return (
    Array.isArray(schema['anyOf']) &&
    schema['anyOf'].some(
      (variant) =>
        isObject(variant) &&
        isObject(variant['properties']) &&
        Object.keys(variant['properties']).some((name) => !(name in own)),
    )
  );
}

function parts(a: JsonSchemaObject, b: JsonSchemaObject): boolean {
  return a['properties'] !== undefined && b['properties'] !== undefined;
}

/**
 * Loosens an output schema: no `required`, `additionalProperties` allowed, and every typed value may be null —
 * a description promises a shape, and APIs answer with nulls and extra fields more often than not.
 */
export function loosen(schema: JsonValue): JsonValue {
  if (!isObject(schema)) return schema;
  const out: JsonSchemaObject = {};
  for (const [key, value] of Object.entries(schema as JsonSchemaObject)) {
    if (key === 'required' || (key === 'additionalProperties' && value === false)) continue;
    if (key === 'properties' && isObject(value)) {
      out[key] = Object.fromEntries(
        Object.entries(value as JsonSchemaObject).map(([k, v]) => [k, loosen(v)]),
      );
    } else if ((key === 'items' || key === 'additionalProperties' || key === 'not') && isObject(value))
      out[key] = loosen(value);
    else if ((key === 'anyOf' || key === 'allOf' || key === 'prefixItems') && Array.isArray(value))
      out[key] = value.map(loosen);
    else if (key === 'patternProperties' && isObject(value))
      out[key] = Object.fromEntries(
        Object.entries(value as JsonSchemaObject).map(([k, v]) => [k, loosen(v)]),
      );
    else out[key] = value;
  }
  const type = out['type'];
  if (typeof type === 'string' && type !== 'null') out['type'] = [type, 'null'];
  else if (Array.isArray(type) && !type.includes('null')) out['type'] = [...type, 'null'];
  // An integer field holding 2.5 is a description error we need not enforce on answers.
  if (Array.isArray(out['type']))
    out['type'] = [...new Set((out['type'] as string[]).map((t) => (t === 'integer' ? 'number' : t)))];
  delete out['not'];
  return out;
}
