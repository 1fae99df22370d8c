import { predicateOf, type Check, type Ctx } from './context.js';
import { MAX_REF_STEPS, STEPS_MESSAGE } from './keywords/ref.js';
import type { Dialect, JsonSchema, JsonSchemaValidator, ValidationResult } from './types.js';

export interface ValidatorSettings {
  readonly maxIssues: number;
  /** Whether the document has any `$ref`/`$dynamicRef`: only they touch `Ctx.depth` and `Ctx.steps`. */
  readonly usesRefs: boolean;
  readonly usesDynamicRef: boolean;
}

/** Wraps a compiled root check in the public validator interface. */
export function createValidator<T>(
  schema: JsonSchema,
  dialect: Dialect,
  root: Check,
  settings: ValidatorSettings,
): JsonSchemaValidator<T> {
  const { maxIssues, usesRefs, usesDynamicRef } = settings;
  // Validation is synchronous and runs no user code, so one fast-path context can be reused by every call.
  const fast: Ctx = { issues: null, maxIssues, depth: 0, steps: 0, scope: usesDynamicRef ? [] : null };

  // Only refs touch depth, steps and scope; without refs there is nothing to reset. A root check with a plain
  // predicate (a simple object of typed leaves) needs no context at all.
  const predicate = usesRefs ? undefined : predicateOf(root);
  const is = predicate
    ? (predicate as (value: unknown) => value is T)
    : usesRefs
      ? (value: unknown): value is T => {
          fast.depth = 0;
          fast.steps = 0;
          if (fast.scope !== null) fast.scope.length = 0;
          return root(value, '', fast, null);
        }
      : (value: unknown): value is T => root(value, '', fast, null);

  const validate = (value: unknown): ValidationResult<T> => {
    // Valid values take the fast path; only failures pay for collecting issues.
    if (is(value)) return { valid: true, value };
    const issues: NonNullable<Ctx['issues']> = [];
    const ctx: Ctx = { issues, maxIssues, depth: 0, steps: 0, scope: usesDynamicRef ? [] : null };
    root(value, '', ctx, null);
    // An exhausted budget aborts the whole validation; say so first, whatever else was reported.
    if (ctx.steps > MAX_REF_STEPS) {
      issues.unshift({ instancePath: '', schemaPath: '#', keyword: '$ref', message: STEPS_MESSAGE });
      if (issues.length > maxIssues) issues.length = maxIssues;
    }
    if (issues.length === 0) {
      issues.push({ instancePath: '', schemaPath: '#', keyword: 'schema', message: 'must match the schema' });
    }
    return { valid: false, issues };
  };

  return Object.freeze({ schema, dialect, is, validate });
}
