import { describe, expect, it } from 'vitest';
import { compileSchema } from './compile.js';
import type { JsonSchema } from './types.js';

/**
 * Objects of typed leaves get a predicate of their own as `is()`. The oracle is the same schema plus a
 * `patternProperties` entry that matches no key of these instances: it means the same, but a pattern makes the
 * schema ineligible, so its answers come from the general code. The two must agree on every instance, over
 * schemas on both sides of each eligibility rule and instances that probe each branch.
 */
const SCHEMAS: Record<string, JsonSchema> = {
  'closed, typed': {
    type: 'object',
    properties: {
      a: { type: 'string', minLength: 2, maxLength: 5 },
      b: { type: 'integer', minimum: 0, exclusiveMaximum: 100 },
      c: { type: 'boolean' },
      d: { type: 'number', exclusiveMinimum: -1.5, maximum: 2.5 },
      e: { type: 'null' },
    },
    required: ['a', 'b'],
    additionalProperties: false,
  },
  'open, untyped': {
    properties: { a: { type: 'string' }, n: { type: 'number', description: 'any number' } },
    required: ['a'],
  },
  'open by a true schema': {
    type: 'object',
    properties: { a: { type: 'string' } },
    additionalProperties: true,
  },
  'required name that is not declared (general path)': {
    type: 'object',
    properties: { a: { type: 'string' } },
    required: ['a', 'z'],
  },
  'a non-leaf property (general path)': {
    type: 'object',
    properties: { a: { type: 'string' }, list: { type: 'array', items: { type: 'integer' } } },
    additionalProperties: false,
  },
  'an additionalProperties schema (general path)': {
    type: 'object',
    properties: { a: { type: 'string' } },
    additionalProperties: { type: 'integer' },
  },
};

function instances(): unknown[] {
  const proto = JSON.parse('{"a":"abc","b":1,"__proto__":{"x":1}}') as unknown;
  return [
    null,
    'text',
    42,
    true,
    [],
    ['a', 'b'],
    {},
    { a: 'abc' },
    { a: 'abc', b: 0 },
    { a: 'abc', b: 99 },
    { a: 'abc', b: 100 },
    { a: 'abc', b: -1 },
    { a: 'abc', b: 1.5 },
    { a: 'abc', b: '1' },
    { a: 'a', b: 1 },
    { a: 'abcdef', b: 1 },
    { a: '😀😀', b: 1 },
    { a: '😀😀😀😀😀', b: 1 },
    { a: 'abc', b: 1, c: false },
    { a: 'abc', b: 1, c: 'false' },
    { a: 'abc', b: 1, d: -1.5 },
    { a: 'abc', b: 1, d: -1.4 },
    { a: 'abc', b: 1, d: 2.5 },
    { a: 'abc', b: 1, d: 2.6 },
    { a: 'abc', b: 1, d: Number.NaN },
    { a: 'abc', b: 1, e: null },
    { a: 'abc', b: 1, e: 0 },
    { a: 'abc', b: 1, extra: 1 },
    { a: 'abc', b: 1, extra: undefined },
    { a: undefined, b: 1 },
    { a: 'abc', z: 'here' },
    { a: 'abc', list: [1, 2] },
    { a: 'abc', list: [1, 'x'] },
    { a: 'abc', n: 3 },
    { a: 'abc', n: 'x' },
    // Keys out of the declared order (the predicate tries the next declared name first).
    { b: 1, a: 'abc' },
    { b: 1, a: 'a' },
    { c: true, a: 'abc', b: 1 },
    { a: 'abc', c: true, b: 1 },
    { a: 'abc', c: 'yes', b: 1 },
    { e: null, d: 1, c: true, b: 1, a: 'ab' },
    { a: 'abc', extra: 1, b: 1 },
    { b: 1, extra: 1 },
    { n: 3, a: 'abc' },
    proto,
    Object.create({ a: 'inherited' }) as unknown,
  ];
}

describe('objects of typed leaves', () => {
  for (const [name, schema] of Object.entries(SCHEMAS)) {
    it(`is() agrees with the general code: ${name}`, () => {
      const validator = compileSchema(schema);
      const oracle = compileSchema({
        ...(schema as object),
        patternProperties: { '^never matched$': true },
      });
      for (const instance of instances()) {
        expect([instance, validator.is(instance)]).toEqual([instance, oracle.is(instance)]);
        expect([instance, validator.validate(instance).valid]).toEqual([instance, oracle.is(instance)]);
      }
    });
  }

  it('answers the obvious cases as JSON Schema says', () => {
    const validator = compileSchema(SCHEMAS['closed, typed']!);
    expect(validator.is({ a: 'abc', b: 1, c: true, d: 0, e: null })).toBe(true);
    expect(validator.is({ a: 'abc', b: 1, extra: 1 })).toBe(false);
    expect(validator.is({ a: 'abc' })).toBe(false);
    expect(validator.is('abc')).toBe(false);
    const open = compileSchema(SCHEMAS['open, untyped']!);
    expect(open.is('not an object')).toBe(true);
    expect(open.is({ a: 'abc', anything: [1] })).toBe(true);
  });
});
