import { isObject, report, type Check, type Ctx } from '../context.js';
import type { KeywordCompiler, KeywordContext } from '../keyword.js';

const TESTS: Readonly<Record<string, (v: unknown) => boolean>> = {
  string: (v) => typeof v === 'string',
  number: (v) => typeof v === 'number' && Number.isFinite(v),
  // JSON Schema integers are numbers with a zero fractional part, so 1.0 is one.
  integer: (v) => Number.isInteger(v),
  boolean: (v) => typeof v === 'boolean',
  null: (v) => v === null,
  array: (v) => Array.isArray(v),
  object: isObject,
};

const NOUNS: Readonly<Record<string, string>> = {
  string: 'a string',
  number: 'a number',
  integer: 'an integer',
  boolean: 'a boolean',
  null: 'null',
  array: 'an array',
  object: 'an object',
};

export function describeTypes(types: readonly string[]): string {
  const nouns = types.map((t) => NOUNS[t] ?? t);
  return nouns.length <= 1
    ? (nouns[0] ?? '')
    : nouns.slice(0, -1).join(', ') + ' or ' + nouns[nouns.length - 1];
}

/**
 * Single types whose keyword family checks the type itself, so a typical leaf like
 * `{ type: 'integer', minimum: 0 }` compiles to one closure instead of a type check plus a bounds check.
 */
export type ClaimedType = 'string' | 'number' | 'integer' | 'object';

export function claimedType(cx: KeywordContext): ClaimedType | undefined {
  const type = cx.schema['type'];
  return type === 'string' || type === 'number' || type === 'integer' || type === 'object' ? type : undefined;
}

/** Reports a `type` failure; returns `false` so callers can `return typeFailure(...)(p, c)`. */
export function typeFailure(cx: KeywordContext): (path: string, ctx: Ctx) => false {
  const type = cx.schema['type'];
  const types = (Array.isArray(type) ? type : [type]) as string[];
  const schemaPath = cx.at('type');
  const message = 'must be ' + describeTypes(types);
  return (path, ctx) => {
    report(ctx, path, schemaPath, 'type', message);
    return false;
  };
}

export const compileType: KeywordCompiler = (cx, out) => {
  const type = cx.schema['type'];
  if (type === undefined || claimedType(cx) !== undefined) return;
  const fail = typeFailure(cx);
  let check: Check;
  switch (type) {
    case 'boolean':
      check = (v, p, c) => typeof v === 'boolean' || fail(p, c);
      break;
    case 'array':
      check = (v, p, c) => Array.isArray(v) || fail(p, c);
      break;
    case 'null':
      check = (v, p, c) => v === null || fail(p, c);
      break;
    default: {
      const tests = ((Array.isArray(type) ? type : [type]) as string[]).map((t) => TESTS[t] ?? (() => false));
      check = (v, p, c) => {
        for (const test of tests) if (test(v)) return true;
        return fail(p, c);
      };
    }
  }
  out.push(check);
};
