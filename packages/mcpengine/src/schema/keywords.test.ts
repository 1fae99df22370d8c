import { describe, expect, it } from 'vitest';
import { compileSchema } from './compile.js';
import { DIALECT_URIS } from './dialect.js';
import type { Dialect, JsonSchema } from './types.js';
import { expectExamples, type Examples } from '../test/schema-examples.js';

function inDialect(schema: JsonSchema, dialect: Dialect): JsonSchema {
  if (typeof schema === 'boolean' || dialect === '2020-12') return schema;
  return { $schema: DIALECT_URIS[dialect], ...schema };
}

/** Keywords whose meaning is the same in 2020-12 and draft-07. */
const SHARED: Record<string, [JsonSchema, Examples][]> = {
  'boolean schemas': [
    [
      true,
      [
        [1, true],
        [null, true],
        [{}, true],
      ],
    ],
    [
      false,
      [
        [1, false],
        [null, false],
        [{}, false],
      ],
    ],
  ],
  type: [
    [
      { type: 'integer' },
      [
        [1, true],
        [1.0, true],
        [1.5, false],
        ['1', false],
        [null, false],
      ],
    ],
    [
      { type: 'number' },
      [
        [1, true],
        [1.5, true],
        ['1', false],
        [Infinity, false],
      ],
    ],
    [
      { type: 'string' },
      [
        ['', true],
        [1, false],
      ],
    ],
    [
      { type: 'object' },
      [
        [{}, true],
        [[], false],
        [null, false],
      ],
    ],
    [
      { type: 'array' },
      [
        [[], true],
        [{}, false],
      ],
    ],
    [
      { type: 'boolean' },
      [
        [false, true],
        [0, false],
      ],
    ],
    [
      { type: 'null' },
      [
        [null, true],
        [0, false],
        [undefined, false],
      ],
    ],
    [
      { type: ['string', 'null'] },
      [
        ['a', true],
        [null, true],
        [1, false],
      ],
    ],
    [
      { type: ['integer', 'boolean'] },
      [
        [2, true],
        [true, true],
        [2.5, false],
      ],
    ],
  ],
  enum: [
    [
      { enum: [1, 'a', null] },
      [
        [1, true],
        [1.0, true],
        ['a', true],
        [null, true],
        ['1', false],
        [true, false],
      ],
    ],
    [
      { enum: [{ a: [1, 2] }, [1]] },
      [
        [{ a: [1, 2] }, true],
        [{ a: [2, 1] }, false],
        [[1], true],
        [[1, 1], false],
      ],
    ],
    [
      { enum: [false] },
      [
        [false, true],
        [0, false],
        ['', false],
      ],
    ],
    [
      { enum: [0] },
      [
        [-0, true],
        [0.0, true],
      ],
    ],
  ],
  const: [
    [
      { const: 2 },
      [
        [2, true],
        [2.0, true],
        ['2', false],
      ],
    ],
    [
      { const: { b: [1, { c: null }], a: 1 } },
      [
        [{ a: 1, b: [1, { c: null }] }, true],
        [{ a: 1, b: [1, {}] }, false],
      ],
    ],
    [
      { const: null },
      [
        [null, true],
        [0, false],
        [false, false],
      ],
    ],
  ],
  numbers: [
    [
      { minimum: 1.5 },
      [
        [1.5, true],
        [1.4, false],
        ['0', true],
      ],
    ],
    [
      { maximum: 3 },
      [
        [3, true],
        [3.01, false],
      ],
    ],
    [
      { exclusiveMinimum: 1 },
      [
        [1.0001, true],
        [1, false],
      ],
    ],
    [
      { exclusiveMaximum: 3 },
      [
        [2.999, true],
        [3, false],
      ],
    ],
    [
      { multipleOf: 2 },
      [
        [10, true],
        [7, false],
        [-4, true],
        ['a', true],
      ],
    ],
    [
      { multipleOf: 0.1 },
      [
        [0.3, true],
        [0.7, true],
        [0.35, false],
        [12.3, true],
      ],
    ],
    [
      { multipleOf: 0.0001 },
      [
        [0.0075, true],
        [0.00751, false],
      ],
    ],
    [{ multipleOf: 0.123456789 }, [[1e308, false]]],
    [{ type: 'integer', multipleOf: 1e-8 }, [[12391239123, true]]],
    [
      { type: 'integer', minimum: 0, maximum: 10 },
      [
        [0, true],
        [10, true],
        [11, false],
        [-1, false],
        [5.5, false],
      ],
    ],
  ],
  strings: [
    [
      { minLength: 2 },
      [
        ['ab', true],
        ['a', false],
        ['😀', false],
        ['😀😀', true],
        [1, true],
      ],
    ],
    [
      { maxLength: 2 },
      [
        ['ab', true],
        ['abc', false],
        ['😀😀', true],
        ['😀😀😀', false],
      ],
    ],
    [
      { pattern: '^a+$' },
      [
        ['aaa', true],
        ['ab', false],
        [1, true],
      ],
    ],
    [
      { pattern: 'b' },
      [
        ['abc', true],
        ['ac', false],
      ],
    ],
    [
      { pattern: '^\\p{Lu}$' },
      [
        ['Ä', true],
        ['ä', false],
      ],
    ],
    [{ pattern: '^.$' }, [['😀', true]]],
    [
      { type: 'string', minLength: 1, maxLength: 3, pattern: '^[a-z]+$' },
      [
        ['ab', true],
        ['', false],
        ['abcd', false],
        ['AB', false],
      ],
    ],
  ],
  arrays: [
    [
      { minItems: 1 },
      [
        [[1], true],
        [[], false],
        ['x', true],
      ],
    ],
    [
      { maxItems: 1 },
      [
        [[1], true],
        [[1, 2], false],
      ],
    ],
    [
      { uniqueItems: true },
      [
        [[1, 2], true],
        [[1, 1.0], false],
        [
          [
            { a: 1, b: 2 },
            { b: 2, a: 1 },
          ],
          false,
        ],
        [[[1], [true]], true],
        [[0, false], true],
      ],
    ],
    [{ uniqueItems: false }, [[[1, 1], true]]],
    [
      { items: { type: 'integer' } },
      [
        [[1, 2], true],
        [[1, 'a'], false],
        [[], true],
        [{ 0: 'a' }, true],
      ],
    ],
    [
      { contains: { type: 'string' } },
      [
        [[1, 'a'], true],
        [[1, 2], false],
        [[], false],
        ['x', true],
      ],
    ],
  ],
  objects: [
    [
      { required: ['a'] },
      [
        [{ a: 1 }, true],
        [{}, false],
        [[], true],
        [{ b: 1 }, false],
      ],
    ],
    [
      { minProperties: 1 },
      [
        [{ a: 1 }, true],
        [{}, false],
      ],
    ],
    [
      { maxProperties: 1 },
      [
        [{ a: 1 }, true],
        [{ a: 1, b: 2 }, false],
      ],
    ],
    [
      { properties: { a: { type: 'string' } } },
      [
        [{ a: 'x' }, true],
        [{ a: 1 }, false],
        [{}, true],
        [{ b: 1 }, true],
      ],
    ],
    [
      { patternProperties: { '^x': { type: 'integer' } } },
      [
        [{ x1: 1 }, true],
        [{ x1: 'a' }, false],
        [{ y: 'a' }, true],
      ],
    ],
    [
      { properties: { a: {} }, patternProperties: { '^b': {} }, additionalProperties: false },
      [
        [{ a: 1, b1: 2 }, true],
        [{ c: 1 }, false],
        [{}, true],
      ],
    ],
    [
      { properties: { a: {} }, additionalProperties: { type: 'boolean' } },
      [
        [{ a: 1, b: true }, true],
        [{ a: 1, b: 1 }, false],
      ],
    ],
    [
      // A declared property can also match a pattern; both subschemas apply.
      { properties: { ab: { type: 'string' } }, patternProperties: { b: { minLength: 2 } } },
      [
        [{ ab: 'xy' }, true],
        [{ ab: 'x' }, false],
        [{ ab: 1 }, false],
      ],
    ],
    [
      { propertyNames: { maxLength: 2 } },
      [
        [{ ab: 1 }, true],
        [{ abc: 1 }, false],
        [{}, true],
      ],
    ],
    [
      { propertyNames: false },
      [
        [{}, true],
        [{ a: 1 }, false],
      ],
    ],
    [
      // Names JavaScript objects inherit are ordinary property names in JSON.
      JSON.parse(
        '{"properties": {"constructor": {"type": "number"}, "__proto__": {"type": "number"}, "toString": {"type": "number"}}}',
      ) as JsonSchema,
      [
        [{}, true],
        [JSON.parse('{"__proto__": 1, "constructor": 2, "toString": 3}'), true],
        [JSON.parse('{"__proto__": "x"}'), false],
        [{ constructor: 'x' }, false],
      ],
    ],
    [
      { required: ['constructor'] },
      [
        [{}, false],
        [{ constructor: 1 }, true],
      ],
    ],
  ],
  logic: [
    [
      { allOf: [{ type: 'integer' }, { minimum: 2 }] },
      [
        [2, true],
        [1, false],
        [2.5, false],
      ],
    ],
    [
      { anyOf: [{ type: 'integer' }, { minimum: 2 }] },
      [
        [1, true],
        [2.5, true],
        [1.5, false],
      ],
    ],
    [
      { oneOf: [{ type: 'integer' }, { minimum: 2 }] },
      [
        [1, true],
        [2.5, true],
        [3, false],
        [1.5, false],
      ],
    ],
    [
      { not: { type: 'integer' } },
      [
        ['a', true],
        [1, false],
      ],
    ],
    [
      { if: { type: 'integer' }, then: { minimum: 2 }, else: { type: 'string' } },
      [
        [3, true],
        [1, false],
        ['a', true],
        [null, false],
      ],
    ],
    [
      { if: { type: 'integer' }, then: { minimum: 2 } },
      [
        [1, false],
        ['a', true],
      ],
    ],
    [
      { if: { type: 'integer' }, else: { type: 'string' } },
      [
        [1, true],
        [null, false],
      ],
    ],
    [
      { then: { minimum: 2 }, else: { type: 'string' } },
      [
        [1, true],
        [null, true],
      ],
    ],
    [{ allOf: [true, true] }, [[1, true]]],
    [{ anyOf: [false, false] }, [[1, false]]],
    [{ oneOf: [true, true] }, [[1, false]]],
  ],
};

