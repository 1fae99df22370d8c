import { annotateProp, ownValue, report, withPredicate, type Ann, type Check, type Ctx } from '../context.js';
import type { KeywordContext } from '../keyword.js';
import { escapeToken } from '../pointer.js';
import { isSchemaObject } from '../vocabulary.js';
import { leafOk, leafSpec, type LeafSpec } from './leaf.js';
import { compilePattern } from './string.js';
import { claimedType, typeFailure } from './type.js';

// Bound locally: some module loaders (Vite, hence vitest) turn every use of an imported binding into a getter
// call, which costs as much as the check itself on this hot path. Native ESM is unaffected.
const checkLeaf = leafOk;

const child = (c: Ctx, p: string, key: string): string =>
  c.issues === null ? '' : p + '/' + escapeToken(key);

/**
 * `type: object`, `required`, `properties`, `patternProperties` and `additionalProperties` as one closure: the
 * last depends on the other two, and one pass over the instance serves all. The fast path (no issues, no
 * annotations, no patterns) checks simple leaves inline; everything else takes the general path.
 */
export function compileProperties(cx: KeywordContext, out: Check[]): void {
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

  // Precomputed per declared name, so that collecting issues does little string work.
  const requiredMessages = required.map((name) => `must have required property ${JSON.stringify(name)}`);
  const suffixes = names.map((name) => '/' + escapeToken(name));

  const general = (v: Record<string, unknown>, p: string, c: Ctx, a: Ann | null): boolean => {
    let ok = true;
    for (let i = 0; i < required.length; i++) {
      if (ownValue(v, required[i] as string) !== undefined) continue;
      report(c, p, requiredPath, 'required', requiredMessages[i] as string);
      if (c.issues === null) return false;
      ok = false;
    }
    for (let i = 0; i < names.length; i++) {
      const name = names[i] as string;
      const x = ownValue(v, name);
      if (x === undefined) continue;
      if (a !== null) annotateProp(a, name);
      const check = checks[i];
      if (check !== undefined && !check(x, c.issues === null ? '' : p + suffixes[i], c, null)) {
        if (c.issues === null) return false;
        ok = false;
      }
    }
    if (!scanKeys) return ok;
    for (const key in v) {
      if (!Object.prototype.hasOwnProperty.call(v, key)) continue;
      const x = key === '__proto__' ? ownValue(v, key) : v[key];
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

  // The most common tool input: a handful of typed leaves, no patterns, closed or open. It gets a predicate of
  // its own, which the validator uses as `is()` when this is the whole schema.
  const allLeaves =
    fastEligible &&
    linear &&
    requiredOnly.length === 0 &&
    (additionalFalse || additional === undefined) &&
    leaves.every((leaf) => leaf !== undefined);
  const predicate = allLeaves
    ? leafObject(names, leaves as LeafSpec[], requiredMask, ownsType, additionalFalse)
    : undefined;

  const check: Check = (v, p, c, a) => {
    if (predicate !== undefined && c.issues === null && a === null) return predicate(v);
    if (typeof v !== 'object' || v === null || Array.isArray(v))
      return failType === undefined || failType(p, c);
    const obj = v as Record<string, unknown>;
    if (!fastEligible || c.issues !== null || a !== null) return general(obj, p, c, a);
    let seen = 0;
    for (const key in obj) {
      // Spelled out: V8 recognises this exact pattern inside `for...in` and reduces it to a map check.
      if (!Object.prototype.hasOwnProperty.call(obj, key)) continue;
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
        const leaf = leaves[i];
        if (leaf !== undefined) {
          if (!checkLeaf(leaf, x)) return false;
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
  };
  out.push(predicate === undefined ? check : withPredicate(check, predicate));
}

/**
 * The fast path above for an object whose declared properties are all leaves: the same answers, without the
 * branches for what such a schema cannot have (patterns, subschemas, annotations, required-only names).
 */
function leafObject(
  names: readonly string[],
  leaves: readonly LeafSpec[],
  requiredMask: number,
  mustBeObject: boolean,
  closed: boolean,
): (value: unknown) => boolean {
  const n = names.length;
  return (v) => {
    if (typeof v !== 'object' || v === null || Array.isArray(v)) return !mustBeObject;
    const obj = v as Record<string, unknown>;
    let seen = 0;
    // Clients usually send the properties in the order the schema declares them: try the name after the last
    // match first, so that each key costs one comparison instead of a scan.
    let next = 0;
    for (const key in obj) {
      if (!Object.prototype.hasOwnProperty.call(obj, key)) continue;
      const x = obj[key];
      if (x === undefined) continue;
      let i = next;
      if (i >= n || names[i] !== key) {
        i = 0;
        while (i < n && names[i] !== key) i++;
      }
      next = i + 1;
      if (i === n) {
        if (closed) return false;
        continue;
      }
      if (!checkLeaf(leaves[i] as LeafSpec, x)) return false;
      seen |= 1 << i;
    }
    return (seen & requiredMask) === requiredMask;
  };
}
