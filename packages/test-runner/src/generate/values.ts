/**
 * Values from JSON Schemas: a plausible valid value for a (sub)schema, and the knobs the case generator turns
 * (enum values, bounds, lengths). Every value is checked against the tool's real schema before it is used, so
 * these only need to be good guesses.
 */
import type { JsonObject } from '../model.js';

export type Schema = JsonObject;

const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Resolves a local `$ref` (`#/$defs/x`, `#/definitions/x`) against the root schema. */
export function deref(schema: unknown, root: Schema, depth = 0): Schema {
  if (!isObject(schema)) return {};
  const ref = schema['$ref'];
  if (typeof ref === 'string' && ref.startsWith('#') && depth < 16) {
    let target: unknown = root;
    for (const part of ref.slice(1).split('/').filter(Boolean))
      target = isObject(target)
        ? target[decodeURIComponent(part.replace(/~1/g, '/').replace(/~0/g, '~'))]
        : undefined;
    return {
      ...deref(target, root, depth + 1),
      ...Object.fromEntries(Object.entries(schema).filter(([k]) => k !== '$ref')),
    };
  }
  return schema;
}

export function typeOf(schema: Schema): string | undefined {
  const type = schema['type'];
  if (typeof type === 'string') return type;
  if (Array.isArray(type)) return type.find((t) => t !== 'null') as string | undefined;
  if (schema['properties'] !== undefined) return 'object';
  if (schema['items'] !== undefined) return 'array';
  if (Array.isArray(schema['enum']) && schema['enum'].length > 0)
    return typeof schema['enum'][0] === 'number' ? 'number' : typeof schema['enum'][0];
  return undefined;
}

const FORMAT_VALUES: Record<string, string> = {
  email: 'test@example.com',
  'idn-email': 'test@example.com',
  uri: 'https://example.com/',
  url: 'https://example.com/',
  'uri-reference': 'https://example.com/',
  iri: 'https://example.com/',
  'date-time': '2024-01-01T00:00:00Z',
  date: '2024-01-01',
  time: '12:00:00Z',
  duration: 'P1D',
  uuid: '123e4567-e89b-42d3-a456-426614174000',
  ipv4: '127.0.0.1',
  ipv6: '::1',
  hostname: 'example.com',
  'idn-hostname': 'example.com',
  regex: '^a$',
  'json-pointer': '/a',
};

const PATTERN_CANDIDATES = [
  'a',
  'abc',
  'test',
  'Test',
  'A',
  'ABC',
  'a1',
  'abc123',
  '1',
  '123',
  'test-1',
  'test_1',
  'x',
];

function byName(name: string): string {
  const n = name.toLowerCase();
  if (n.includes('email')) return 'test@example.com';
  if (n.includes('url') || n.includes('uri') || n.includes('link')) return 'https://example.com/';
  if (n.includes('path') || n.includes('file') || n.includes('dir')) return '/tmp/mcpengine-test';
  if (n.includes('date')) return '2024-01-01';
  if (n.includes('id')) return 'test-id-1';
  if (n.includes('name')) return 'test';
  if (n.includes('query') || n.includes('search')) return 'test';
  return 'test';
}

function fitLength(text: string, schema: Schema): string {
  const min = typeof schema['minLength'] === 'number' ? schema['minLength'] : 0;
  const max = typeof schema['maxLength'] === 'number' ? schema['maxLength'] : Infinity;
  let out = text;
  while ([...out].length < min) out += 'a';
  if ([...out].length > max) out = [...out].slice(0, max).join('');
  return out;
}

export function stringValue(schema: Schema, name: string): string {
  const format = typeof schema['format'] === 'string' ? FORMAT_VALUES[schema['format']] : undefined;
  if (format !== undefined) return format;
  if (typeof schema['pattern'] === 'string') {
    let re: RegExp | undefined;
    try {
      re = new RegExp(schema['pattern'], 'u');
    } catch {
      re = undefined;
    }
    const found = [byName(name), ...PATTERN_CANDIDATES]
      .map((c) => fitLength(c, schema))
      .find((c) => re?.test(c));
    if (found !== undefined) return found;
  }
  return fitLength(byName(name), schema);
}

/**
 * Numbers that say how long to wait. A generated test asks for the least of those: a tool told to sleep for its
 * maximum (an hour) is slow, not broken, and the run would only measure the sleep.
 */
export const DURATION_NAME =
  /duration|seconds|secs|minutes|hours|millis|(^|_|[a-z])ms$|timeout|delay|wait|sleep|interval|ttl/i;

export function isDuration(name: string): boolean {
  return DURATION_NAME.test(name);
}

