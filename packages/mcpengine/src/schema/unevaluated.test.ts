import { describe, it } from 'vitest';
import { DIALECT_URIS } from './dialect.js';
import { expectExamples } from '../test/schema-examples.js';

describe('unevaluatedProperties', () => {
  it('sees adjacent properties, patternProperties and additionalProperties', () => {
    expectExamples(
      { properties: { foo: true }, patternProperties: { '^x': true }, unevaluatedProperties: false },
      [
        [{ foo: 1, x1: 2 }, true],
        [{ foo: 1, bar: 2 }, false],
      ],
    );
    expectExamples({ additionalProperties: true, unevaluatedProperties: false }, [[{ anything: 1 }, true]]);
    expectExamples({ unevaluatedProperties: { type: 'string' } }, [
      [{ a: 'x' }, true],
      [{ a: 1 }, false],
      ['not an object', true],
    ]);
  });

  it('sees through allOf, $ref and dependentSchemas', () => {
    expectExamples({ allOf: [{ properties: { foo: true } }], unevaluatedProperties: false }, [
      [{ foo: 1 }, true],
      [{ foo: 1, bar: 1 }, false],
    ]);
    expectExamples(
      { $defs: { base: { properties: { foo: true } } }, $ref: '#/$defs/base', unevaluatedProperties: false },
      [
        [{ foo: 1 }, true],
        [{ bar: 1 }, false],
      ],
    );
    expectExamples(
      {
        dependentSchemas: { foo: { properties: { bar: true } } },
        properties: { foo: true },
        unevaluatedProperties: false,
      },
      [
        [{ foo: 1, bar: 1 }, true],
        [{ bar: 1 }, false],
      ],
    );
  });

  it('keeps annotations only from passing anyOf/oneOf branches', () => {
    const anyOf = {
      anyOf: [
        { properties: { foo: true }, required: ['foo'] },
        { properties: { bar: true }, required: ['bar'] },
      ],
      unevaluatedProperties: false,
    };
    expectExamples(anyOf, [
      [{ foo: 1 }, true],
      [{ foo: 1, bar: 1 }, true],
      [{ bar: 1, baz: 1 }, false],
    ]);
    const oneOf = {
      oneOf: [
        { properties: { foo: true }, required: ['foo'] },
        { properties: { bar: true }, required: ['bar'] },
      ],
      unevaluatedProperties: false,
    };
    expectExamples(oneOf, [
      [{ foo: 1 }, true],
      // The second branch fails, so `bar` is not evaluated.
      [{ foo: 1, bar: 'x', baz: 1 }, false],
    ]);
    // A failing branch's annotations must not leak even when the keyword passes through another branch.
    expectExamples(
      {
        anyOf: [{ type: 'object' }, { properties: { a: true }, required: ['zz'] }],
        unevaluatedProperties: false,
      },
      [
        [{ a: 1 }, false],
        [{}, true],
      ],
    );
  });

  it('uses if/then/else annotations only from the subschemas that passed', () => {
    const schema = {
      if: { properties: { foo: { const: 'then' } }, required: ['foo'] },
      then: { properties: { bar: true } },
      else: { properties: { baz: true } },
      unevaluatedProperties: false,
    };
    expectExamples(schema, [
      [{ foo: 'then', bar: 1 }, true],
      [{ foo: 'then', baz: 1 }, false],
      [{ baz: 1 }, true],
      // `if` failed, so its `foo` annotation is dropped.
      [{ foo: 'else', baz: 1 }, false],
    ]);
    // `if` without then/else still contributes annotations when it passes.
    expectExamples({ if: { patternProperties: { foo: { type: 'string' } } }, unevaluatedProperties: false }, [
      [{ foo: 'a' }, true],
      [{ bar: 'a' }, false],
    ]);
    // A failing `if` with a `then` present (where Ajv leaks annotations).
    expectExamples({ if: { additionalProperties: false }, then: true, unevaluatedProperties: false }, [
      [{ a: 1 }, false],
    ]);
  });

  it('ignores not, and cannot see into cousins or nested instances', () => {
    expectExamples({ not: { not: { properties: { foo: true } } }, unevaluatedProperties: false }, [
      [{ foo: 1 }, false],
    ]);
    expectExamples({ allOf: [{ properties: { foo: true } }, { unevaluatedProperties: false }] }, [
      [{ foo: 1 }, false],
    ]);
    expectExamples({ properties: { foo: { properties: { bar: true } } }, unevaluatedProperties: false }, [
      [{ foo: { bar: 1, other: 1 } }, true],
    ]);
  });

  it('nests: an inner unevaluatedProperties evaluates everything it accepts', () => {
    expectExamples(
      { properties: { foo: true }, allOf: [{ unevaluatedProperties: true }], unevaluatedProperties: false },
      [[{ foo: 1, bar: 1 }, true]],
    );
    expectExamples(
      { allOf: [{ properties: { foo: true }, unevaluatedProperties: false }], unevaluatedProperties: true },
      [
        [{ foo: 1 }, true],
        [{ foo: 1, bar: 1 }, false],
      ],
    );
  });

  it('is not affected by propertyNames', () => {
    expectExamples({ propertyNames: { maxLength: 1 }, unevaluatedProperties: { type: 'number' } }, [
      [{ a: 1 }, true],
      [{ a: 'x' }, false],
    ]);
  });

  it('works through recursion', () => {
    expectExamples(
      {
        type: 'object',
        properties: { name: { type: 'string' }, child: { $ref: '#' } },
        unevaluatedProperties: false,
      },
      [
        [{ name: 'a', child: { name: 'b', child: {} } }, true],
        [{ name: 'a', child: { name: 'b', extra: 1 } }, false],
      ],
    );
  });

  it('is ignored in draft-07', () => {
    expectExamples(
      { $schema: DIALECT_URIS['draft-07'], properties: { a: true }, unevaluatedProperties: false },
      [[{ b: 1 }, true]],
    );
  });
});

