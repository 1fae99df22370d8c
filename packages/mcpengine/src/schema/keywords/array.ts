import { report, type Check, type Ctx } from '../context.js';
import { findDuplicate } from '../equal.js';
import type { KeywordCompiler, KeywordContext } from '../keyword.js';
import type { SchemaObject } from '../types.js';

/** An item's instance path, only built when collecting issues (local: see keywords/properties.ts). */
const itemPath = (c: Ctx, p: string, i: number): string => (c.issues === null ? '' : p + '/' + i);

/**
 * `prefixItems`/`items` (2020-12) or `items`/`additionalItems` (draft-07): leading items by position, the
 * rest against one schema. Records how many items were evaluated, for `unevaluatedItems`.
 */
function compileItems(cx: KeywordContext, out: Check[]): void {
  const s = cx.schema;
  let prefixKeyword: string;
  let restKeyword: string;
  let prefixSchemas: unknown;
  if (cx.dialect === '2020-12') {
    prefixKeyword = 'prefixItems';
    restKeyword = 'items';
    prefixSchemas = s['prefixItems'];
  } else if (Array.isArray(s['items'])) {
    prefixKeyword = 'items';
    restKeyword = 'additionalItems';
    prefixSchemas = s['items'];
  } else {
    // draft-07 `items` as one schema applies to every item; `additionalItems` is then ignored.
    prefixKeyword = 'prefixItems';
    restKeyword = 'items';
    prefixSchemas = undefined;
  }
  const prefix = Array.isArray(prefixSchemas) ? prefixSchemas.map((_, i) => cx.sub(prefixKeyword, i)) : [];
  const hasRest = s[restKeyword] !== undefined;
  if (prefix.length === 0 && !hasRest) return;
  const rest = hasRest && !cx.trivial(restKeyword) ? cx.sub(restKeyword) : undefined;
  const restIsFalse = s[restKeyword] === false;
  const restPath = cx.at(restKeyword);
  const np = prefix.length;
  out.push((v, p, c, a) => {
    if (!Array.isArray(v)) return true;
    let ok = true;
    const n = v.length;
    const upTo = n < np ? n : np;
    for (let i = 0; i < upTo; i++) {
      if (!(prefix[i] as Check)(v[i], itemPath(c, p, i), c, null)) {
        if (c.issues === null) return false;
        ok = false;
      }
    }
    if (restIsFalse && n > np) {
      report(c, p, restPath, restKeyword, `must have at most ${np} item${np === 1 ? '' : 's'}`);
      return false;
    }
    if (rest !== undefined) {
      for (let i = np; i < n; i++) {
        if (!rest(v[i], itemPath(c, p, i), c, null)) {
          if (c.issues === null) return false;
          ok = false;
        }
      }
    }
    if (a !== null) {
      const evaluated = hasRest ? Infinity : upTo;
      if (evaluated > a.items) a.items = evaluated;
    }
    return ok;
  });
}

function compileContains(cx: KeywordContext, out: Check[]): void {
  const s = cx.schema;
  if (s['contains'] === undefined) return;
  const sub = cx.sub('contains');
  const is2020 = cx.dialect === '2020-12';
  const min = is2020 && typeof s['minContains'] === 'number' ? s['minContains'] : 1;
  const max = is2020 && typeof s['maxContains'] === 'number' ? s['maxContains'] : Infinity;
  const schemaPath = cx.at('contains');
  const minMessage = `must contain at least ${min} item${min === 1 ? '' : 's'} matching "contains"`;
  const maxMessage = `must contain at most ${max} item${max === 1 ? '' : 's'} matching "contains"`;
  const minPath = is2020 && s['minContains'] !== undefined ? cx.at('minContains') : schemaPath;
  const maxPath = cx.at('maxContains');
  out.push((v, p, c, a) => {
    if (!Array.isArray(v)) return true;
    // A non-matching item is not an error in itself, so items are tested without collecting issues.
    const issues = c.issues;
    c.issues = null;
    let count = 0;
    const canStop = a === null && max === Infinity;
    for (let i = 0; i < v.length; i++) {
      if (!sub(v[i], '', c, null)) continue;
      count++;
      if (a !== null) (a.contains ??= new Set()).add(i);
      if (canStop && count >= min) break;
    }
    c.issues = issues;
    if (count < min) {
      report(c, p, minPath, min === 1 && minPath === schemaPath ? 'contains' : 'minContains', minMessage);
      return false;
    }
    if (count > max) {
      report(c, p, maxPath, 'maxContains', maxMessage);
      return false;
    }
    return true;
  });
}

function compileCounts(cx: KeywordContext, out: Check[]): void {
  const s: SchemaObject = cx.schema;
  const fail = (keyword: string, message: string): ((p: string, c: Ctx) => false) => {
    const schemaPath = cx.at(keyword);
    return (p, c) => {
      report(c, p, schemaPath, keyword, message);
      return false;
    };
  };
  const min = s['minItems'];
  if (typeof min === 'number') {
    const f = fail('minItems', `must have at least ${min} item${min === 1 ? '' : 's'}`);
    out.push((v, p, c) => !Array.isArray(v) || v.length >= min || f(p, c));
  }
  const max = s['maxItems'];
  if (typeof max === 'number') {
    const f = fail('maxItems', `must have at most ${max} item${max === 1 ? '' : 's'}`);
    out.push((v, p, c) => !Array.isArray(v) || v.length <= max || f(p, c));
  }
  if (s['uniqueItems'] === true) {
    const schemaPath = cx.at('uniqueItems');
    out.push((v, p, c) => {
      if (!Array.isArray(v)) return true;
      const dup = findDuplicate(v);
      if (dup === undefined) return true;
      report(
        c,
        p,
        schemaPath,
        'uniqueItems',
        `must not have duplicate items (items ${dup[0]} and ${dup[1]} are equal)`,
      );
      return false;
    });
  }
}

export const compileArray: KeywordCompiler = (cx, out) => {
  compileCounts(cx, out);
  compileItems(cx, out);
  compileContains(cx, out);
};
