/**
 * Example-based checks of the JSON Schema validator, for the schema tests: a schema with instances and whether
 * it accepts each.
 */
import { expect } from 'vitest';
import { compileSchema } from '../schema/compile.js';
import type { JsonSchema } from '../schema/types.js';

/** Instances with the verdict the schema must give each. */
export type Examples = readonly (readonly [unknown, boolean])[];

/** `is()` and `validate()` must both give the expected verdict, and a failure must come with issues. */
export function expectExamples(schema: JsonSchema, examples: Examples): void {
  const validator = compileSchema(schema);
  for (const [instance, valid] of examples) {
    const label = `${JSON.stringify(schema)} on ${JSON.stringify(instance)}`;
    expect(validator.is(instance), label).toBe(valid);
    const result = validator.validate(instance);
    expect(result.valid, `validate(): ${label}`).toBe(valid);
    if (!result.valid) expect(result.issues.length, `issues: ${label}`).toBeGreaterThan(0);
  }
}
