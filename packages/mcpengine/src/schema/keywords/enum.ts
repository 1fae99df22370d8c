import { report } from '../context.js';
import { jsonEqual } from '../equal.js';
import type { KeywordCompiler } from '../keyword.js';

const isPrimitive = (v: unknown): boolean => v === null || typeof v !== 'object';

export const compileConst: KeywordCompiler = (cx, out) => {
  if (!('const' in cx.schema)) return;
  const expected = cx.schema['const'];
  const schemaPath = cx.at('const');
  const message = 'must be equal to constant ' + JSON.stringify(expected);
  if (isPrimitive(expected)) {
    out.push((v, p, c) => {
      if (v === expected) return true;
      report(c, p, schemaPath, 'const', message);
      return false;
    });
    return;
  }
  out.push((v, p, c) => {
    if (jsonEqual(v, expected)) return true;
    report(c, p, schemaPath, 'const', message);
    return false;
  });
};

export const compileEnum: KeywordCompiler = (cx, out) => {
  const values = cx.schema['enum'];
  if (!Array.isArray(values)) return;
  const schemaPath = cx.at('enum');
  const shown = values.length <= 10 ? ': ' + values.map((v) => JSON.stringify(v)).join(', ') : '';
  const message = 'must be equal to one of the allowed values' + shown;
  // Primitives are looked up in a Set (SameValueZero, so 0 and -0 match, as JSON equality wants).
  const primitives = new Set(values.filter(isPrimitive));
  const structured = values.filter((v) => !isPrimitive(v));
  out.push((v, p, c) => {
    if (isPrimitive(v)) {
      if (primitives.has(v)) return true;
    } else {
      for (const candidate of structured) if (jsonEqual(v, candidate)) return true;
    }
    report(c, p, schemaPath, 'enum', message);
    return false;
  });
};
