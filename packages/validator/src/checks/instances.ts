/**
 * Arguments built from a tool's input schema: a small valid instance (to call a tool as its own schema says
 * it may be called) and an invalid one (to see how the server reports invalid input). Every instance is checked
 * against the schema with the engine's validator before use, so a generator shortcut can never turn into a
 * false verdict: when no instance is found, the check is reported as not run.
 */
import { checkSchema, compileSchema, type Dialect, type JsonSchema } from 'mcpengine/schema';
import { isObject, type JsonObject } from '@mcpengine/wire';

export type SchemaVerdict =
  | { readonly ok: true; readonly dialect: Dialect }
  | { readonly ok: false; readonly problem: string }
  | { readonly ok: 'unsupported'; readonly problem: string };

const DRAFT_07 = /^https?:\/\/json-schema\.org\/draft-07\/schema#?$/;
const DRAFT_2020 = /^https?:\/\/json-schema\.org\/draft\/2020-12\/schema#?$/;

/**
 * Whether `schema` is a valid JSON Schema of its declared dialect, or of the default one (2020-12 from
 * 2025-11-25 on; before that the spec named none, so either supported dialect will do).
 */
export function judgeSchema(schema: unknown, defaultDialect: Dialect | 'either'): SchemaVerdict {
  if (!isObject(schema) && typeof schema !== 'boolean')
    return { ok: false, problem: 'not a JSON Schema object' };
  const declared = isObject(schema) ? schema['$schema'] : undefined;
  if (
    declared !== undefined &&
    (typeof declared !== 'string' || !(DRAFT_07.test(declared) || DRAFT_2020.test(declared)))
  ) {
    return {
      ok: 'unsupported',
      problem: `declares the dialect ${JSON.stringify(declared)}, which the validator cannot check`,
    };
  }
  const candidates: Dialect[] =
    declared !== undefined
      ? [DRAFT_07.test(declared as string) ? 'draft-07' : '2020-12']
      : defaultDialect === 'either'
        ? ['2020-12', 'draft-07']
        : [defaultDialect];
  let firstProblem = '';
  for (const dialect of candidates) {
    const issues = checkSchema(schema as JsonSchema, { defaultDialect: dialect });
    if (issues.length === 0) {
      try {
        compileSchema(schema as JsonSchema, { defaultDialect: dialect });
        return { ok: true, dialect };
      } catch (error) {
        firstProblem ||= error instanceof Error ? error.message : String(error);
        continue;
      }
    }
    firstProblem ||= issues
      .slice(0, 3)
      .map((issue) => `${issue.instancePath === '' ? '(root)' : issue.instancePath}: ${issue.message}`)
      .join('; ');
  }
  return { ok: false, problem: firstProblem };
}

/** Whether `value` validates against `schema` (`undefined` when the schema cannot be compiled). */
export function validates(
  schema: unknown,
  value: unknown,
  dialect: Dialect = '2020-12',
): { valid: boolean; issues: string[] } | undefined {
  try {
    const validator = compileSchema(schema as JsonSchema, { defaultDialect: dialect });
    const result = validator.validate(value);
    return result.valid
      ? { valid: true, issues: [] }
      : {
          valid: false,
          issues: result.issues
            .slice(0, 3)
            .map((i) => `${i.instancePath === '' ? '(root)' : i.instancePath}: ${i.message}`),
        };
  } catch {
    return undefined;
  }
}

type Schema = JsonObject;

function resolveLocal(root: Schema, schema: Schema, depth: number): Schema {
  const ref = schema['$ref'];
  if (typeof ref !== 'string' || depth > 10) return schema;
  const match = /^#\/(\$defs|definitions)\/(.+)$/.exec(ref);
  const defs = match ? root[match[1]!] : undefined;
  const target = match && isObject(defs) ? defs[decodeURIComponent(match[2]!)] : undefined;
  return isObject(target) ? resolveLocal(root, target, depth + 1) : schema;
}

