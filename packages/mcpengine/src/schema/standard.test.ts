import { type } from 'arktype';
import { toStandardJsonSchema } from '@valibot/to-json-schema';
import * as v from 'valibot';
import { describe, expect, expectTypeOf, it } from 'vitest';
import * as z from 'zod';
import { SchemaError } from './errors.js';
import { isStandardSchema, toToolSchema, type StandardSchemaLike } from './standard.js';
import type { ValidationResult } from './types.js';

async function settle<T>(
  result: ValidationResult<T> | Promise<ValidationResult<T>>,
): Promise<ValidationResult<T>> {
  return await result;
}

describe('toToolSchema with a plain JSON Schema', () => {
  it('compiles it and validates synchronously', () => {
    const schema = toToolSchema<{ a: string }>({
      type: 'object',
      properties: { a: { type: 'string' } },
      required: ['a'],
    });
    expect(schema.dialect).toBe('2020-12');
    expect(schema.jsonSchema).toEqual({
      type: 'object',
      properties: { a: { type: 'string' } },
      required: ['a'],
    });
    const ok = schema.validate({ a: 'x' });
    expect(ok).toEqual({ valid: true, value: { a: 'x' } });
    expect(schema.validate({})).toMatchObject({ valid: false, issues: [{ keyword: 'required' }] });
  });

  it('reports the declared dialect and turns boolean schemas into objects', () => {
    expect(toToolSchema({ $schema: 'http://json-schema.org/draft-07/schema#' }).dialect).toBe('draft-07');
    expect(toToolSchema(true).jsonSchema).toEqual({});
    expect(toToolSchema(false).jsonSchema).toEqual({ not: {} });
  });

  it('rejects what compileSchema rejects', () => {
    expect(() => toToolSchema({ $ref: 'https://example.com/x.json' })).toThrow(SchemaError);
  });
});

describe('toToolSchema with zod 4', () => {
  const User = z.object({
    name: z.string().min(1),
    age: z.number().int().min(0),
    tags: z.array(z.string()).optional(),
  });

  it("advertises zod's own 2020-12 JSON Schema and validates with zod", async () => {
    const schema = toToolSchema(User);
    expectTypeOf(schema.validate).returns.resolves.toEqualTypeOf<ValidationResult<z.infer<typeof User>>>();
    expect(schema.dialect).toBe('2020-12');
    expect(schema.jsonSchema).toMatchObject({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      required: ['name', 'age'],
    });
    expect(await settle(schema.validate({ name: 'a', age: 1 }))).toEqual({
      valid: true,
      value: { name: 'a', age: 1 },
    });
    const bad = await settle(schema.validate({ name: '', age: 1.5, tags: ['a', 2] }));
    expect(bad.valid).toBe(false);
    if (!bad.valid) {
      expect(bad.issues.map((i) => i.instancePath).sort()).toEqual(['/age', '/name', '/tags/1']);
      expect(bad.issues.every((i) => typeof i.message === 'string' && i.keyword.length > 0)).toBe(true);
    }
  });

  it('returns the transformed value, and describes the input side by default', async () => {
    const Length = z.object({ text: z.string().transform((s) => s.length) });
    const schema = toToolSchema(Length);
    expect(schema.jsonSchema).toMatchObject({ properties: { text: { type: 'string' } } });
    expect(await settle(schema.validate({ text: 'abcd' }))).toEqual({ valid: true, value: { text: 4 } });
    // The output side of a transform has no JSON Schema: a clear error, not a wrong schema.
    expect(() => toToolSchema(Length, { io: 'output' })).toThrow(/could not convert/);
  });

  it('uses the output side for output schemas', () => {
    const WithDefault = z.object({ n: z.number().default(1) });
    expect(toToolSchema(WithDefault, { io: 'output' }).jsonSchema).toMatchObject({ required: ['n'] });
    expect(toToolSchema(WithDefault).jsonSchema).not.toHaveProperty('required');
  });

  it('supports asynchronous refinements', async () => {
    const Async = z.string().refine(async (s) => s === 'ok', 'must be ok');
    const schema = toToolSchema(Async);
    const pending = schema.validate('nope');
    expect(pending).toBeInstanceOf(Promise);
    expect(await settle(pending)).toEqual({
      valid: false,
      issues: [expect.objectContaining({ instancePath: '', message: 'must be ok' })],
    });
    expect(await settle(schema.validate('ok'))).toEqual({ valid: true, value: 'ok' });
  });
});

describe('toToolSchema with arktype 2', () => {
  const User = type({ name: 'string', age: 'number.integer >= 0', 'nickname?': 'string' });

  it("advertises arktype's JSON Schema and validates with arktype", async () => {
    const schema = toToolSchema(User);
    expect(schema.dialect).toBe('2020-12');
    expect(schema.jsonSchema).toMatchObject({ type: 'object', required: ['age', 'name'] });
    expect(await settle(schema.validate({ name: 'a', age: 2 }))).toEqual({
      valid: true,
      value: { name: 'a', age: 2 },
    });
    const bad = await settle(schema.validate({ name: 1, age: -1 }));
    expect(bad.valid).toBe(false);
    if (!bad.valid) expect(bad.issues.map((i) => i.instancePath).sort()).toEqual(['/age', '/name']);
  });

  it('returns morphed values', async () => {
    const Parsed = type({ count: 'string.numeric.parse' });
    const schema = toToolSchema(Parsed);
    expect(schema.jsonSchema).toMatchObject({ properties: { count: { type: 'string' } } });
    expect(await settle(schema.validate({ count: '12' }))).toEqual({ valid: true, value: { count: 12 } });
  });
});

