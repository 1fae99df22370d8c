import { describe, expect, it } from 'vitest';
import { compileSchema } from './compile.js';
import { SchemaError } from './errors.js';
import type { JsonSchema } from './types.js';
import { expectExamples } from '../test/schema-examples.js';

function schemaError(schema: JsonSchema): SchemaError {
  try {
    compileSchema(schema);
  } catch (error) {
    if (error instanceof SchemaError) return error;
    throw error;
  }
  throw new Error('expected compileSchema to throw');
}

const D7 = 'http://json-schema.org/draft-07/schema#';

describe('$ref to local locations', () => {
  it('follows JSON Pointers into $defs and definitions', () => {
    expectExamples({ $defs: { a: { type: 'integer' } }, properties: { x: { $ref: '#/$defs/a' } } }, [
      [{ x: 1 }, true],
      [{ x: 'a' }, false],
    ]);
    expectExamples(
      { $schema: D7, definitions: { a: { type: 'integer' } }, items: { $ref: '#/definitions/a' } },
      [
        [[1], true],
        [['a'], false],
      ],
    );
  });

  it('follows pointers to any subschema, including the root and other keywords', () => {
    expectExamples({ properties: { a: { type: 'string' }, b: { $ref: '#/properties/a' } } }, [
      [{ b: 'x' }, true],
      [{ b: 1 }, false],
    ]);
    expectExamples({ prefixItems: [{ type: 'integer' }, { $ref: '#/prefixItems/0' }] }, [
      [[1, 2], true],
      [[1, 'a'], false],
    ]);
  });

  it('decodes escaped and percent-encoded pointer tokens', () => {
    expectExamples(
      {
        $defs: {
          'a/b': { type: 'integer' },
          'c~d': { type: 'string' },
          'e%f': { type: 'null' },
          'g h': { const: 1 },
        },
        properties: {
          slash: { $ref: '#/$defs/a~1b' },
          tilde: { $ref: '#/$defs/c~0d' },
          percent: { $ref: '#/$defs/e%25f' },
          space: { $ref: '#/$defs/g%20h' },
        },
      },
      [
        [{ slash: 1, tilde: 'x', percent: null, space: 1 }, true],
        [{ slash: 'x' }, false],
        [{ tilde: 1 }, false],
        [{ percent: 1 }, false],
        [{ space: 2 }, false],
      ],
    );
  });

  it('handles empty pointer tokens', () => {
    expectExamples(
      { $defs: { '': { $defs: { '': { type: 'number' } } } }, allOf: [{ $ref: '#/$defs//$defs/' }] },
      [
        [1, true],
        ['a', false],
      ],
    );
  });

  it('refers to boolean schemas', () => {
    expectExamples(
      { $defs: { t: true, f: false }, properties: { t: { $ref: '#/$defs/t' }, f: { $ref: '#/$defs/f' } } },
      [
        [{ t: 1 }, true],
        [{ f: 1 }, false],
      ],
    );
  });

  it('can point into unknown keywords', () => {
    expectExamples({ 'x-shared': { positive: { minimum: 0 } }, $ref: '#/x-shared/positive' }, [
      [1, true],
      [-1, false],
    ]);
  });

  it('treats an enum value that looks like a $ref as data', () => {
    expectExamples({ $defs: { s: { type: 'string' } }, enum: [{ $ref: '#/$defs/s' }] }, [
      ['a', false],
      [{ $ref: '#/$defs/s' }, true],
    ]);
  });
});

