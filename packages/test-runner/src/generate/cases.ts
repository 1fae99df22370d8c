/**
 * Generated robustness tests for one tool, from its input schema: valid inputs (required only, all fields, every
 * enum value, numeric and length boundaries, unicode and long strings) and invalid ones (a required member
 * missing, a wrong type, out of range). Each candidate is checked against the tool's schema with the engine's
 * validator — valid ones must pass it, invalid ones must fail it — so no case blames the server for a bad guess.
 */
import { compileSchema, type JsonSchemaValidator } from 'mcpengine/schema';
import type { JsonObject, TestCase } from '../model.js';
import { deref, isDuration, objectValue, typeOf, wrongTypeValue, type Schema } from './values.js';

export const UNICODE_TEXT = 'héllo wörld — 世界 🌍 ñ';
export const LONG_TEXT_LENGTH = 10_000;

export interface GeneratedCase {
  readonly name: string;
  readonly valid: boolean;
  readonly arguments: JsonObject;
}

const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

export function casesForTool(tool: JsonObject): { cases: GeneratedCase[]; notes: string[] } {
  const name = String(tool['name']);
  const schema = (isObject(tool['inputSchema']) ? tool['inputSchema'] : { type: 'object' }) as Schema;
  let validator: JsonSchemaValidator;
  try {
    validator = compileSchema(schema);
  } catch (error) {
    return {
      cases: [],
      notes: [`${name}: its inputSchema cannot be compiled (${(error as Error).message}); no cases`],
    };
  }
  const properties = isObject(schema['properties']) ? (schema['properties'] as Record<string, unknown>) : {};
  const required = Array.isArray(schema['required']) ? (schema['required'] as string[]) : [];
  const base = objectValue(schema, schema, false);
  const full = objectValue(schema, schema, true);
  const candidates: GeneratedCase[] = [];
  const valid = (label: string, args: JsonObject) =>
    candidates.push({ name: `${name}: ${label}`, valid: true, arguments: args });
  const invalid = (label: string, args: JsonObject) =>
    candidates.push({ name: `${name}: ${label}`, valid: false, arguments: args });
  valid('required only', base);
  valid('all fields', full);
  for (const [key, raw] of Object.entries(properties)) {
    const prop = deref(raw, schema);
    const type = typeOf(prop);
    const within = (value: unknown) => ({ ...base, [key]: value });
    if (Array.isArray(prop['enum']))
      for (const value of prop['enum'].slice(0, 20))
        valid(`${key} = ${JSON.stringify(value)}`, within(value));
    if (type === 'number' || type === 'integer') {
      if (typeof prop['minimum'] === 'number') {
        valid(`${key} at minimum`, within(prop['minimum']));
        invalid(`${key} below minimum`, within(prop['minimum'] - 1));
      }
      if (typeof prop['maximum'] === 'number') {
        if (!isDuration(key)) valid(`${key} at maximum`, within(prop['maximum']));
        invalid(`${key} above maximum`, within(prop['maximum'] + 1));
      }
      if (type === 'integer') invalid(`${key} not an integer`, within(1.5));
    }
    if (
      type === 'string' &&
      prop['enum'] === undefined &&
      prop['format'] === undefined &&
      prop['pattern'] === undefined
    ) {
      const max = typeof prop['maxLength'] === 'number' ? prop['maxLength'] : undefined;
      if (typeof prop['minLength'] === 'number' && prop['minLength'] > 0) {
        valid(`${key} at minLength`, within('a'.repeat(prop['minLength'])));
        invalid(`${key} shorter than minLength`, within('a'.repeat(prop['minLength'] - 1)));
      }
      if (max !== undefined && max <= LONG_TEXT_LENGTH) {
        valid(`${key} at maxLength`, within('a'.repeat(max)));
        invalid(`${key} longer than maxLength`, within('a'.repeat(max + 1)));
      }
      valid(
        `${key} unicode`,
        within(max === undefined ? UNICODE_TEXT : [...UNICODE_TEXT].slice(0, max).join('')),
      );
      if (max === undefined) valid(`${key} long string`, within('x'.repeat(LONG_TEXT_LENGTH)));
    }
    if (Array.isArray(prop['enum']) && type === 'string')
      invalid(`${key} not one of the enum values`, within('not-an-enum-value'));
    const wrong = wrongTypeValue(prop);
    if (wrong !== undefined) invalid(`${key} of the wrong type`, { ...full, [key]: wrong });
    if (required.includes(key)) {
      const without = { ...full };
      delete without[key];
      invalid(`missing required ${key}`, without);
    }
  }
  const notes: string[] = [];
  const kept = candidates.filter((candidate) => {
    const ok = validator.is(candidate.arguments);
    if (ok === candidate.valid) return true;
    if (candidate.valid)
      notes.push(`${candidate.name}: no valid input could be derived for this case; skipped`);
    return false;
  });
  // The same arguments twice test nothing new.
  const seen = new Set<string>();
  const cases = kept.filter((c) => {
    const key = `${c.valid}:${JSON.stringify(c.arguments)}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  return { cases, notes };
}

export function testCaseOf(generated: GeneratedCase): TestCase {
  return {
    name: generated.name,
    action: {
      kind: 'tool',
      name: generated.name.slice(0, generated.name.indexOf(': ')),
      arguments: generated.arguments,
    },
    expect: { generated: generated.valid ? 'valid' : 'invalid' },
    // Progress shows a slow tool is alive: a timeout with progress is a warning, not a hang.
    progress: true,
    note: generated.valid ? 'valid input' : 'invalid input',
  };
}
