/**
 * The value-matching language of test files. A literal matches by structure: scalars are equal, an object
 * matches when each member it lists matches (other members are ignored), an array when it has the same length
 * and each element matches. An object whose keys all start with `$` is an operator:
 *
 *   $eq (exact, deep)   $contains (substring / elements / members)   $matches (regex, "/re/flags" or "re")
 *   $type   $exists   $gt $gte $lt $lte   $length (a matcher on the length)   $not   $anyOf   $allOf   $any
 *   $byRevision ({ "<revision>|legacy|modern|>=rev|<rev|default": matcher }) — chosen for the negotiated revision
 */
import type { Revision } from '../model.js';

export interface MatchContext {
  readonly revision?: Revision | undefined;
}

export const OPERATORS = [
  '$eq',
  '$contains',
  '$matches',
  '$type',
  '$exists',
  '$gt',
  '$gte',
  '$lt',
  '$lte',
  '$length',
  '$not',
  '$anyOf',
  '$allOf',
  '$any',
  '$byRevision',
] as const;

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export function isOperator(value: unknown): value is Record<string, unknown> {
  if (!isPlainObject(value)) return false;
  const keys = Object.keys(value);
  return keys.length > 0 && keys.every((key) => key.startsWith('$'));
}

/** Short JSON for messages: long values are cut. */
export function show(value: unknown, max = 160): string {
  let text: string;
  try {
    text = value === undefined ? 'undefined' : JSON.stringify(value);
  } catch {
    text = String(value);
  }
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a))
    return Array.isArray(b) && a.length === b.length && a.every((x, i) => deepEqual(x, b[i]));
  if (isPlainObject(a) && isPlainObject(b)) {
    const keys = Object.keys(a);
    return (
      keys.length === Object.keys(b).length && keys.every((key) => key in b && deepEqual(a[key], b[key]))
    );
  }
  return typeof a === 'number' && typeof b === 'number' && Number.isNaN(a) && Number.isNaN(b);
}

/** A regular expression from `/source/flags` or a plain source. */
export function toRegExp(pattern: string): RegExp {
  const slashed = /^\/(.*)\/([dgimsuvy]*)$/s.exec(pattern);
  return slashed ? new RegExp(slashed[1]!, slashed[2]) : new RegExp(pattern);
}

function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number' && Number.isInteger(value)) return 'integer';
  return typeof value;
}

/** Which of a `$byRevision` map's keys applies to `revision`. */
export function selectByRevision(
  map: Record<string, unknown>,
  revision: Revision | undefined,
): { found: boolean; value?: unknown } {
  if (revision !== undefined) {
    if (revision in map) return { found: true, value: map[revision] };
    const era = revision >= '2026-07-28' ? 'modern' : 'legacy';
    const ranges = Object.keys(map)
      .filter((key) => /^(>=|<=|>|<)\d{4}-\d{2}-\d{2}$/.test(key))
      .filter((key) => {
        const bound = key.replace(/^[<>]=?/, '');
        if (key.startsWith('>=')) return revision >= bound;
        if (key.startsWith('<=')) return revision <= bound;
        if (key.startsWith('>')) return revision > bound;
        return revision < bound;
      });
    if (ranges.length > 0) return { found: true, value: map[ranges[0]!] };
    if (era in map) return { found: true, value: map[era] };
  }
  return 'default' in map ? { found: true, value: map['default'] } : { found: false };
}

/**
 * Matches `actual` against `expected`; returns what differs, one line each, prefixed with the path
 * (`structuredContent.items[0].id: expected … got …`). Empty when it matches.
 */
export function match(actual: unknown, expected: unknown, path = '', ctx: MatchContext = {}): string[] {
  const at = path === '' ? '' : `${path}: `;
  if (isOperator(expected)) return matchOperators(actual, expected, path, ctx);
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return [`${at}expected an array, got ${show(actual)}`];
    if (actual.length !== expected.length)
      return [`${at}expected ${expected.length} element(s), got ${actual.length}: ${show(actual)}`];
    return expected.flatMap((item, index) => match(actual[index], item, `${path}[${index}]`, ctx));
  }
  if (isPlainObject(expected)) {
    if (!isPlainObject(actual)) return [`${at}expected an object, got ${show(actual)}`];
    return Object.entries(expected).flatMap(([key, value]) => {
      const child = path === '' ? key : `${path}.${key}`;
      if (!(key in actual) && !(isOperator(value) && ('$exists' in value || '$any' in value)))
        return [`${child}: missing (expected ${show(value)})`];
      return match(actual[key], value, child, ctx);
    });
  }
  return deepEqual(actual, expected) ? [] : [`${at}expected ${show(expected)}, got ${show(actual)}`];
}