describe.each<Dialect>(['2020-12', 'draft-07'])('keywords shared by both dialects (%s)', (dialect) => {
  for (const [family, cases] of Object.entries(SHARED)) {
    it(family, () => {
      for (const [schema, examples] of cases) expectExamples(inDialect(schema, dialect), examples);
    });
  }
});

describe('2020-12 keywords', () => {
  it('prefixItems and items', () => {
    expectExamples({ prefixItems: [{ type: 'string' }, { type: 'integer' }] }, [
      [['a', 1], true],
      [['a'], true],
      [['a', 1, null], true],
      [[1, 1], false],
    ]);
    expectExamples({ prefixItems: [{ type: 'string' }], items: false }, [
      [['a'], true],
      [[], true],
      [['a', 1], false],
    ]);
    expectExamples({ prefixItems: [{ type: 'string' }], items: { type: 'integer' } }, [
      [['a', 1, 2], true],
      [['a', 1, 'b'], false],
    ]);
  });

  it('contains with minContains and maxContains', () => {
    expectExamples({ contains: { type: 'string' }, minContains: 2 }, [
      [['a', 'b', 1], true],
      [['a', 1], false],
    ]);
    expectExamples({ contains: { type: 'string' }, maxContains: 1 }, [
      [['a', 1], true],
      [['a', 'b'], false],
      [[1], false],
    ]);
    expectExamples({ contains: { type: 'string' }, minContains: 0 }, [
      [[], true],
      [[1], true],
    ]);
    expectExamples({ contains: { type: 'string' }, minContains: 0, maxContains: 1 }, [
      [[], true],
      [['a', 'b'], false],
    ]);
    // Without contains, minContains/maxContains do nothing.
    expectExamples({ minContains: 2, maxContains: 0 }, [[[1], true]]);
  });

  it('contains beside tuple validation still requires a match (where Ajv deviates)', () => {
    expectExamples({ prefixItems: [{ type: 'string' }], contains: { type: 'number' } }, [
      [[], false],
      [['a'], false],
      [['a', 1], true],
    ]);
    expectExamples({ items: { contains: { minProperties: 1 } } }, [
      [[[{ b: 1 }], []], false],
      [[[{ b: 1 }], [{ c: 1 }]], true],
    ]);
  });

  it('dependentRequired and dependentSchemas', () => {
    expectExamples({ dependentRequired: { a: ['b', 'c'] } }, [
      [{ a: 1, b: 1, c: 1 }, true],
      [{ a: 1, b: 1 }, false],
      [{ b: 1 }, true],
      ['a', true],
    ]);
    expectExamples({ dependentSchemas: { a: { required: ['b'] } } }, [
      [{ a: 1, b: 1 }, true],
      [{ a: 1 }, false],
      [{}, true],
    ]);
  });

  it('ignores draft-07-only keywords', () => {
    expectExamples({ additionalItems: false, dependencies: { a: ['b'] } }, [
      [[1, 2], true],
      [{ a: 1 }, true],
    ]);
    // The array form of items is draft-07 only: in 2020-12 it makes the schema invalid.
    expect(() => compileSchema({ items: [{ type: 'string' }] })).toThrow(/items must be a schema/);
  });

  it('applies $ref siblings', () => {
    expectExamples({ $defs: { s: { type: 'string' } }, $ref: '#/$defs/s', maxLength: 2 }, [
      ['ab', true],
      ['abc', false],
      [1, false],
    ]);
  });
});