describe('toToolSchema with valibot 1', () => {
  const User = v.object({ name: v.pipe(v.string(), v.minLength(1)), age: v.number() });

  it('explains that valibot needs its JSON Schema converter', () => {
    expect(() => toToolSchema(User)).toThrow(SchemaError);
    expect(() => toToolSchema(User)).toThrow(/toStandardJsonSchema\(\) from @valibot\/to-json-schema/);
  });

  it('works with the real toStandardJsonSchema() of @valibot/to-json-schema', async () => {
    const schema = toToolSchema(toStandardJsonSchema(User));
    expect(schema.jsonSchema).toMatchObject({
      type: 'object',
      properties: { name: { type: 'string', minLength: 1 }, age: { type: 'number' } },
      required: ['name', 'age'],
    });
    expect(await settle(schema.validate({ name: 'Ada', age: 36 }))).toEqual({
      valid: true,
      value: { name: 'Ada', age: 36 },
    });
    const bad = await settle(schema.validate({ name: '', age: 'x' }));
    expect(bad.valid).toBe(false);
    if (!bad.valid) expect(bad.issues.map((i) => i.instancePath).sort()).toEqual(['/age', '/name']);
  });

  it('works once wrapped with a Standard JSON Schema converter', async () => {
    // The shape @valibot/to-json-schema's toStandardJsonSchema() produces, written out for the test so that
    // package need not be installed.
    const wrapped: StandardSchemaLike<unknown, v.InferOutput<typeof User>> = {
      '~standard': {
        ...User['~standard'],
        jsonSchema: {
          input: () => ({
            $schema: 'http://json-schema.org/draft-07/schema#',
            type: 'object',
            properties: { name: { type: 'string', minLength: 1 }, age: { type: 'number' } },
            required: ['name', 'age'],
          }),
          output: () => ({}),
        },
      },
    };
    const schema = toToolSchema(wrapped);
    expect(schema.dialect).toBe('draft-07');
    expect(await settle(schema.validate({ name: 'a', age: 1 }))).toEqual({
      valid: true,
      value: { name: 'a', age: 1 },
    });
    const bad = await settle(schema.validate({ name: '', age: 'x' }));
    expect(bad.valid).toBe(false);
    // valibot paths are { key } segments.
    if (!bad.valid) expect(bad.issues.map((i) => i.instancePath).sort()).toEqual(['/age', '/name']);
  });
});

describe('Standard Schema edge cases', () => {
  it('falls back to draft-07 and labels the export with $schema', () => {
    const draft07Only: StandardSchemaLike = {
      '~standard': {
        version: 1,
        vendor: 'test',
        validate: (value) => ({ value }),
        jsonSchema: {
          input: ({ target }) => {
            if (target !== 'draft-07') throw new Error(`unsupported target ${target}`);
            return { type: 'object' };
          },
          output: () => ({}),
        },
      },
    };
    const schema = toToolSchema(draft07Only);
    expect(schema.dialect).toBe('draft-07');
    expect(schema.jsonSchema).toEqual({ $schema: 'http://json-schema.org/draft-07/schema#', type: 'object' });
  });

  it('validates with the compiled JSON Schema when only a JSON Schema converter is offered', () => {
    const jsonOnly: StandardSchemaLike = {
      '~standard': {
        version: 1,
        vendor: 'test',
        jsonSchema: { input: () => ({ type: 'integer' }), output: () => ({ type: 'integer' }) },
      },
    };
    const schema = toToolSchema(jsonOnly);
    expect(schema.validate(1)).toEqual({ valid: true, value: 1 });
    expect(schema.validate('a')).toMatchObject({ valid: false });
  });

  it('rejects an exported JSON Schema that is not self-contained', () => {
    const external: StandardSchemaLike = {
      '~standard': {
        version: 1,
        vendor: 'test',
        validate: (value) => ({ value }),
        jsonSchema: { input: () => ({ $ref: 'https://example.com/x.json' }), output: () => ({}) },
      },
    };
    expect(() => toToolSchema(external)).toThrow(expect.objectContaining({ code: 'external-ref' }));
  });

  it('maps symbol and object path segments to JSON Pointers', () => {
    const failing: StandardSchemaLike = {
      '~standard': {
        version: 1,
        vendor: 'test',
        validate: () => ({
          issues: [{ message: 'bad', path: ['a/b', { key: 2 }, Symbol('s')] }, { message: 'root' }],
        }),
        jsonSchema: { input: () => ({}), output: () => ({}) },
      },
    };
    expect(toToolSchema(failing).validate(null)).toEqual({
      valid: false,
      issues: [
        { instancePath: '/a~1b/2/s', schemaPath: '', keyword: 'test', message: 'bad' },
        { instancePath: '', schemaPath: '', keyword: 'test', message: 'root' },
      ],
    });
  });

  it('recognises Standard Schema objects structurally', () => {
    expect(isStandardSchema(z.string())).toBe(true);
    expect(isStandardSchema(type('string'))).toBe(true);
    expect(isStandardSchema(v.string())).toBe(true);
    expect(isStandardSchema({ type: 'string' })).toBe(false);
    expect(isStandardSchema(true)).toBe(false);
  });
});