export function numberValue(schema: Schema, integer: boolean, name = ''): number {
  if (isDuration(name)) {
    const least =
      typeof schema['minimum'] === 'number'
        ? schema['minimum']
        : typeof schema['exclusiveMinimum'] === 'number'
          ? schema['exclusiveMinimum'] + (integer ? 1 : 0.5)
          : 0;
    const max = typeof schema['maximum'] === 'number' ? schema['maximum'] : Infinity;
    if (least <= max) return integer ? Math.ceil(least) : least;
  }
  const min =
    typeof schema['minimum'] === 'number'
      ? schema['minimum']
      : typeof schema['exclusiveMinimum'] === 'number'
        ? schema['exclusiveMinimum'] + (integer ? 1 : 0.5)
        : undefined;
  const max =
    typeof schema['maximum'] === 'number'
      ? schema['maximum']
      : typeof schema['exclusiveMaximum'] === 'number'
        ? schema['exclusiveMaximum'] - (integer ? 1 : 0.5)
        : undefined;
  let value =
    min !== undefined && max !== undefined
      ? (min + max) / 2
      : min !== undefined
        ? min + 1
        : max !== undefined
          ? Math.min(max - 1, 1)
          : 1;
  if (max !== undefined && value > max) value = max;
  if (min !== undefined && value < min) value = min;
  if (integer) value = Math.ceil(value);
  const step = schema['multipleOf'];
  if (typeof step === 'number' && step > 0) value = Math.ceil(value / step) * step;
  return value;
}

/** A plausible valid value; `full` fills optional members and non-empty arrays too. */
export function sampleValue(schema: unknown, root: Schema, name: string, full: boolean, depth = 0): unknown {
  const s = deref(schema, root);
  if ('const' in s) return s['const'];
  if (Array.isArray(s['enum']) && s['enum'].length > 0) return s['enum'][0];
  if ('default' in s && s['default'] !== undefined) return s['default'];
  if (Array.isArray(s['examples']) && s['examples'].length > 0) return s['examples'][0];
  for (const key of ['anyOf', 'oneOf'] as const) {
    const branches = s[key];
    if (Array.isArray(branches) && branches.length > 0) {
      const branch = branches.map((b) => deref(b, root)).find((b) => typeOf(b) !== 'null') ?? branches[0];
      return sampleValue(
        { ...Object.fromEntries(Object.entries(s).filter(([k]) => k !== key)), ...deref(branch, root) },
        root,
        name,
        full,
        depth + 1,
      );
    }
  }
  if (Array.isArray(s['allOf'])) {
    const merged: Schema = { ...s };
    delete merged['allOf'];
    for (const part of s['allOf']) Object.assign(merged, deref(part, root));
    return sampleValue(merged, root, name, full, depth + 1);
  }
  if (depth > 8) return null;
  switch (typeOf(s)) {
    case 'string':
      return stringValue(s, name);
    case 'integer':
      return numberValue(s, true, name);
    case 'number':
      return numberValue(s, false, name);
    case 'boolean':
      return true;
    case 'null':
      return null;
    case 'array': {
      const min = typeof s['minItems'] === 'number' ? s['minItems'] : 0;
      const count = Math.max(min, full ? 1 : 0);
      const items = Array.from({ length: count }, () =>
        sampleValue(s['items'] ?? {}, root, name, full, depth + 1),
      );
      return s['uniqueItems'] === true
        ? [...new Map(items.map((item) => [JSON.stringify(item), item])).values()]
        : items;
    }
    case 'object':
      return objectValue(s, root, full, depth + 1);
    default:
      return 'test';
  }
}

export function objectValue(schema: Schema, root: Schema, full: boolean, depth = 0): JsonObject {
  const s = deref(schema, root);
  const properties = isObject(s['properties']) ? s['properties'] : {};
  const required = Array.isArray(s['required']) ? (s['required'] as string[]) : [];
  const out: JsonObject = {};
  for (const [key, sub] of Object.entries(properties))
    if (full || required.includes(key)) out[key] = sampleValue(sub, root, key, full, depth);
  for (const key of required) if (!(key in out)) out[key] = 'test';
  return out;
}

/**
 * A value of the wrong JSON type for `schema` that a lax server would coerce — the string "42" for a number,
 * "true" for a boolean, the number 12345 for a string — or undefined when any type is allowed.
 */
export function wrongTypeValue(schema: Schema): unknown {
  const type = schema['type'];
  const types = (Array.isArray(type) ? type : type === undefined ? [] : [type]) as string[];
  if (types.length === 0) return undefined;
  if (!types.includes('string')) return types.includes('boolean') ? 'true' : '42';
  if (!types.includes('number') && !types.includes('integer')) return 12345;
  if (!types.includes('boolean')) return true;
  return undefined;
}