describe('draft-07 keywords', () => {
  const d7 = (schema: Record<string, unknown>): JsonSchema => inDialect(schema, 'draft-07');

  it('items as an array, with additionalItems', () => {
    expectExamples(d7({ items: [{ type: 'string' }, { type: 'integer' }] }), [
      [['a', 1, null], true],
      [[1], false],
    ]);
    expectExamples(d7({ items: [{ type: 'string' }], additionalItems: false }), [
      [['a'], true],
      [['a', 1], false],
    ]);
    expectExamples(d7({ items: [{ type: 'string' }], additionalItems: { type: 'integer' } }), [
      [['a', 1, 2], true],
      [['a', 1, 'b'], false],
    ]);
    // additionalItems only applies beside an items array.
    expectExamples(d7({ items: { type: 'string' }, additionalItems: false }), [[['a', 'b'], true]]);
    expectExamples(d7({ additionalItems: false }), [[[1, 2], true]]);
  });

  it('dependencies, both forms', () => {
    expectExamples(d7({ dependencies: { a: ['b'], c: { required: ['d'] } } }), [
      [{ a: 1, b: 1 }, true],
      [{ a: 1 }, false],
      [{ c: 1, d: 1 }, true],
      [{ c: 1 }, false],
      [{}, true],
    ]);
  });

  it('contains beside an items array still requires a match (where Ajv deviates)', () => {
    expectExamples(d7({ items: [{ type: 'string' }], contains: { type: 'number' } }), [
      [[], false],
      [['a', 1], true],
    ]);
    expectExamples(d7({ not: { items: [true, { type: 'string' }], contains: { required: ['x'] } } }), [
      [[{}], true],
    ]);
  });

  it('ignores every sibling of $ref', () => {
    expectExamples(d7({ definitions: { s: { type: 'string' } }, $ref: '#/definitions/s', maxLength: 2 }), [
      ['abc', true],
      [1, false],
    ]);
  });

  it('ignores 2020-12-only keywords', () => {
    expectExamples(
      d7({
        prefixItems: [false],
        unevaluatedProperties: false,
        unevaluatedItems: false,
        dependentRequired: { a: ['b'] },
        dependentSchemas: { a: false },
        minContains: 5,
      }),
      [
        [[1], true],
        [{ a: 1 }, true],
      ],
    );
    expectExamples(d7({ contains: { type: 'string' }, maxContains: 0 }), [[['a', 'b'], true]]);
  });

  it('exclusiveMaximum/exclusiveMinimum are numbers', () => {
    expectExamples(d7({ exclusiveMinimum: 1, exclusiveMaximum: 3 }), [
      [2, true],
      [1, false],
      [3, false],
    ]);
  });
});

