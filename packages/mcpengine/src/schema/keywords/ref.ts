import { report, type Check, type Ctx, type ScopeEntry } from '../context.js';
import type { KeywordCompiler, KeywordContext } from '../keyword.js';
import { resolveRef } from '../refs.js';

/**
 * Nesting limit for `$ref` evaluation. Without refs, evaluation depth is bounded by the schema's own depth, so
 * counting refs is enough to keep deeply nested instances (or reference loops) from overflowing the stack.
 */
export const MAX_REF_DEPTH = 512;

/**
 * Budget of `$ref` evaluations per validation. Without refs, each subschema meets each instance location at
 * most once; refs are the only way to make validation time explode (e.g. nested `anyOf`s of the same refs),
 * so this caps the cost of a hostile schema. Legitimate recursive schemas use one step per instance node.
 */
export const MAX_REF_STEPS = 1_000_000;

const DEPTH_MESSAGE = `exceeds the maximum validation depth (${MAX_REF_DEPTH} nested references)`;
export const STEPS_MESSAGE = `exceeds the validation budget (${MAX_REF_STEPS} reference evaluations)`;

/** Accounts for entering a reference; reports and returns `false` when a bound is hit. */
function enter(c: Ctx, p: string, schemaPath: string, keyword: string): boolean {
  if (c.depth >= MAX_REF_DEPTH) {
    report(c, p, schemaPath, keyword, DEPTH_MESSAGE);
    return false;
  }
  if (++c.steps > MAX_REF_STEPS) {
    report(c, p, schemaPath, keyword, STEPS_MESSAGE);
    return false;
  }
  c.depth++;
  return true;
}

function refCheck(cx: KeywordContext, keyword: string, docPath: string): Check {
  const doc = cx.doc;
  const cell = doc.cell(docPath);
  const target = doc.location(docPath);
  const schemaPath = cx.at(keyword);
  // Jumping into the middle of another resource enters it for `$dynamicRef` purposes.
  const entry =
    doc.index.usesDynamicRef && !target.isResourceRoot && target.resource !== cx.location.resource
      ? doc.scopeEntry(target.resource)
      : undefined;
  if (entry === undefined) {
    return (v, p, c, a) => {
      if (!enter(c, p, schemaPath, keyword)) return false;
      const ok = cell.fn(v, p, c, a);
      c.depth--;
      return ok;
    };
  }
  return (v, p, c, a) => {
    if (!enter(c, p, schemaPath, keyword)) return false;
    const scope = c.scope as ScopeEntry[];
    scope.push(entry);
    const ok = cell.fn(v, p, c, a);
    scope.pop();
    c.depth--;
    return ok;
  };
}

/**
 * `$dynamicRef`: when the statically resolved target carries a matching `$dynamicAnchor`, the outermost
 * resource in the dynamic scope that declares that anchor wins; otherwise it behaves exactly like `$ref`.
 */
function dynamicRefCheck(cx: KeywordContext, ref: string): Check {
  const resolved = resolveRef(cx.doc.index, cx.location, ref, '$dynamicRef');
  const initial = cx.doc.location(resolved.docPath).schema;
  const name = resolved.anchor;
  const fallback = refCheck(cx, '$dynamicRef', resolved.docPath);
  const dynamic = name !== undefined && typeof initial === 'object' && initial['$dynamicAnchor'] === name;
  if (!dynamic) return fallback;
  const schemaPath = cx.at('$dynamicRef');
  return (v, p, c, a) => {
    const scope = c.scope as ScopeEntry[];
    for (let i = 0; i < scope.length; i++) {
      const hit = (scope[i] as ScopeEntry).dynamicAnchors.get(name);
      if (hit === undefined) continue;
      if (!enter(c, p, schemaPath, '$dynamicRef')) return false;
      if (hit.enter !== null) scope.push(hit.enter);
      const ok = hit.cell.fn(v, p, c, a);
      if (hit.enter !== null) scope.pop();
      c.depth--;
      return ok;
    }
    return fallback(v, p, c, a);
  };
}

export const compileRef: KeywordCompiler = (cx, out) => {
  const ref = cx.schema['$ref'];
  if (typeof ref === 'string') {
    out.push(refCheck(cx, '$ref', resolveRef(cx.doc.index, cx.location, ref, '$ref').docPath));
  }
  const dynamicRef = cx.dialect === '2020-12' ? cx.schema['$dynamicRef'] : undefined;
  if (typeof dynamicRef === 'string') out.push(dynamicRefCheck(cx, dynamicRef));
};
