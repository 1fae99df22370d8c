import { describe, expect, it } from 'vitest';
import { compileSchema } from './compile.js';
import { SchemaError } from './errors.js';
import { checkSchema } from './meta.js';
import type { JsonSchema } from './types.js';

function nest(levels: number, wrap: (inner: JsonSchema) => JsonSchema): JsonSchema {
  let schema: JsonSchema = { type: 'string' };
  for (let i = 0; i < levels; i++) schema = wrap(schema);
  return schema;
}

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (error) {
    if (error instanceof SchemaError) return error.code;
    throw error;
  }
  return undefined;
}

describe('schema bounds', () => {
  it('accepts nesting up to maxDepth and rejects deeper schemas', () => {
    expect(codeOf(() => compileSchema(nest(64, (s) => ({ allOf: [s] }))))).toBeUndefined();
    expect(codeOf(() => compileSchema(nest(65, (s) => ({ allOf: [s] }))))).toBe('too-complex');
    expect(
      codeOf(() =>
        compileSchema(
          nest(10, (s) => ({ not: s })),
          { maxDepth: 5 },
        ),
      ),
    ).toBe('too-complex');
  });

  it('rejects hostile nesting without overflowing the stack', () => {
    const deep = nest(100_000, (s) => ({ properties: { a: s } }));
    expect(codeOf(() => compileSchema(deep))).toBe('too-complex');
    // checkSchema stops descending instead of crashing.
    expect(checkSchema(deep).some((i) => /nesting/.test(i.message))).toBe(true);
  });

  it('caps the number of subschemas', () => {
    const wide = { anyOf: Array.from({ length: 10_001 }, (_, i) => ({ const: i })) };
    expect(codeOf(() => compileSchema(wide))).toBe('too-complex');
    expect(codeOf(() => compileSchema({ anyOf: [{}, {}, {}] }, { maxSubschemas: 3 }))).toBe('too-complex');
    expect(codeOf(() => compileSchema({ anyOf: [{}, {}] }, { maxSubschemas: 3 }))).toBeUndefined();
  });

  it('rejects a schema object that contains itself', () => {
    const cyclic: { [key: string]: unknown } = { type: 'object' };
    cyclic['properties'] = { self: cyclic };
    expect(codeOf(() => compileSchema(cyclic))).toBe('too-complex');
  });
});

describe('instance bounds', () => {
  const list = {
    $defs: { node: { type: 'array', items: { $ref: '#/$defs/node' } } },
    $ref: '#/$defs/node',
  };

  function deepArray(depth: number): unknown {
    let value: unknown = [];
    for (let i = 0; i < depth; i++) value = [value];
    return value;
  }

  it('validates reasonably deep instances', () => {
    expect(compileSchema(list).is(deepArray(200))).toBe(true);
  });

  it('fails instead of crashing on very deep instances', () => {
    const validator = compileSchema(list);
    const deep = deepArray(100_000);
    expect(validator.is(deep)).toBe(false);
    const result = validator.validate(deep);
    expect(result.valid).toBe(false);
    if (!result.valid)
      expect(result.issues.some((i) => /maximum validation depth/.test(i.message))).toBe(true);
    // The validator is still usable afterwards.
    expect(validator.is(deepArray(3))).toBe(true);
  });

  it('terminates on reference loops that make no progress', () => {
    const loop = { $defs: { a: { $ref: '#/$defs/b' }, b: { $ref: '#/$defs/a' } }, $ref: '#/$defs/a' };
    expect(compileSchema(loop).is(1)).toBe(false);
  });

  it('compares deep values without recursion', () => {
    const validator = compileSchema({ uniqueItems: true });
    expect(validator.is([deepArray(50_000), deepArray(50_000)])).toBe(false);
    expect(validator.is([deepArray(50_000), deepArray(49_999)])).toBe(true);
    expect(compileSchema({ const: [[[1]]] }).is(deepArray(50_000))).toBe(false);
  });

  it('caps the number of reported issues', () => {
    const validator = compileSchema({ items: { type: 'string' } }, { maxIssues: 5 });
    const result = validator.validate(Array.from({ length: 1000 }, (_, i) => i));
    expect(result.valid).toBe(false);
    if (!result.valid) expect(result.issues).toHaveLength(5);
  });
});

describe('validation time', () => {
  it('bounds the work a schema can demand through references', () => {
    // Each level tries two branches that both refer to the next level: 2^40 paths without a budget.
    const $defs: Record<string, JsonSchema> = { l40: { type: 'string' } };
    for (let i = 39; i >= 0; i--)
      $defs[`l${i}`] = { anyOf: [{ $ref: `#/$defs/l${i + 1}` }, { $ref: `#/$defs/l${i + 1}` }] };
    const validator = compileSchema({ $defs, $ref: '#/$defs/l0' });
    const started = Date.now();
    expect(validator.is(1)).toBe(false);
    const result = validator.validate(1);
    expect(result.valid).toBe(false);
    if (!result.valid) expect(result.issues.some((i) => /validation budget/.test(i.message))).toBe(true);
    expect(Date.now() - started).toBeLessThan(10_000);
    // A valid instance is found quickly, as anyOf stops at the first passing branch.
    expect(validator.is('ok')).toBe(true);
  });

  it('allows many reference evaluations for large recursive instances', () => {
    const tree = {
      $defs: {
        node: {
          type: 'object',
          properties: { children: { type: 'array', items: { $ref: '#/$defs/node' } } },
        },
      },
      $ref: '#/$defs/node',
    };
    const wide = { children: Array.from({ length: 100_000 }, () => ({ children: [] })) };
    expect(compileSchema(tree).is(wide)).toBe(true);
  });
});