function matchOperators(
  actual: unknown,
  operators: Record<string, unknown>,
  path: string,
  ctx: MatchContext,
): string[] {
  const at = path === '' ? '' : `${path}: `;
  const out: string[] = [];
  for (const [op, arg] of Object.entries(operators)) {
    switch (op) {
      case '$any':
        break;
      case '$eq':
        if (!deepEqual(actual, arg)) out.push(`${at}expected exactly ${show(arg)}, got ${show(actual)}`);
        break;
      case '$contains':
        out.push(...contains(actual, arg, path, ctx));
        break;
      case '$matches': {
        const re = toRegExp(String(arg));
        if (typeof actual !== 'string' || !re.test(actual))
          out.push(`${at}expected a string matching ${re}, got ${show(actual)}`);
        break;
      }
      case '$type': {
        const wanted = Array.isArray(arg) ? arg.map(String) : [String(arg)];
        const actualType = typeOf(actual);
        const ok = wanted.some((t) => t === actualType || (t === 'number' && actualType === 'integer'));
        if (!ok) out.push(`${at}expected type ${wanted.join(' | ')}, got ${actualType} ${show(actual)}`);
        break;
      }
      case '$exists':
        if ((actual !== undefined) !== Boolean(arg))
          out.push(`${at}expected ${arg ? 'a value' : 'nothing'}, got ${show(actual)}`);
        break;
      case '$gt':
      case '$gte':
      case '$lt':
      case '$lte': {
        const bound = Number(arg);
        const ok =
          typeof actual === 'number' &&
          (op === '$gt'
            ? actual > bound
            : op === '$gte'
              ? actual >= bound
              : op === '$lt'
                ? actual < bound
                : actual <= bound);
        if (!ok) out.push(`${at}expected a number ${op.slice(1)} ${bound}, got ${show(actual)}`);
        break;
      }
      case '$length': {
        const length =
          typeof actual === 'string' || Array.isArray(actual)
            ? actual.length
            : isPlainObject(actual)
              ? Object.keys(actual).length
              : undefined;
        if (length === undefined) out.push(`${at}expected something with a length, got ${show(actual)}`);
        else out.push(...match(length, arg, `${path}.length`, ctx));
        break;
      }
      case '$not':
        if (match(actual, arg, path, ctx).length === 0)
          out.push(`${at}expected not to match ${show(arg)}, got ${show(actual)}`);
        break;
      case '$anyOf': {
        const options = Array.isArray(arg) ? arg : [arg];
        const failures = options.map((option) => match(actual, option, path, ctx));
        if (!failures.some((f) => f.length === 0))
          out.push(
            `${at}matched none of ${options.length} alternatives: ${failures.map((f) => f[0]).join(' / ')}`,
          );
        break;
      }
      case '$allOf':
        for (const option of Array.isArray(arg) ? arg : [arg]) out.push(...match(actual, option, path, ctx));
        break;
      case '$byRevision': {
        const chosen = selectByRevision(isPlainObject(arg) ? arg : {}, ctx.revision);
        if (!chosen.found)
          out.push(`${at}$byRevision has no entry for revision ${ctx.revision ?? '(unknown)'}`);
        else out.push(...match(actual, chosen.value, path, ctx));
        break;
      }
      default:
        out.push(`${at}unknown operator ${op}`);
    }
  }
  return out;
}

function contains(actual: unknown, expected: unknown, path: string, ctx: MatchContext): string[] {
  const at = path === '' ? '' : `${path}: `;
  if (typeof actual === 'string') {
    const needles = Array.isArray(expected) ? expected : [expected];
    const missing = needles.filter((needle) => !actual.includes(String(needle)));
    return missing.length === 0
      ? []
      : [`${at}expected text containing ${show(missing[0])}, got ${show(actual)}`];
  }
  if (Array.isArray(actual)) {
    const needles = Array.isArray(expected) ? expected : [expected];
    return needles.flatMap((needle) =>
      actual.some((item) => match(item, needle, '', ctx).length === 0)
        ? []
        : [`${at}no element matches ${show(needle)} (got ${show(actual)})`],
    );
  }
  if (isPlainObject(actual) && isPlainObject(expected)) return match(actual, expected, path, ctx);
  return [`${at}expected a string, an array or an object to search, got ${show(actual)}`];
}
