import { codePointLength } from './string.js';

/** Leaf kinds the object fast path checks inline, without calling the property's compiled closure. */
const enum Leaf {
  String = 1,
  Integer = 2,
  Number = 3,
  Boolean = 4,
  Null = 5,
}

const LEAF_TYPES: Readonly<Record<string, Leaf>> = {
  string: Leaf.String,
  integer: Leaf.Integer,
  number: Leaf.Number,
  boolean: Leaf.Boolean,
  null: Leaf.Null,
};

const LEAF_KEYWORDS = new Set([
  'type',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'minLength',
  'maxLength',
  'title',
  'description',
  'default',
  'examples',
  '$comment',
  'deprecated',
  'readOnly',
  'writeOnly',
]);

/** Bounds of an inline leaf: lengths for strings, values for numbers; ±Infinity when absent. */
export interface LeafSpec {
  kind: Leaf;
  lo: number;
  hi: number;
  exLo: number;
  exHi: number;
}

/**
 * Most tool arguments are plain typed leaves (`{ type: 'string', description }`, `{ type: 'integer',
 * minimum: 0 }`). Checking those inline saves a closure call per property on the hot path.
 */
export function leafSpec(schema: unknown): LeafSpec | undefined {
  if (typeof schema !== 'object' || schema === null) return undefined;
  const s = schema as Record<string, unknown>;
  for (const key in s) if (!LEAF_KEYWORDS.has(key)) return undefined;
  const kind =
    typeof s['type'] === 'string' && Object.hasOwn(LEAF_TYPES, s['type']) ? LEAF_TYPES[s['type']] : undefined;
  if (kind === undefined) return undefined;
  const num = (k: string, fallback: number): number => (typeof s[k] === 'number' ? s[k] : fallback);
  if (kind === Leaf.String) {
    return { kind, lo: num('minLength', 0), hi: num('maxLength', Infinity), exLo: -Infinity, exHi: Infinity };
  }
  return {
    kind,
    lo: num('minimum', -Infinity),
    hi: num('maximum', Infinity),
    exLo: num('exclusiveMinimum', -Infinity),
    exHi: num('exclusiveMaximum', Infinity),
  };
}

/** Whether `x` satisfies the leaf; equivalent to running its compiled subschema in fast mode. */
export function leafOk(spec: LeafSpec, x: unknown): boolean {
  switch (spec.kind) {
    case Leaf.String:
      return (
        typeof x === 'string' &&
        (x.length <= spec.hi || codePointLength(x) <= spec.hi) &&
        (x.length >= 2 * spec.lo || (x.length >= spec.lo && codePointLength(x) >= spec.lo))
      );
    case Leaf.Integer:
      return Number.isInteger(x) && numberInRange(spec, x as number);
    case Leaf.Number:
      return typeof x === 'number' && Number.isFinite(x) && numberInRange(spec, x);
    case Leaf.Boolean:
      return typeof x === 'boolean';
    case Leaf.Null:
      return x === null;
  }
}

function numberInRange(spec: LeafSpec, x: number): boolean {
  return x >= spec.lo && x <= spec.hi && x > spec.exLo && x < spec.exHi;
}