/** A small instance of `schema`: required members only, lower bounds, first choices. */
export function sampleInstance(root: Schema, schema: unknown = root, depth = 0): unknown {
  if (depth > 12 || schema === true) return {};
  if (!isObject(schema)) return undefined;
  const node = resolveLocal(root, schema, 0);
  if ('const' in node) return node['const'];
  if (Array.isArray(node['enum']) && node['enum'].length > 0) return node['enum'][0];
  if ('default' in node) return node['default'];
  if (Array.isArray(node['examples']) && node['examples'].length > 0) return node['examples'][0];
  for (const key of ['anyOf', 'oneOf'] as const) {
    const branches = node[key];
    if (Array.isArray(branches) && branches.length > 0) return sampleInstance(root, branches[0], depth + 1);
  }
  if (Array.isArray(node['allOf'])) {
    const merged: Schema = {};
    for (const part of node['allOf']) {
      const value = sampleInstance(root, part, depth + 1);
      if (isObject(value)) Object.assign(merged, value);
    }
    return merged;
  }
  const type = Array.isArray(node['type']) ? node['type'][0] : node['type'];
  switch (type) {
    case 'object':
    case undefined: {
      if (type === undefined && !isObject(node['properties'])) return {};
      const out: JsonObject = {};
      const properties = isObject(node['properties']) ? node['properties'] : {};
      const required = Array.isArray(node['required']) ? node['required'] : [];
      for (const name of required) {
        if (typeof name === 'string') out[name] = sampleInstance(root, properties[name] ?? {}, depth + 1);
      }
      return out;
    }
    case 'string': {
      const min = typeof node['minLength'] === 'number' ? node['minLength'] : 1;
      const format = node['format'];
      if (format === 'uri' || format === 'url') return 'https://example.com/';
      if (format === 'email') return 'validator@example.com';
      if (format === 'date-time') return '2026-01-01T00:00:00Z';
      if (format === 'date') return '2026-01-01';
      if (format === 'uuid') return '00000000-0000-4000-8000-000000000000';
      return 'x'.repeat(Math.max(1, min));
    }
    case 'integer':
    case 'number': {
      const minimum = typeof node['minimum'] === 'number' ? node['minimum'] : undefined;
      const exclusive =
        typeof node['exclusiveMinimum'] === 'number' ? node['exclusiveMinimum'] + 1 : undefined;
      const value = exclusive ?? minimum ?? 1;
      return type === 'integer' ? Math.ceil(value) : value;
    }
    case 'boolean':
      return false;
    case 'null':
      return null;
    case 'array': {
      const min = typeof node['minItems'] === 'number' ? node['minItems'] : 0;
      return Array.from({ length: min }, () => sampleInstance(root, node['items'] ?? {}, depth + 1));
    }
    default:
      return undefined;
  }
}

/** Arguments that the schema rejects, and what makes them invalid. */
export function invalidInstance(schema: Schema): { value: JsonObject; why: string } | undefined {
  const properties = isObject(schema['properties']) ? schema['properties'] : {};
  const required = Array.isArray(schema['required'])
    ? schema['required'].filter((r): r is string => typeof r === 'string')
    : [];
  if (required.length > 0)
    return { value: {}, why: `the required argument(s) ${required.join(', ')} are missing` };
  for (const [name, property] of Object.entries(properties)) {
    const type = isObject(property) ? property['type'] : undefined;
    if (type === 'string')
      return { value: { [name]: 12345 }, why: `${name} is a number, the schema wants a string` };
    if (type === 'number' || type === 'integer')
      return { value: { [name]: 'not-a-number' }, why: `${name} is a string, the schema wants a ${type}` };
    if (type === 'boolean')
      return { value: { [name]: 'yes' }, why: `${name} is a string, the schema wants a boolean` };
    if (type === 'array')
      return { value: { [name]: 'not-an-array' }, why: `${name} is a string, the schema wants an array` };
    if (type === 'object')
      return { value: { [name]: 'not-an-object' }, why: `${name} is a string, the schema wants an object` };
  }
  if (schema['additionalProperties'] === false) {
    return {
      value: { validator_unexpected_argument: 1 },
      why: 'an argument the schema does not allow (additionalProperties: false)',
    };
  }
  return undefined;
}