describe('unevaluatedItems', () => {
  it('sees prefixItems, items and contains', () => {
    expectExamples({ prefixItems: [true], unevaluatedItems: false }, [
      [[1], true],
      [[1, 2], false],
    ]);
    expectExamples({ prefixItems: [true], items: true, unevaluatedItems: false }, [[[1, 2, 3], true]]);
    expectExamples({ contains: { type: 'string' }, unevaluatedItems: false }, [
      [['a', 'b'], true],
      ['not an array', true],
      [['a', 1], false],
    ]);
    expectExamples({ contains: { type: 'string' }, minContains: 0, unevaluatedItems: false }, [
      [[], true],
      [['a'], true],
      [[1], false],
    ]);
    expectExamples({ unevaluatedItems: { type: 'integer' } }, [
      [[1, 2], true],
      [[1, 'a'], false],
    ]);
  });

  it('combines contains from several subschemas', () => {
    const schema = {
      allOf: [{ contains: { multipleOf: 2 } }, { contains: { multipleOf: 3 } }],
      unevaluatedItems: { multipleOf: 5 },
    };
    expectExamples(schema, [
      [[2, 3, 4, 5, 6], true],
      [[2, 3, 4, 7, 8], false],
    ]);
  });

  it('keeps annotations only from passing branches (where Ajv leaks them)', () => {
    expectExamples(
      { oneOf: [{ type: 'array' }, { prefixItems: [true], minItems: 5 }], unevaluatedItems: false },
      [
        [[1], false],
        [[], true],
      ],
    );
    expectExamples(
      {
        prefixItems: [{ const: 'foo' }],
        anyOf: [{ prefixItems: [true, { const: 'bar' }] }, { prefixItems: [true, true, { const: 'baz' }] }],
        unevaluatedItems: false,
      },
      [
        [['foo', 'bar'], true],
        [['foo', 'bar', 'baz'], true],
        [['foo', 'x', 'baz'], true],
        [['foo', 'bar', 'x'], false],
      ],
    );
    expectExamples({ if: { prefixItems: [true], minItems: 4 }, then: true, unevaluatedItems: false }, [
      [[1], false],
    ]);
  });

  it('is not satisfied by a recursive $ref that evaluates no items (where Ajv deviates)', () => {
    expectExamples({ properties: { c: { $ref: '#', unevaluatedItems: false } } }, [
      [{ c: [1] }, false],
      [{ c: [] }, true],
    ]);
  });

  it('cannot see items evaluated by an uncle schema', () => {
    expectExamples(
      {
        properties: { foo: { prefixItems: [{ type: 'string' }], unevaluatedItems: false } },
        anyOf: [{ properties: { foo: { prefixItems: [true, { type: 'string' }] } } }],
      },
      [
        [{ foo: ['a'] }, true],
        [{ foo: ['a', 'b'] }, false],
      ],
    );
  });

  it('nests, and evaluates through $ref', () => {
    expectExamples(
      { allOf: [{ prefixItems: [true] }, { unevaluatedItems: true }], unevaluatedItems: false },
      [[[1, 2], true]],
    );
    expectExamples(
      { $defs: { pair: { prefixItems: [true, true] } }, $ref: '#/$defs/pair', unevaluatedItems: false },
      [
        [[1, 2], true],
        [[1, 2, 3], false],
      ],
    );
  });
});