describe('$id and embedded resources', () => {
  it('resolves relative refs against the nearest $id', () => {
    expectExamples(
      {
        $id: 'http://example.com/root.json',
        $defs: {
          a: { $id: 'http://example.com/nested/a.json', $defs: { b: { $id: 'b.json', type: 'integer' } } },
          b: { $id: 'http://example.com/b.json', type: 'string' },
        },
        properties: {
          // Resolves against the root: http://example.com/b.json, not …/nested/b.json.
          x: { $ref: 'b.json' },
          y: { $ref: 'nested/b.json' },
          z: { $ref: 'http://example.com/nested/a.json#/$defs/b' },
        },
      },
      [
        [{ x: 'a', y: 1, z: 1 }, true],
        [{ x: 1 }, false],
        [{ y: 'a' }, false],
        [{ z: 'a' }, false],
      ],
    );
  });

  it('resolves $id against the nearest parent resource, whatever keyword lies between', () => {
    expectExamples(
      {
        $id: 'http://example.com/a.json',
        $defs: {
          x: { $id: 'http://example.com/b/c.json', not: { $defs: { y: { $id: 'd.json', type: 'number' } } } },
        },
        allOf: [{ $ref: 'http://example.com/b/d.json' }],
      },
      [
        [1, true],
        ['a', false],
      ],
    );
  });

  it("applies a schema's own $id before resolving its $ref", () => {
    expectExamples(
      {
        $id: '/ref-and-id/base.json',
        $ref: '#bigint',
        $defs: {
          bigint: { $anchor: 'bigint', maximum: 10 },
          smallint: { $id: '/ref-and-id/', $anchor: 'bigint', maximum: 2 },
        },
      },
      [
        [5, true],
        [50, false],
      ],
    );
  });

  it('resolves absolute-path and dot-segment references', () => {
    expectExamples(
      {
        $id: 'http://example.com/schemas/v1/root.json',
        $defs: {
          a: { $id: '/absolute/a.json', type: 'integer' },
          b: { $id: '../shared/b.json', type: 'string' },
        },
        properties: { a: { $ref: 'http://example.com/absolute/a.json' }, b: { $ref: '../shared/b.json' } },
      },
      [
        [{ a: 1, b: 'x' }, true],
        [{ a: 'x' }, false],
        [{ b: 1 }, false],
      ],
    );
  });

  it('supports URN and tag identifiers, which WHATWG URL cannot resolve against', () => {
    expectExamples(
      {
        $id: 'urn:uuid:deadbeef-1234-ffff-ffff-4321feebdaed',
        $defs: { bar: { type: 'string' } },
        properties: {
          a: { $ref: 'urn:uuid:deadbeef-1234-ffff-ffff-4321feebdaed#/$defs/bar' },
          b: { $ref: '#/$defs/bar' },
        },
      },
      [
        [{ a: 'x', b: 'y' }, true],
        [{ a: 1 }, false],
        [{ b: 1 }, false],
      ],
    );
    expectExamples(
      { $id: 'tag:example.com,2024:root', $defs: { n: { $anchor: 'n', type: 'null' } }, $ref: '#n' },
      [
        [null, true],
        [0, false],
      ],
    );
  });

  it('resolves a file: base', () => {
    expectExamples(
      { $id: 'file:///folder/file.json', $defs: { foo: { type: 'number' } }, $ref: '#/$defs/foo' },
      [
        [1, true],
        ['a', false],
      ],
    );
  });

  it('ignores $id inside enum, const and unknown keywords', () => {
    expectExamples(
      {
        $defs: {
          fake: { enum: [{ $id: 'http://example.com/id.json', type: 'null' }] },
          unknown: { 'x-meta': { $id: 'http://example.com/id.json', type: 'integer' } },
          real: { $id: 'http://example.com/id.json', type: 'string' },
        },
        $ref: 'http://example.com/id.json',
      },
      [
        ['a', true],
        [1, false],
      ],
    );
  });

  it('lets an embedded resource declare its own dialect', () => {
    const schema = {
      $defs: {
        legacy: {
          $id: 'http://example.com/legacy.json',
          $schema: D7,
          items: [{ type: 'string' }],
          additionalItems: false,
        },
      },
      $ref: 'http://example.com/legacy.json',
    };
    expectExamples(schema, [
      [['a'], true],
      [['a', 'b'], false],
      [[1], false],
    ]);
  });

  it('rejects duplicate resource identifiers', () => {
    const error = schemaError({ $defs: { a: { $id: 'http://x/a.json' }, b: { $id: 'http://x/a.json' } } });
    expect(error.code).toBe('invalid-schema');
  });
});

describe('anchors', () => {
  it('resolves $anchor within its resource', () => {
    expectExamples(
      {
        $id: 'http://example.com/root',
        $defs: {
          A: {
            $id: 'child1',
            allOf: [
              { $id: 'child2', $anchor: 'my_anchor', type: 'number' },
              { $anchor: 'my_anchor', type: 'string' },
            ],
          },
        },
        $ref: 'child1#my_anchor',
      },
      [
        ['a', true],
        [1, false],
      ],
    );
  });

  it('supports draft-07 location-independent identifiers ($id: "#name")', () => {
    expectExamples(
      { $schema: D7, definitions: { a: { $id: '#foo', type: 'integer' } }, allOf: [{ $ref: '#foo' }] },
      [
        [1, true],
        ['a', false],
      ],
    );
  });

  it('reports a missing anchor as unresolved', () => {
    const error = schemaError({ $ref: '#nope' });
    expect(error.code).toBe('unresolved-ref');
    expect(error.message).toContain('#nope');
  });
});

