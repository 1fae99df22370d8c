/**
 * Micro-benchmark: our validator against Ajv (which generates code) on a 3-field tool input, the shape a
 * benchmarked `tools/call` validates. Run from the repository root:
 *
 *   npx vitest bench --run packages/mcpengine/src/schema/validator.bench.ts
 *
 * Note that vitest loads modules through Vite, which adds a little overhead to cross-module calls that native
 * ESM (the published build) does not have.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import { bench, describe } from 'vitest';
import { compileSchema } from './compile.js';

const schema = {
  type: 'object',
  properties: { a: { type: 'string' }, b: { type: 'integer', minimum: 0 }, c: { type: 'boolean' } },
  required: ['a', 'b'],
  additionalProperties: false,
};

const ours = compileSchema(schema);
const ajv = new Ajv2020({ strict: false }).compile(schema);
const ajvAllErrors = new Ajv2020({ strict: false, allErrors: true }).compile(schema);

// Distinct objects, as parsed from different requests, so neither side benefits from one hot object.
const parse = (value: unknown): unknown => JSON.parse(JSON.stringify(value));
const valid = Array.from({ length: 64 }, (_, i) =>
  parse(i % 2 === 0 ? { a: 'name' + i, b: i, c: i % 3 === 0 } : { a: 'x', b: i }),
);
const invalid = Array.from({ length: 64 }, (_, i) =>
  parse(i % 2 === 0 ? { a: 'name', b: -i - 1 } : { a: 'x', b: i, d: true }),
);

let sink = 0;

describe('is(): valid input (64 objects per iteration)', () => {
  bench('mcpengine is()', () => {
    for (const v of valid) if (ours.is(v)) sink++;
  });
  bench('ajv validate()', () => {
    for (const v of valid) if (ajv(v)) sink++;
  });
});

describe('is(): invalid input (64 objects per iteration)', () => {
  bench('mcpengine is()', () => {
    for (const v of invalid) if (ours.is(v)) sink++;
  });
  bench('ajv validate()', () => {
    for (const v of invalid) if (ajv(v)) sink++;
  });
});

describe('validate(): valid input, result object', () => {
  bench('mcpengine validate()', () => {
    for (const v of valid) if (ours.validate(v).valid) sink++;
  });
  bench('ajv validate()', () => {
    for (const v of valid) if (ajv(v)) sink++;
  });
});

describe('validate(): invalid input, every issue', () => {
  bench('mcpengine validate()', () => {
    for (const v of invalid) {
      const result = ours.validate(v);
      if (!result.valid) sink += result.issues.length;
    }
  });
  bench('ajv validate() with allErrors', () => {
    for (const v of invalid) if (!ajvAllErrors(v)) sink += ajvAllErrors.errors?.length ?? 0;
  });
});

export { sink };
