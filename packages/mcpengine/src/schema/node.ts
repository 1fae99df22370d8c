import { report, type Check, type ScopeEntry } from './context.js';
import { keywordContext, type KeywordCompiler, type SubschemaCompiler } from './keyword.js';
import { compileArray } from './keywords/array.js';
import { compileConst, compileEnum } from './keywords/enum.js';
import { compileLogic } from './keywords/logic.js';
import { compileNumber } from './keywords/number.js';
import { compileObject } from './keywords/object.js';
import { compileRef } from './keywords/ref.js';
import { compileString } from './keywords/string.js';
import { compileType } from './keywords/type.js';
import { withUnevaluated } from './keywords/unevaluated.js';
import type { Location } from './registry.js';

/** Keyword families in evaluation order: cheap assertions first, so the fast path fails early. */
const FAMILIES: readonly KeywordCompiler[] = [
  compileType,
  compileConst,
  compileEnum,
  compileNumber,
  compileString,
  compileObject,
  compileArray,
  compileRef,
  compileLogic,
];

const alwaysValid: Check = () => true;

/** All checks must pass. Fast mode stops at the first failure; collecting mode runs every check. */
export function allOf(checks: readonly Check[]): Check {
  switch (checks.length) {
    case 0:
      return alwaysValid;
    case 1:
      return checks[0] as Check;
    case 2: {
      const [k0, k1] = checks as [Check, Check];
      return (v, p, c, a) => {
        if (k0(v, p, c, a)) return k1(v, p, c, a);
        if (c.issues !== null) k1(v, p, c, a);
        return false;
      };
    }
    case 3: {
      const [k0, k1, k2] = checks as [Check, Check, Check];
      return (v, p, c, a) => {
        if (c.issues === null) return k0(v, p, c, a) && k1(v, p, c, a) && k2(v, p, c, a);
        const r0 = k0(v, p, c, a);
        const r1 = k1(v, p, c, a);
        return k2(v, p, c, a) && r0 && r1;
      };
    }
    default:
      return (v, p, c, a) => {
        let ok = true;
        for (let i = 0; i < checks.length; i++) {
          if (!(checks[i] as Check)(v, p, c, a)) {
            if (c.issues === null) return false;
            ok = false;
          }
        }
        return ok;
      };
  }
}

function withScope(entry: ScopeEntry, inner: Check): Check {
  return (v, p, c, a) => {
    const scope = c.scope as ScopeEntry[];
    scope.push(entry);
    const ok = inner(v, p, c, a);
    scope.pop();
    return ok;
  };
}

/** Compiles the subschema at `location` (not its `$ref` targets, which the document compiler links later). */
export function compileNode(doc: SubschemaCompiler, location: Location): Check {
  const schema = location.schema;
  if (schema === true) return alwaysValid;
  if (schema === false) {
    const schemaPath = '#' + location.docPath;
    return (_v, p, c) => {
      report(c, p, schemaPath, 'false', 'no value is allowed here (schema is false)');
      return false;
    };
  }
  const cx = keywordContext(doc, location, schema);
  const checks: Check[] = [];
  if (location.dialect === 'draft-07' && schema['$ref'] !== undefined) {
    // draft-07: "All other properties in a "$ref" object MUST be ignored."
    compileRef(cx, checks);
  } else {
    for (const family of FAMILIES) family(cx, checks);
  }
  let check = allOf(checks);
  if (
    location.dialect === '2020-12' &&
    (schema['unevaluatedProperties'] !== undefined || schema['unevaluatedItems'] !== undefined)
  ) {
    check = withUnevaluated(cx, check);
  }
  if (doc.index.usesDynamicRef && location.isResourceRoot)
    check = withScope(doc.scopeEntry(location.resource), check);
  return check;
}