describe('draft-07 $ref', () => {
  it('ignores a sibling $id when resolving', () => {
    expectExamples(
      {
        $schema: D7,
        $id: 'http://localhost/sibling_id/base/',
        definitions: {
          foo: { $id: 'http://localhost/sibling_id/foo.json', type: 'string' },
          base_foo: { $id: 'foo.json', type: 'number' },
        },
        allOf: [{ $id: 'http://localhost/sibling_id/', $ref: 'foo.json' }],
      },
      [
        [1, true],
        ['a', false],
      ],
    );
  });
});

describe('recursion', () => {
  const tree = {
    $defs: {
      node: {
        type: 'object',
        properties: {
          value: { type: 'number' },
          children: { type: 'array', items: { $ref: '#/$defs/node' } },
        },
        required: ['value'],
        additionalProperties: false,
      },
    },
    $ref: '#/$defs/node',
  };

  it('validates recursive structures through $ref cycles', () => {
    expectExamples(tree, [
      [{ value: 1, children: [{ value: 2, children: [{ value: 3 }] }] }, true],
      [{ value: 1, children: [{ value: 2, children: [{ value: 'x' }] }] }, false],
      [{ value: 1, children: [{ children: [] }] }, false],
    ]);
  });

  it('supports a $ref back to the root', () => {
    expectExamples({ type: 'object', properties: { next: { $ref: '#' } }, additionalProperties: false }, [
      [{ next: { next: {} } }, true],
      [{ next: { next: { other: 1 } } }, false],
    ]);
  });

  it('reports paths through recursion', () => {
    const result = compileSchema(tree).validate({
      value: 1,
      children: [{ value: 2, children: [{ value: 'x' }] }],
    });
    expect(result.valid).toBe(false);
    if (!result.valid) {
      expect(result.issues[0]).toMatchObject({
        instancePath: '/children/0/children/0/value',
        schemaPath: '#/$defs/node/properties/value/type',
        keyword: 'type',
      });
    }
  });

  it('evaluates the same location against the same data twice without calling it a loop', () => {
    expectExamples(
      {
        $defs: { int: { type: 'integer' } },
        allOf: [
          { properties: { foo: { $ref: '#/$defs/int' } } },
          { additionalProperties: { $ref: '#/$defs/int' } },
        ],
      },
      [
        [{ foo: 1 }, true],
        [{ foo: 'a string' }, false],
      ],
    );
  });
});

