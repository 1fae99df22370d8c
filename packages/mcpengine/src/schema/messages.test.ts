import { describe, expect, it } from 'vitest';
import { compileSchema } from './compile.js';
import type { JsonSchema, ValidationIssue } from './types.js';

function issues(schema: JsonSchema, instance: unknown): ValidationIssue[] {
  const result = compileSchema(schema).validate(instance);
  if (result.valid) throw new Error(`expected ${JSON.stringify(instance)} to be invalid`);
  return result.issues;
}

const toolInput = {
  type: 'object',
  properties: {
    name: { type: 'string', minLength: 1 },
    age: { type: 'integer', minimum: 0 },
    tags: { type: 'array', items: { type: 'string' }, uniqueItems: true },
    'a/b~c': { type: 'boolean' },
  },
  required: ['name', 'age'],
  additionalProperties: false,
};

describe('validate() results', () => {
  it('returns the value itself on success', () => {
    const value = { name: 'x', age: 3 };
    const result = compileSchema(toolInput).validate(value);
    expect(result).toEqual({ valid: true, value });
    if (result.valid) expect(result.value).toBe(value);
  });

  it('reports every problem with JSON Pointer paths', () => {
    expect(issues(toolInput, { name: '', age: -1, tags: ['a', 1, 'a'], 'a/b~c': 'no', extra: 1 })).toEqual([
      {
        instancePath: '/name',
        schemaPath: '#/properties/name/minLength',
        keyword: 'minLength',
        message: 'must have at least 1 character',
      },
      {
        instancePath: '/age',
        schemaPath: '#/properties/age/minimum',
        keyword: 'minimum',
        message: 'must be >= 0',
      },
      {
        instancePath: '/tags',
        schemaPath: '#/properties/tags/uniqueItems',
        keyword: 'uniqueItems',
        message: 'must not have duplicate items (items 0 and 2 are equal)',
      },
      {
        instancePath: '/tags/1',
        schemaPath: '#/properties/tags/items/type',
        keyword: 'type',
        message: 'must be a string',
      },
      {
        instancePath: '/a~1b~0c',
        schemaPath: '#/properties/a~1b~0c/type',
        keyword: 'type',
        message: 'must be a boolean',
      },
      {
        instancePath: '',
        schemaPath: '#/additionalProperties',
        keyword: 'additionalProperties',
        message: 'must not have additional property "extra"',
      },
    ]);
  });

  it('names missing required properties', () => {
    expect(issues(toolInput, {})).toEqual([
      {
        instancePath: '',
        schemaPath: '#/required',
        keyword: 'required',
        message: 'must have required property "name"',
      },
      {
        instancePath: '',
        schemaPath: '#/required',
        keyword: 'required',
        message: 'must have required property "age"',
      },
    ]);
  });

  it('describes type unions and wrong root types', () => {
    expect(issues(toolInput, [])[0]?.message).toBe('must be an object');
    expect(issues({ type: ['string', 'null', 'integer'] }, 1.5)[0]?.message).toBe(
      'must be a string, null or an integer',
    );
  });

  it('explains composition failures after the branch issues', () => {
    const anyOf = issues({ anyOf: [{ type: 'string' }, { type: 'number' }] }, null);
    expect(anyOf.map((i) => [i.schemaPath, i.message])).toEqual([
      ['#/anyOf/0/type', 'must be a string'],
      ['#/anyOf/1/type', 'must be a number'],
      ['#/anyOf', 'must match at least one schema in anyOf'],
    ]);
    expect(issues({ oneOf: [{ type: 'integer' }, { minimum: 0 }] }, 1).at(-1)?.message).toBe(
      'must match exactly one schema in oneOf, but matches 0, 1',
    );
    expect(issues({ not: { type: 'string' } }, 'a')).toEqual([
      {
        instancePath: '',
        schemaPath: '#/not',
        keyword: 'not',
        message: 'must not match the schema in "not"',
      },
    ]);
    expect(issues({ if: { type: 'string' }, then: { minLength: 2 } }, 'a')).toEqual([
      {
        instancePath: '',
        schemaPath: '#/then/minLength',
        keyword: 'minLength',
        message: 'must have at least 2 characters',
      },
      { instancePath: '', schemaPath: '#/then', keyword: 'then', message: 'must match "then" schema' },
    ]);
  });

  it('reports other keywords readably', () => {
    const message = (schema: JsonSchema, instance: unknown): string | undefined =>
      issues(schema, instance)[0]?.message;
    expect(message({ const: 'x' }, 'y')).toBe('must be equal to constant "x"');
    expect(message({ enum: ['a', 'b'] }, 'c')).toBe('must be equal to one of the allowed values: "a", "b"');
    expect(message({ multipleOf: 3 }, 4)).toBe('must be a multiple of 3');
    expect(message({ exclusiveMaximum: 3 }, 3)).toBe('must be < 3');
    expect(message({ maxLength: 1 }, 'ab')).toBe('must have at most 1 character');
    expect(message({ pattern: '^a/b$' }, 'x')).toBe('must match pattern "^a/b$"');
    expect(message({ minItems: 2 }, [1])).toBe('must have at least 2 items');
    expect(message({ maxProperties: 1 }, { a: 1, b: 2 })).toBe('must have at most 1 property');
    expect(message({ contains: { type: 'string' } }, [1])).toBe(
      'must contain at least 1 item matching "contains"',
    );
    expect(message({ dependentRequired: { a: ['b'] } }, { a: 1 })).toBe(
      'must have property "b" when property "a" is present',
    );
    expect(message({ propertyNames: { maxLength: 1 } }, { ab: 1 })).toBe('property name "ab" is invalid');
    expect(message({ prefixItems: [true], items: false }, [1, 2])).toBe('must have at most 1 item');
    expect(message({ unevaluatedProperties: false }, { x: 1 })).toBe(
      'must not have unevaluated property "x"',
    );
    expect(message({ unevaluatedItems: false }, [1])).toBe('must not have unevaluated item at index 0');
    expect(message(false, 1)).toBe('no value is allowed here (schema is false)');
  });
});
