import { escapeToken } from './pointer.js';
import type { ValidationIssue } from './types.js';

/** A schema resource in the dynamic scope (used by `$dynamicRef`). */
export interface ScopeEntry {
  /** `$dynamicAnchor` name → the compiled subschema carrying it. */
  readonly dynamicAnchors: ReadonlyMap<string, DynamicTarget>;
}

export interface DynamicTarget {
  readonly cell: { fn: Check };
  /** The resource to enter when jumping there, unless the target is its root (which enters it itself). */
  readonly enter: ScopeEntry | null;
}

/**
 * Per-validation state. The fast path reuses one `Ctx` per validator (`issues === null`), so a successful
 * `is()` allocates nothing; `validate()` makes a fresh one that collects issues.
 */
export interface Ctx {
  /** Where issues go, or `null` in fast mode: keywords then stop at the first failure and build no paths. */
  issues: ValidationIssue[] | null;
  /** Cap on each issue list, so a huge invalid array cannot make `validate()` allocate without bound. */
  maxIssues: number;
  /** Nesting of `$ref` evaluations: only refs can recurse, so this bounds stack use on deep instances. */
  depth: number;
  /** `$ref` evaluations so far in this validation, against a budget that bounds validation time. */
  steps: number;
  /** Dynamic scope, outermost first; `null` unless the document uses `$dynamicRef`. */
  scope: ScopeEntry[] | null;
}

/**
 * What in-place applicators learned about the instance, for `unevaluatedProperties`/`unevaluatedItems`.
 * Only allocated for schemas that use those keywords; everywhere else `ann` is `null`.
 */
export interface Ann {
  /** Evaluated property names, or `true` once every property was evaluated. */
  props: Set<string> | true | null;
  /** Number of leading array items evaluated (`Infinity` for all). */
  items: number;
  /** Indices matched by `contains`. */
  contains: Set<number> | null;
}

/**
 * A compiled schema or keyword. Returns whether `value` is valid; in collecting mode it also reports issues
 * under instance path `path` and keeps going; when `ann` is given it records annotations into it.
 */
export type Check = (value: unknown, path: string, ctx: Ctx, ann: Ann | null) => boolean;

/** A compiled subschema that `$ref`s call through, so that cycles can be linked after compiling. */
export interface Cell {
  fn: Check;
  ready: boolean;
}

/**
 * Plain predicates equal to a check run in fast mode without annotations (`check(v, '', fastCtx, null)`), for
 * the checks that have one. A validator whose root check has one uses it as `is()` directly: no context, no
 * layers of closures, on the path every valid tool call takes.
 */
const predicates = new WeakMap<Check, (value: unknown) => boolean>();

export function withPredicate(check: Check, predicate: (value: unknown) => boolean): Check {
  predicates.set(check, predicate);
  return check;
}

export function predicateOf(check: Check): ((value: unknown) => boolean) | undefined {
  return predicates.get(check);
}

export function newAnn(): Ann {
  return { props: null, items: 0, contains: null };
}

export function annotateProp(ann: Ann, key: string): void {
  if (ann.props === true) return;
  if (ann.props === null) ann.props = new Set();
  ann.props.add(key);
}

export function mergeAnn(into: Ann, from: Ann): void {
  if (from.props === true) into.props = true;
  else if (from.props !== null && into.props !== true) {
    if (into.props === null) into.props = new Set(from.props);
    else for (const k of from.props) into.props.add(k);
  }
  if (from.items > into.items) into.items = from.items;
  if (from.contains !== null) {
    if (into.contains === null) into.contains = new Set(from.contains);
    else for (const i of from.contains) into.contains.add(i);
  }
}

export const hasOwn = (obj: object, key: string): boolean => Object.prototype.hasOwnProperty.call(obj, key);

/**
 * The value of an own property, or `undefined` when absent. A property whose value is `undefined` counts as
 * absent: it is not JSON, and `JSON.stringify` drops it. `__proto__` is read as data, not as the prototype.
 */
export function ownValue(obj: Record<string, unknown>, key: string): unknown {
  if (!hasOwn(obj, key)) return undefined;
  return key === '__proto__' ? Object.getOwnPropertyDescriptor(obj, key)?.value : obj[key];
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The instance path of a child; only computed when collecting issues. */
export function childPath(ctx: Ctx, path: string, key: string | number): string {
  return ctx.issues === null ? '' : path + '/' + escapeToken(key);
}

export function report(
  ctx: Ctx,
  instancePath: string,
  schemaPath: string,
  keyword: string,
  message: string,
): void {
  const issues = ctx.issues;
  if (issues !== null && issues.length < ctx.maxIssues)
    issues.push({ instancePath, schemaPath, keyword, message });
}

/** Quotes a value for a message, keeping it short. */
export function show(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? text.slice(0, 57) + '...' : text;
}
