import { report, type Ctx } from '../context.js';
import type { KeywordCompiler } from '../keyword.js';
import { claimedType, typeFailure } from './type.js';

/** A finite number as an exact decimal: `mantissa × 10^exponent`. */
interface Decimal {
  mantissa: bigint;
  exponent: number;
}

/** Exact decimal of the shortest round-trip representation, i.e. the number as written in JSON. */
function toDecimal(n: number): Decimal {
  const [coefficient = '0', exp = '0'] = String(n).split('e');
  const dot = coefficient.indexOf('.');
  const digits = dot === -1 ? coefficient : coefficient.slice(0, dot) + coefficient.slice(dot + 1);
  return {
    mantissa: BigInt(digits),
    exponent: Number(exp) - (dot === -1 ? 0 : coefficient.length - dot - 1),
  };
}

function decimalMultiple(value: number, divisor: Decimal): boolean {
  const v = toDecimal(value);
  const e = Math.min(v.exponent, divisor.exponent);
  const scaledValue = v.mantissa * 10n ** BigInt(v.exponent - e);
  const scaledDivisor = divisor.mantissa * 10n ** BigInt(divisor.exponent - e);
  return scaledValue % scaledDivisor === 0n;
}

/**
 * `value` is a multiple of `divisor` in decimal terms, so 0.3 is a multiple of 0.1 although 0.3 / 0.1 is
 * 2.9999999999999996 in binary floating point. Integers and clear misses take the cheap path.
 */
export function isMultipleOf(value: number, divisor: number, exact: Decimal = toDecimal(divisor)): boolean {
  if (!Number.isFinite(value)) return false;
  if (Number.isInteger(value) && Number.isInteger(divisor)) return value % divisor === 0;
  const q = value / divisor;
  if (Number.isFinite(q) && Math.abs(q) < 2 ** 53) {
    const distance = Math.abs(q - Math.round(q));
    if (distance > 1e-9 * Math.max(1, Math.abs(q))) return false;
  }
  return decimalMultiple(value, exact);
}

const num = (value: unknown): number | undefined => (typeof value === 'number' ? value : undefined);

/**
 * The numeric keywords (and `type: number|integer`) as one closure: the fast path is a chain of comparisons
 * against bounds that default to ±Infinity; only a failure looks at which keyword failed.
 */
export const compileNumber: KeywordCompiler = (cx, out) => {
  const s = cx.schema;
  const typed = claimedType(cx);
  const ownsType = typed === 'number' || typed === 'integer';
  const min = num(s['minimum']);
  const max = num(s['maximum']);
  const exMin = num(s['exclusiveMinimum']);
  const exMax = num(s['exclusiveMaximum']);
  const divisor = num(s['multipleOf']);
  if (
    !ownsType &&
    min === undefined &&
    max === undefined &&
    exMin === undefined &&
    exMax === undefined &&
    divisor === undefined
  ) {
    return;
  }
  const lo = min ?? -Infinity;
  const hi = max ?? Infinity;
  const exLo = exMin ?? -Infinity;
  const exHi = exMax ?? Infinity;
  const exact = divisor === undefined ? undefined : toDecimal(divisor);
  const integer = typed === 'integer';
  const failType = ownsType ? typeFailure(cx) : undefined;
  const paths = {
    minimum: cx.at('minimum'),
    maximum: cx.at('maximum'),
    exclusiveMinimum: cx.at('exclusiveMinimum'),
    exclusiveMaximum: cx.at('exclusiveMaximum'),
    multipleOf: cx.at('multipleOf'),
  };

  // Only runs after the fast comparison failed: finds and reports the keyword(s) responsible.
  const messages = {
    minimum: `must be >= ${min}`,
    maximum: `must be <= ${max}`,
    exclusiveMinimum: `must be > ${exMin}`,
    exclusiveMaximum: `must be < ${exMax}`,
    multipleOf: `must be a multiple of ${divisor}`,
  };
  const explain = (v: number, p: string, c: Ctx): boolean => {
    let ok = true;
    for (const keyword of failedKeywords(v)) {
      report(c, p, paths[keyword], keyword, messages[keyword]);
      ok = false;
    }
    return ok;
  };
  const failedKeywords = (v: number): (keyof typeof paths)[] => {
    const failed: (keyof typeof paths)[] = [];
    if (min !== undefined && !(v >= min)) failed.push('minimum');
    if (max !== undefined && !(v <= max)) failed.push('maximum');
    if (exMin !== undefined && !(v > exMin)) failed.push('exclusiveMinimum');
    if (exMax !== undefined && !(v < exMax)) failed.push('exclusiveMaximum');
    if (divisor !== undefined && !isMultipleOf(v, divisor, exact)) failed.push('multipleOf');
    return failed;
  };

  out.push((v, p, c) => {
    if (typeof v !== 'number') return failType === undefined || failType(p, c);
    if (failType !== undefined && (integer ? !Number.isInteger(v) : !Number.isFinite(v)))
      return failType(p, c);
    if (
      v >= lo &&
      v <= hi &&
      v > exLo &&
      v < exHi &&
      (divisor === undefined || isMultipleOf(v, divisor, exact))
    ) {
      return true;
    }
    return explain(v, p, c);
  });
};
