import { annotateProp, hasOwn, isObject, ownValue, report, type Check, type Ctx } from '../context.js';
import { escapeToken } from '../pointer.js';
import type { KeywordCompiler, KeywordContext } from '../keyword.js';
import { isSchema, isSchemaObject } from '../vocabulary.js';
import { codePointLength, compilePattern } from './string.js';
import { claimedType, typeFailure } from './type.js';

const child = (c: Ctx, p: string, key: string): string =>
  c.issues === null ? '' : p + '/' + escapeToken(key);

/** Leaf kinds the object fast path checks inline, without calling the property's compiled closure. */
const enum Leaf {
  None = 0,
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
interface LeafSpec {
  kind: Leaf;
  lo: number;
  hi: number;
  exLo: number;
  exHi: number;
}

const NO_LEAF: LeafSpec = { kind: Leaf.None, lo: 0, hi: 0, exLo: 0, exHi: 0 };

/**
 * Most tool arguments are plain typed leaves (`{ type: 'string', description }`, `{ type: 'integer',
 * minimum: 0 }`). Checking those inline saves a closure call per property on the hot path.
 */
function leafSpec(schema: unknown): LeafSpec {
  if (typeof schema !== 'object' || schema === null) return NO_LEAF;
  const s = schema as Record<string, unknown>;
  for (const key in s) if (!LEAF_KEYWORDS.has(key)) return NO_LEAF;
  const kind =
    typeof s['type'] === 'string' && Object.hasOwn(LEAF_TYPES, s['type']) ? LEAF_TYPES[s['type']] : undefined;
  if (kind === undefined) return NO_LEAF;
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

function leafOk(spec: LeafSpec, x: unknown): boolean {
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
    default:
      return true;
  }
}

function numberInRange(spec: LeafSpec, x: number): boolean {
  return x >= spec.lo && x <= spec.hi && x > spec.exLo && x < spec.exHi;
}

/**
 * `type: object`, `required`, `properties`, `patternProperties` and `additionalProperties` as one closure. The
 * last depends on the other two, and one pass serves all. Plain objects on the fast path read each declared
 * property once and count keys instead of looking each one up; anything else takes the general path.
 */
function compileShape(cx: KeywordContext, out: Check[]): void {
  const s = cx.schema;
  const ownsType = claimedType(cx) === 'object';
  const props = isSchemaObject(s['properties']) ? s['properties'] : {};
  const patternProps = isSchemaObject(s['patternProperties']) ? s['patternProperties'] : {};
  const additionalSchema = s['additionalProperties'];
  const required = Array.isArray(s['required']) ? (s['required'] as string[]) : [];
  const names = Object.keys(props);
  const patternSources = Object.keys(patternProps);
  const hasAdditional = additionalSchema !== undefined;
  if (
    !ownsType &&
    names.length === 0 &&
    patternSources.length === 0 &&
    !hasAdditional &&
    required.length === 0
  ) {
    return;
  }

  const failType = ownsType ? typeFailure(cx) : undefined;
  const checks = names.map((n) => (cx.trivial('properties', n) ? undefined : cx.sub('properties', n)));
  const known = new Set(names);
  const patterns = patternSources.map((source) => ({
    re: compilePattern(source, cx.at('patternProperties', source)),
    check: cx.sub('patternProperties', source),
  }));
  const additionalFalse = additionalSchema === false;
  const additional =
    !hasAdditional || additionalFalse || cx.trivial('additionalProperties')
      ? undefined
      : cx.sub('additionalProperties');
  const scanKeys = patterns.length > 0 || hasAdditional;
  const requiredPath = cx.at('required');
  const additionalPath = cx.at('additionalProperties');

  const general = (v: Record<string, unknown>, p: string, c: Ctx, a: Parameters<Check>[3]): boolean => {
    let ok = true;
    for (let i = 0; i < required.length; i++) {
      const name = required[i] as string;
      if (ownValue(v, name) !== undefined) continue;
      report(c, p, requiredPath, 'required', `must have required property ${JSON.stringify(name)}`);
      if (c.issues === null) return false;
      ok = false;
    }
    for (let i = 0; i < names.length; i++) {
      const name = names[i] as string;
      const x = ownValue(v, name);
      if (x === undefined) continue;
      if (a !== null) annotateProp(a, name);
      const check = checks[i];
      if (check !== undefined && !check(x, child(c, p, name), c, null)) {
        if (c.issues === null) return false;
        ok = false;
      }
    }
    if (!scanKeys) return ok;
    for (const key in v) {
      const x = ownValue(v, key);
      if (x === undefined) continue;
      let matched = known.has(key);
      for (let i = 0; i < patterns.length; i++) {
        const pattern = patterns[i] as { re: RegExp; check: Check };
        if (!pattern.re.test(key)) continue;
        matched = true;
        if (a !== null) annotateProp(a, key);
        if (!pattern.check(x, child(c, p, key), c, null)) {
          if (c.issues === null) return false;
          ok = false;
        }
      }
      if (matched) continue;
      if (additionalFalse) {
        report(
          c,
          p,
          additionalPath,
          'additionalProperties',
          `must not have additional property ${JSON.stringify(key)}`,
        );
        if (c.issues === null) return false;
        ok = false;
      } else if (additional !== undefined && !additional(x, child(c, p, key), c, null)) {
        if (c.issues === null) return false;
        ok = false;
      }
    }
    // `additionalProperties` evaluated every property the other two did not.
    if (a !== null && hasAdditional) a.props = true;
    return ok;
  };

  // Fast path: one `for...in` pass over the instance (V8 makes `hasOwn` inside it nearly free), finding each
  // key's declared index by comparison, and tracking required names in a bit mask.
  const requiredOnly = required.filter((r) => !known.has(r));
  const fastNames = [...names, ...requiredOnly];
  const n = fastNames.length;
  const lookup = new Map(fastNames.map((name, i) => [name, i]));
  let requiredMask = 0;
  for (const r of required) requiredMask |= 1 << (lookup.get(r) as number);
  const declared = names.length;
  const leaves = names.map((name) => leafSpec(props[name]));
  // With `patternProperties`, declared names may match patterns too; the general path handles that.
  const fastEligible = n <= 31 && patterns.length === 0 && !fastNames.includes('__proto__');
  const linear = n <= 8;

  out.push((v, p, c, a) => {
    if (typeof v !== 'object' || v === null || Array.isArray(v))
      return failType === undefined || failType(p, c);
    const obj = v as Record<string, unknown>;
    if (!fastEligible || c.issues !== null || a !== null) return general(obj, p, c, a);
    let seen = 0;
    for (const key in obj) {
      if (!hasOwn(obj, key)) continue;
      const x = obj[key];
      if (x === undefined) continue;
      let i = 0;
      if (linear) {
        while (i < n && fastNames[i] !== key) i++;
      } else {
        i = lookup.get(key) ?? n;
      }
      if (i < declared) {
        seen |= 1 << i;
        const leaf = leaves[i] as LeafSpec;
        if (leaf.kind !== Leaf.None) {
          if (!leafOk(leaf, x)) return false;
          continue;
        }
        const check = checks[i];
        if (check !== undefined && !check(x, '', c, null)) return false;
        continue;
      }
      if (i < n) seen |= 1 << i;
      if (!scanKeys) continue;
      // Not a declared property: `additionalProperties` decides (`__proto__` needs the careful read).
      if (key === '__proto__') return general(obj, p, c, a);
      if (additionalFalse) return false;
      if (additional !== undefined && !additional(x, '', c, null)) return false;
    }
    return (seen & requiredMask) === requiredMask;
  });
}

function countKeys(v: Record<string, unknown>): number {
  let n = 0;
  for (const key in v) if (ownValue(v, key) !== undefined) n++;
  return n;
}

function compileCounts(cx: KeywordContext, out: Check[]): void {
  const s = cx.schema;
  const fail = (keyword: string, message: string): ((p: string, c: Ctx) => false) => {
    const schemaPath = cx.at(keyword);
    return (p, c) => {
      report(c, p, schemaPath, keyword, message);
      return false;
    };
  };
  const min = s['minProperties'];
  if (typeof min === 'number') {
    const f = fail('minProperties', `must have at least ${min} propert${min === 1 ? 'y' : 'ies'}`);
    out.push((v, p, c) => !isObject(v) || countKeys(v) >= min || f(p, c));
  }
  const max = s['maxProperties'];
  if (typeof max === 'number') {
    const f = fail('maxProperties', `must have at most ${max} propert${max === 1 ? 'y' : 'ies'}`);
    out.push((v, p, c) => !isObject(v) || countKeys(v) <= max || f(p, c));
  }
}

/** `dependentRequired`, `dependentSchemas`, and draft-07 `dependencies` (which is either, per property). */
function compileDependencies(cx: KeywordContext, out: Check[]): void {
  const s = cx.schema;
  const required: { name: string; needs: string[]; schemaPath: string; keyword: string }[] = [];
  const schemas: { name: string; check: Check }[] = [];
  const collect = (keyword: string, value: unknown, allowRequired: boolean, allowSchemas: boolean): void => {
    if (!isSchemaObject(value)) return;
    for (const name of Object.keys(value)) {
      const dep = value[name];
      if (allowRequired && Array.isArray(dep)) {
        if (dep.length > 0)
          required.push({ name, needs: dep as string[], schemaPath: cx.at(keyword, name), keyword });
      } else if (allowSchemas && isSchema(dep) && !cx.trivial(keyword, name)) {
        schemas.push({ name, check: cx.sub(keyword, name) });
      }
    }
  };
  if (cx.dialect === '2020-12') {
    collect('dependentRequired', s['dependentRequired'], true, false);
    collect('dependentSchemas', s['dependentSchemas'], false, true);
  } else {
    collect('dependencies', s['dependencies'], true, true);
  }
  if (required.length > 0) {
    out.push((v, p, c) => {
      if (!isObject(v)) return true;
      let ok = true;
      for (const dep of required) {
        if (ownValue(v, dep.name) === undefined) continue;
        for (const need of dep.needs) {
          if (ownValue(v, need) !== undefined) continue;
          report(
            c,
            p,
            dep.schemaPath,
            dep.keyword,
            `must have property ${JSON.stringify(need)} when property ${JSON.stringify(dep.name)} is present`,
          );
          if (c.issues === null) return false;
          ok = false;
        }
      }
      return ok;
    });
  }
  if (schemas.length > 0) {
    out.push((v, p, c, a) => {
      if (!isObject(v)) return true;
      let ok = true;
      for (const dep of schemas) {
        // Same instance location, so annotations flow through to `unevaluatedProperties`.
        if (ownValue(v, dep.name) !== undefined && !dep.check(v, p, c, a)) {
          if (c.issues === null) return false;
          ok = false;
        }
      }
      return ok;
    });
  }
}

function compilePropertyNames(cx: KeywordContext, out: Check[]): void {
  if (cx.schema['propertyNames'] === undefined || cx.trivial('propertyNames')) return;
  const sub = cx.sub('propertyNames');
  const schemaPath = cx.at('propertyNames');
  out.push((v, p, c) => {
    if (!isObject(v)) return true;
    let ok = true;
    for (const key in v) {
      if (ownValue(v, key) === undefined) continue;
      // The name is not an instance location of its own, so its subschema's issues are summarised as one.
      const issues = c.issues;
      c.issues = null;
      const valid = sub(key, '', c, null);
      c.issues = issues;
      if (valid) continue;
      report(c, p, schemaPath, 'propertyNames', `property name ${JSON.stringify(key)} is invalid`);
      if (c.issues === null) return false;
      ok = false;
    }
    return ok;
  });
}

export const compileObject: KeywordCompiler = (cx, out) => {
  compileShape(cx, out);
  compileCounts(cx, out);
  compileDependencies(cx, out);
  compilePropertyNames(cx, out);
};
