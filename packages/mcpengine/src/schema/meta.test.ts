import { describe, expect, it } from 'vitest';
import { compileSchema } from './compile.js';
import { detectDialect } from './dialect.js';
import { SchemaError } from './errors.js';
import { checkSchema } from './meta.js';
import type { JsonSchema } from './types.js';

const D7 = 'http://json-schema.org/draft-07/schema#';
const D2020 = 'https://json-schema.org/draft/2020-12/schema';

describe('detectDialect', () => {
  it('defaults to 2020-12, or to the given default', () => {
    expect(detectDialect({ type: 'string' })).toBe('2020-12');
    expect(detectDialect(true)).toBe('2020-12');
    expect(detectDialect({}, 'draft-07')).toBe('draft-07');
  });

  it('recognises both dialect URIs with or without the empty fragment, over http or https', () => {
    for (const uri of [
      D7,
      'http://json-schema.org/draft-07/schema',
      'https://json-schema.org/draft-07/schema#',
    ]) {
      expect(detectDialect({ $schema: uri })).toBe('draft-07');
    }
    for (const uri of [D2020, D2020 + '#', 'http://json-schema.org/draft/2020-12/schema']) {
      expect(detectDialect({ $schema: uri }, 'draft-07')).toBe('2020-12');
    }
  });

  it('rejects every other dialect', () => {
    for (const uri of [
      'http://json-schema.org/draft-04/schema#',
      'https://json-schema.org/draft/2019-09/schema',
      'https://example.com/custom',
      42,
    ]) {
      expect(() => detectDialect({ $schema: uri })).toThrow(SchemaError);
      try {
        detectDialect({ $schema: uri });
      } catch (error) {
        expect((error as SchemaError).code).toBe('unsupported-dialect');
        expect((error as SchemaError).message).toMatch(/2020-12/);
      }
    }
  });

  it('is what compileSchema uses', () => {
    expect(compileSchema({ $schema: D7 }).dialect).toBe('draft-07');
    expect(compileSchema({}).dialect).toBe('2020-12');
    expect(compileSchema({}, { defaultDialect: 'draft-07' }).dialect).toBe('draft-07');
    expect(() => compileSchema({ $schema: 'http://json-schema.org/draft-04/schema#' })).toThrow(
      /Unsupported JSON Schema dialect/,
    );
  });
});

describe('checkSchema', () => {
  const problems = (schema: JsonSchema, dialect?: '2020-12' | 'draft-07'): string[] =>
    checkSchema(schema, dialect === undefined ? {} : { defaultDialect: dialect }).map(
      (i) => `${i.instancePath} ${i.message}`,
    );

  it('accepts valid schemas of either dialect', () => {
    const valid2020: JsonSchema = {
      $schema: D2020,
      $id: 'https://example.com/s',
      $defs: { a: { $anchor: 'a', type: ['string', 'null'] } },
      type: 'object',
      properties: { a: { $ref: '#a' }, b: { enum: [1, 1] } },
      patternProperties: { '^x-': true },
      required: ['a'],
      dependentRequired: { a: ['b'] },
      prefixItems: [true],
      minContains: 0,
      unevaluatedProperties: false,
      title: 'ok',
      examples: [{}],
      'x-extension': { anything: ['goes'] },
    };
    expect(problems(valid2020)).toEqual([]);
    expect(
      problems({
        $schema: D7,
        items: [{}, true],
        additionalItems: false,
        dependencies: { a: ['b'], c: {} },
        definitions: {},
      }),
    ).toEqual([]);
    expect(problems(true)).toEqual([]);
  });

  it('reports keyword values of the wrong shape, with pointers into the schema', () => {
    expect(
      problems({
        type: 'text',
        required: ['a', 'a'],
        minLength: -1,
        maxItems: 1.5,
        multipleOf: 0,
        pattern: '(',
        properties: { a: 5 },
        allOf: [],
        not: 'x',
        enum: 'a',
      }),
    ).toEqual([
      '/type type must be one of array, boolean, integer, null, number, object, string, or a non-empty array of unique type names',
      '/required required must be an array of unique strings',
      '/minLength minLength must be a non-negative integer',
      '/maxItems maxItems must be a non-negative integer',
      '/multipleOf multipleOf must be a number greater than 0',
      '/pattern pattern must be a valid ECMAScript regular expression (Unicode mode)',
      '/properties properties must be an object whose values are schemas',
      '/allOf allOf must be a non-empty array of schemas',
      '/not not must be a schema (an object or a boolean)',
      '/enum enum must be an array',
    ]);
  });

  it('checks nested subschemas', () => {
    expect(problems({ properties: { a: { items: { minimum: '0' } } } })).toEqual([
      '/properties/a/items/minimum minimum must be a number',
    ]);
    expect(problems({ patternProperties: { '[': {} } })).toHaveLength(1);
    expect(problems({ $defs: { a: { $anchor: '1bad' } } })).toEqual([
      '/$defs/a/$anchor $anchor must be a string matching ^[A-Za-z_][-A-Za-z0-9._]*$',
    ]);
    expect(problems({ $id: 'https://example.com/a#frag' })).toHaveLength(1);
  });

  it('applies the rules of the declared dialect', () => {
    // items as an array is draft-07 only; enum must be non-empty and unique in draft-07.
    expect(problems({ items: [{}] })).toEqual(['/items items must be a schema (an object or a boolean)']);
    expect(problems({ items: [{}] }, 'draft-07')).toEqual([]);
    expect(problems({ $schema: D7, enum: [] })).toEqual([
      '/enum enum must be a non-empty array of unique values',
    ]);
    expect(problems({ enum: [] })).toEqual([]);
    // Keywords unknown to a dialect are not checked.
    expect(problems({ $schema: D7, prefixItems: 5, $defs: 5 })).toEqual([]);
  });

  it('reports an unsupported dialect instead of throwing', () => {
    expect(problems({ $schema: 'http://json-schema.org/draft-04/schema#' })).toEqual([
      expect.stringMatching(/^\/\$schema unsupported dialect/),
    ]);
  });
});

describe('compileSchema on invalid schemas', () => {
  it('throws invalid-schema with the issues', () => {
    try {
      compileSchema({ type: 'object', properties: { a: { type: 'strin' } } });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(SchemaError);
      const e = error as SchemaError;
      expect(e.code).toBe('invalid-schema');
      expect(e.issues?.[0]?.instancePath).toBe('/properties/a/type');
      expect(e.message).toContain('/properties/a/type');
    }
  });

  it('rejects values that are not schemas at all', () => {
    expect(() => compileSchema(5 as unknown as JsonSchema)).toThrow(SchemaError);
    expect(() => compileSchema(null as unknown as JsonSchema)).toThrow(SchemaError);
  });
});