describe('instances', () => {
  it('treats properties whose value is undefined as absent (JSON.stringify drops them)', () => {
    expectExamples({ required: ['a'], properties: { a: { type: 'string' } }, additionalProperties: false }, [
      [{ a: 'x', b: undefined }, true],
      [{ a: undefined }, false],
    ]);
    expectExamples({ maxProperties: 1 }, [[{ a: 1, b: undefined }, true]]);
  });

  it('does not mutate the instance', () => {
    const validator = compileSchema({
      type: 'object',
      properties: { a: { default: 1 }, list: { type: 'array', items: { type: 'object', default: {} } } },
      unevaluatedProperties: false,
    });
    const instance = { list: [{ x: 1 }] };
    const before = JSON.stringify(instance);
    validator.validate(instance);
    validator.is(instance);
    validator.validate({ ...instance, extra: true });
    expect(JSON.stringify(instance)).toBe(before);
  });

  it('checks objects with a null prototype and class instances by their own properties', () => {
    const validator = compileSchema({
      required: ['a'],
      properties: { a: { type: 'integer' } },
      additionalProperties: false,
    });
    const bare = Object.assign(Object.create(null) as object, { a: 1 });
    expect(validator.is(bare)).toBe(true);
    class Point {
      a = 1;
      get b(): number {
        return 2;
      }
    }
    expect(validator.is(new Point())).toBe(true);
    const inheriting = Object.create({ a: 1 }) as object;
    expect(validator.is(inheriting)).toBe(false);
  });

  it('handles large arrays in uniqueItems without quadratic blow-up', () => {
    const validator = compileSchema({ uniqueItems: true });
    const items = Array.from({ length: 20_000 }, (_, i) => ({ id: i, tags: ['a', i % 7] }));
    const started = Date.now();
    expect(validator.is(items)).toBe(true);
    expect(validator.is([...items, { tags: ['a', 3], id: 3 }])).toBe(false);
    expect(Date.now() - started).toBeLessThan(2_000);
  });
});