describe('$dynamicRef', () => {
  it('behaves like $ref without a dynamic anchor in scope', () => {
    expectExamples(
      {
        type: 'array',
        items: { $dynamicRef: '#items' },
        $defs: { foo: { $dynamicAnchor: 'items', type: 'string' } },
      },
      [
        [['a'], true],
        [[1], false],
      ],
    );
    expectExamples({ $dynamicRef: '#/$defs/number', $defs: { number: { type: 'number' } } }, [
      [1, true],
      ['', false],
    ]);
  });

  it('resolves to the outermost $dynamicAnchor in the dynamic scope', () => {
    expectExamples(
      {
        $id: 'https://example.com/root',
        $ref: 'list',
        $defs: {
          foo: { $dynamicAnchor: 'items', type: 'string' },
          list: {
            $id: 'list',
            type: 'array',
            items: { $dynamicRef: '#items' },
            $defs: { items: { $dynamicAnchor: 'items' } },
          },
        },
      },
      [
        [['a', 'b'], true],
        [['a', 1], false],
      ],
    );
  });

  it('needs the initial target to carry a matching $dynamicAnchor (bookending)', () => {
    expectExamples(
      {
        $id: 'https://example.com/root',
        $ref: 'list',
        $defs: {
          foo: { $dynamicAnchor: 'items', type: 'string' },
          list: {
            $id: 'list',
            type: 'array',
            items: { $dynamicRef: '#items' },
            $defs: { items: { $anchor: 'items' } },
          },
        },
      },
      [[['a', 1], true]],
    );
  });

  it('ignores $anchor when searching the dynamic scope', () => {
    expectExamples(
      {
        $id: 'https://example.com/root',
        $ref: 'list',
        $defs: {
          foo: { $anchor: 'items', type: 'string' },
          list: {
            $id: 'list',
            type: 'array',
            items: { $dynamicRef: '#items' },
            $defs: { items: { $dynamicAnchor: 'items' } },
          },
        },
      },
      [[['a', 1], true]],
    );
  });

  it('picks the scope entered through the path actually taken', () => {
    expectExamples(
      {
        $id: 'https://example.com/main',
        if: { properties: { kind: { const: 'numbers' } }, required: ['kind'] },
        then: { $ref: 'numberList' },
        else: { $ref: 'stringList' },
        $defs: {
          genericList: {
            $id: 'genericList',
            properties: { list: { items: { $dynamicRef: '#itemType' } } },
            $defs: { defaultItemType: { $dynamicAnchor: 'itemType' } },
          },
          numberList: {
            $id: 'numberList',
            $defs: { itemType: { $dynamicAnchor: 'itemType', type: 'number' } },
            $ref: 'genericList',
          },
          stringList: {
            $id: 'stringList',
            $defs: { itemType: { $dynamicAnchor: 'itemType', type: 'string' } },
            $ref: 'genericList',
          },
        },
      },
      [
        [{ kind: 'numbers', list: [1.1] }, true],
        [{ kind: 'numbers', list: ['a'] }, false],
        [{ kind: 'strings', list: [1.1] }, false],
        [{ kind: 'strings', list: ['a'] }, true],
      ],
    );
  });

  it('forgets a scope once evaluation has left it', () => {
    expectExamples(
      {
        $id: 'https://example.com/main',
        if: { $id: 'first_scope', $defs: { thingy: { $dynamicAnchor: 'thingy', type: 'number' } } },
        then: {
          $id: 'second_scope',
          $ref: 'start',
          $defs: { thingy: { $dynamicAnchor: 'thingy', type: 'null' } },
        },
        $defs: {
          start: { $id: 'start', $dynamicRef: 'inner_scope#thingy' },
          thingy: { $id: 'inner_scope', $dynamicAnchor: 'thingy', type: 'string' },
        },
      },
      [
        ['a string', false],
        [42, false],
        [null, true],
      ],
    );
  });

  it('extends a recursive schema (the meta-schema pattern)', () => {
    const base = {
      $id: 'https://example.com/tree',
      $dynamicAnchor: 'node',
      type: 'object',
      properties: { data: true, children: { type: 'array', items: { $dynamicRef: '#node' } } },
    };
    const strict = {
      $id: 'https://example.com/strict-tree',
      $dynamicAnchor: 'node',
      $ref: 'tree',
      unevaluatedProperties: false,
      $defs: { tree: base },
    };
    expectExamples(strict, [
      [{ children: [{ data: 1 }] }, true],
      [{ children: [{ daat: 1 }] }, false],
    ]);
    // The base alone stays permissive.
    expectExamples(base, [[{ children: [{ daat: 1 }] }, true]]);
  });
});

describe('refs that would need fetching', () => {
  it('rejects a network URI that is not embedded', () => {
    const error = schemaError({ $ref: 'https://example.com/schemas/x.json' });
    expect(error.code).toBe('external-ref');
    expect(error.message).toContain('https://example.com/schemas/x.json');
    expect(error.message).toMatch(/never fetches/);
  });

  it('rejects relative refs to documents that are not embedded', () => {
    expect(schemaError({ properties: { a: { $ref: 'other.json#/$defs/a' } } }).code).toBe('external-ref');
  });

  it('does not fetch the dialect meta-schemas either', () => {
    expect(schemaError({ $ref: 'https://json-schema.org/draft/2020-12/schema' }).code).toBe('external-ref');
    expect(schemaError({ $schema: D7, $ref: 'http://json-schema.org/draft-07/schema#' }).code).toBe(
      'external-ref',
    );
  });

  it('rejects unresolvable refs inside $defs too, even if never used', () => {
    expect(schemaError({ $defs: { unused: { $ref: 'https://example.com/x.json' } } }).code).toBe(
      'external-ref',
    );
  });

  it('rejects a pointer that leads nowhere', () => {
    const error = schemaError({ $defs: { a: {} }, $ref: '#/$defs/b' });
    expect(error.code).toBe('unresolved-ref');
    expect(error.message).toContain('#/$defs/b');
  });
});

describe('degenerate identifiers', () => {
  it('accepts an $id that names the enclosing resource again', () => {
    expectExamples(
      {
        $id: 'http://example.com/a',
        properties: { x: { $id: '', type: 'string' }, y: { $id: '#', type: 'integer' } },
      },
      [
        [{ x: 'a', y: 1 }, true],
        [{ x: 1 }, false],
      ],
    );
  });
});
