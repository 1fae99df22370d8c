import { isObject, ownValue, report, type Check, type Ctx } from '../context.js';
import type { KeywordCompiler, KeywordContext } from '../keyword.js';
import { isSchema, isSchemaObject } from '../vocabulary.js';
import { compileProperties } from './properties.js';

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
  compileProperties(cx, out);
  compileCounts(cx, out);
  compileDependencies(cx, out);
  compilePropertyNames(cx, out);
};
