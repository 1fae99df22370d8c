import { mergeAnn, newAnn, report, type Ann, type Check, type Ctx } from '../context.js';
import type { KeywordCompiler, KeywordContext } from '../keyword.js';
import type { ValidationIssue } from '../types.js';

function subschemas(cx: KeywordContext, keyword: string): Check[] | undefined {
  const list = cx.schema[keyword];
  return Array.isArray(list) ? list.map((_, i) => cx.sub(keyword, i)) : undefined;
}

/** Appends branch issues to the caller's list, respecting the cap. */
function forward(c: Ctx, from: readonly ValidationIssue[]): void {
  const issues = c.issues;
  if (issues === null) return;
  for (const issue of from) {
    if (issues.length >= c.maxIssues) return;
    issues.push(issue);
  }
}

function compileAllOf(cx: KeywordContext, out: Check[]): void {
  const subs = subschemas(cx, 'allOf');
  if (subs === undefined) return;
  out.push((v, p, c, a) => {
    let ok = true;
    for (let i = 0; i < subs.length; i++) {
      if (!(subs[i] as Check)(v, p, c, a)) {
        if (c.issues === null) return false;
        ok = false;
      }
    }
    return ok;
  });
}

/**
 * Runs each branch of `anyOf`/`oneOf`, returning how many passed. A passing branch contributes its
 * annotations; a failing one's issues are kept aside in case the keyword as a whole fails.
 */
function runBranches(
  subs: readonly Check[],
  v: unknown,
  p: string,
  c: Ctx,
  a: Ann | null,
  stopAt: number,
  failed: ValidationIssue[] | null,
  passed: number[] | null,
): number {
  const outer = c.issues;
  let count = 0;
  for (let i = 0; i < subs.length; i++) {
    const branchAnn = a === null ? null : newAnn();
    const branchIssues: ValidationIssue[] | null = outer === null ? null : [];
    c.issues = branchIssues;
    const ok = (subs[i] as Check)(v, p, c, branchAnn);
    c.issues = outer;
    if (ok) {
      count++;
      passed?.push(i);
      if (branchAnn !== null && a !== null) mergeAnn(a, branchAnn);
      // Annotations need every passing branch; otherwise we can stop early.
      if (a === null && count >= stopAt) break;
    } else if (branchIssues !== null && failed !== null) {
      for (const issue of branchIssues) failed.push(issue);
    }
  }
  return count;
}

function compileAnyOf(cx: KeywordContext, out: Check[]): void {
  const subs = subschemas(cx, 'anyOf');
  if (subs === undefined) return;
  const schemaPath = cx.at('anyOf');
  out.push((v, p, c, a) => {
    if (c.issues === null) return runBranches(subs, v, p, c, a, 1, null, null) > 0;
    const failed: ValidationIssue[] = [];
    if (runBranches(subs, v, p, c, a, 1, failed, null) > 0) return true;
    forward(c, failed);
    report(c, p, schemaPath, 'anyOf', 'must match at least one schema in anyOf');
    return false;
  });
}

function compileOneOf(cx: KeywordContext, out: Check[]): void {
  const subs = subschemas(cx, 'oneOf');
  if (subs === undefined) return;
  const schemaPath = cx.at('oneOf');
  out.push((v, p, c, a) => {
    // Annotations are kept only when exactly one branch passes, so collect them on the side.
    const local = a === null ? null : newAnn();
    if (c.issues === null) {
      const ok = runBranches(subs, v, p, c, local, 2, null, null) === 1;
      if (ok && a !== null && local !== null) mergeAnn(a, local);
      return ok;
    }
    const failed: ValidationIssue[] = [];
    const passed: number[] = [];
    const count = runBranches(subs, v, p, c, local, Infinity, failed, passed);
    if (count === 1) {
      if (a !== null && local !== null) mergeAnn(a, local);
      return true;
    }
    if (count === 0) {
      forward(c, failed);
      report(c, p, schemaPath, 'oneOf', 'must match exactly one schema in oneOf');
    } else {
      report(
        c,
        p,
        schemaPath,
        'oneOf',
        `must match exactly one schema in oneOf, but matches ${passed.join(', ')}`,
      );
    }
    return false;
  });
}

function compileNot(cx: KeywordContext, out: Check[]): void {
  if (cx.schema['not'] === undefined) return;
  const sub = cx.sub('not');
  const schemaPath = cx.at('not');
  out.push((v, p, c) => {
    const issues = c.issues;
    c.issues = null;
    // `not` never contributes annotations: its subschema passing means this schema fails.
    const matched = sub(v, p, c, null);
    c.issues = issues;
    if (!matched) return true;
    report(c, p, schemaPath, 'not', 'must not match the schema in "not"');
    return false;
  });
}

function compileConditional(cx: KeywordContext, out: Check[]): void {
  const s = cx.schema;
  if (
    s['if'] === undefined ||
    (s['then'] === undefined && s['else'] === undefined && !cx.doc.index.usesUnevaluated)
  ) {
    return;
  }
  const condition = cx.sub('if');
  const then = s['then'] === undefined ? undefined : cx.sub('then');
  const otherwise = s['else'] === undefined ? undefined : cx.sub('else');
  const thenPath = cx.at('then');
  const elsePath = cx.at('else');
  out.push((v, p, c, a) => {
    const issues = c.issues;
    c.issues = null;
    const conditionAnn = a === null ? null : newAnn();
    const holds = condition(v, p, c, conditionAnn);
    c.issues = issues;
    if (holds && a !== null && conditionAnn !== null) mergeAnn(a, conditionAnn);
    const branch = holds ? then : otherwise;
    if (branch === undefined || branch(v, p, c, a)) return true;
    report(
      c,
      p,
      holds ? thenPath : elsePath,
      holds ? 'then' : 'else',
      `must match "${holds ? 'then' : 'else'}" schema`,
    );
    return false;
  });
}

export const compileLogic: KeywordCompiler = (cx, out) => {
  compileAllOf(cx, out);
  compileAnyOf(cx, out);
  compileOneOf(cx, out);
  compileNot(cx, out);
  compileConditional(cx, out);
};
