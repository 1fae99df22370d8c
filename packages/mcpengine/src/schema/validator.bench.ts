/**
 * Micro-benchmark: `is()` against Ajv (code-generating) on a 3-field tool input, the shape a benchmarked
 * `tools/call` validates. Run from the repository root:
 *
 *   npx vitest bench --run packages/mcpengine/src/schema/validator.bench.ts
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

// Several distinct objects, as parsed from different requests, so neither side benefits from one hot shape.
const valid: unknown[] = Array.from({ length: 64 }, (_, i) =>
  JSON.parse(JSON.stringify(i % 2 === 0 ? { a: 'name' + i, b: i, c: i % 3 === 0 } : { a: 'x', b: i })),
);
const invalid: unknown[] = Array.from({ length: 64 }, (_, i) =>
  JSON.parse(JSON.stringify(i % 2 === 0 ? { a: 'name', b: -i - 1 } : { a: 'x', b: i, d: true })),
);

let sink = 0;

describe('3-field object, valid input', () => {
  bench('mcpengine is()', () => {
    for (const v of valid) if (ours.is(v)) sink++;
  });
  bench('ajv validate()', () => {
    for (const v of valid) if (ajv(v)) sink++;
  });
});

describe('3-field object, invalid input', () => {
  bench('mcpengine is()', () => {
    for (const v of invalid) if (ours.is(v)) sink++;
  });
  bench('ajv validate()', () => {
    for (const v of invalid) if (ajv(v)) sink++;
  });
});

describe('3-field object, validate() with issues', () => {
  bench('mcpengine validate()', () => {
    for (const v of invalid) if (ours.validate(v).valid) sink++;
  });
  bench('ajv validate() + errors (allErrors: false)', () => {
    for (const v of invalid) if (ajv(v) || ajv.errors === null) sink++;
  });
});

export { sink };
