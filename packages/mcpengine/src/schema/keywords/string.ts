import { report, type Ctx } from '../context.js';
import { SchemaError } from '../errors.js';
import { FORMATS, type FormatTest } from '../formats.js';
import type { KeywordCompiler } from '../keyword.js';
import { claimedType, typeFailure } from './type.js';

/** Length in Unicode code points, as JSON Schema counts it (a surrogate pair is one character). */
export function codePointLength(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) i++;
    }
    n++;
  }
  return n;
}

export function compilePattern(source: string, where: string): RegExp {
  try {
    return new RegExp(source, 'u');
  } catch (e) {
    throw new SchemaError(
      'invalid-schema',
      `Invalid regular expression ${JSON.stringify(source)} at ${where}: ${(e as Error).message}`,
    );
  }
}

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

/** The string keywords (and `type: string`) as one closure. */
export const compileString: KeywordCompiler = (cx, out) => {
  const s = cx.schema;
  const ownsType = claimedType(cx) === 'string';
  const max = typeof s['maxLength'] === 'number' ? s['maxLength'] : undefined;
  const min = typeof s['minLength'] === 'number' ? s['minLength'] : undefined;
  const patternSource = typeof s['pattern'] === 'string' ? s['pattern'] : undefined;
  const pattern = patternSource === undefined ? undefined : compilePattern(patternSource, cx.at('pattern'));
  const formatName = typeof s['format'] === 'string' ? s['format'] : undefined;
  const format: FormatTest | undefined =
    formatName !== undefined && cx.doc.assertFormats && Object.hasOwn(FORMATS, formatName)
      ? FORMATS[formatName]
      : undefined;
  if (!ownsType && max === undefined && min === undefined && pattern === undefined && format === undefined)
    return;
  const failType = ownsType ? typeFailure(cx) : undefined;
  if (max === undefined && min === undefined && pattern === undefined && format === undefined) {
    out.push((v, p, c) => typeof v === 'string' || (failType as (p: string, c: Ctx) => false)(p, c));
    return;
  }
  const hi = max ?? Infinity;
  const lo = min ?? 0;
  const paths = {
    maxLength: cx.at('maxLength'),
    minLength: cx.at('minLength'),
    pattern: cx.at('pattern'),
    format: cx.at('format'),
  };

  out.push((v, p, c) => {
    if (typeof v !== 'string') return failType === undefined || failType(p, c);
    let ok = true;
    // UTF-16 length bounds the code point count: at most `length`, at least `length / 2`.
    if (v.length > hi && codePointLength(v) > hi) {
      report(c, p, paths.maxLength, 'maxLength', `must have at most ${plural(hi, 'character')}`);
      if (c.issues === null) return false;
      ok = false;
    }
    if (v.length < 2 * lo && (v.length < lo || codePointLength(v) < lo)) {
      report(c, p, paths.minLength, 'minLength', `must have at least ${plural(lo, 'character')}`);
      if (c.issues === null) return false;
      ok = false;
    }
    if (pattern !== undefined && !pattern.test(v)) {
      report(c, p, paths.pattern, 'pattern', `must match pattern ${JSON.stringify(patternSource)}`);
      if (c.issues === null) return false;
      ok = false;
    }
    if (format !== undefined && !format(v)) {
      report(c, p, paths.format, 'format', `must be a valid ${formatName}`);
      ok = false;
    }
    return ok;
  });
};
