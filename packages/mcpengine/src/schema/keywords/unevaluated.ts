import { childPath, isObject, ownValue, mergeAnn, newAnn, report, type Check } from '../context.js';
import type { KeywordContext } from '../keyword.js';

/**
 * Wraps a subschema's other keywords with `unevaluatedProperties`/`unevaluatedItems`: the other keywords run
 * first and record what they evaluated (through every in-place applicator and `$ref`), then the rest is checked.
 */
export function withUnevaluated(cx: KeywordContext, inner: Check): Check {
  const s = cx.schema;
  const hasProps = s['unevaluatedProperties'] !== undefined;
  const hasItems = s['unevaluatedItems'] !== undefined;
  const propsFalse = s['unevaluatedProperties'] === false;
  const itemsFalse = s['unevaluatedItems'] === false;
  const propsCheck =
    hasProps && !propsFalse && !cx.trivial('unevaluatedProperties')
      ? cx.sub('unevaluatedProperties')
      : undefined;
  const itemsCheck =
    hasItems && !itemsFalse && !cx.trivial('unevaluatedItems') ? cx.sub('unevaluatedItems') : undefined;
  const propsPath = cx.at('unevaluatedProperties');
  const itemsPath = cx.at('unevaluatedItems');

  return (v, p, c, a) => {
    const isArray = Array.isArray(v);
    const applies = isArray ? hasItems : hasProps && isObject(v);
    if (!applies) return inner(v, p, c, a);
    const local = newAnn();
    let ok = inner(v, p, c, local);
    if (!ok && c.issues === null) return false;
    if (isArray) {
      if (local.items !== Infinity) {
        for (let i = local.items; i < v.length; i++) {
          if (local.contains?.has(i)) continue;
          if (itemsFalse) {
            report(c, p, itemsPath, 'unevaluatedItems', `must not have unevaluated item at index ${i}`);
          } else if (itemsCheck === undefined || itemsCheck(v[i], childPath(c, p, i), c, null)) {
            continue;
          }
          ok = false;
          if (c.issues === null) return false;
        }
      }
      local.items = Infinity;
    } else {
      const obj = v as Record<string, unknown>;
      const seen = local.props;
      if (seen !== true) {
        for (const key in obj) {
          const x = ownValue(obj, key);
          if (x === undefined || seen?.has(key)) continue;
          if (propsFalse) {
            report(
              c,
              p,
              propsPath,
              'unevaluatedProperties',
              `must not have unevaluated property ${JSON.stringify(key)}`,
            );
          } else if (propsCheck === undefined || propsCheck(x, childPath(c, p, key), c, null)) {
            continue;
          }
          ok = false;
          if (c.issues === null) return false;
        }
      }
      local.props = true;
    }
    if (ok && a !== null) mergeAnn(a, local);
    return ok;
  };
}
