/**
 * JSON equality as JSON Schema defines it (`const`, `enum`, `uniqueItems`): numbers compare by value, arrays
 * by position, objects by key set regardless of order. Iterative, so deeply nested instances cannot overflow
 * the stack.
 */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  const stack: unknown[] = [a, b];
  while (stack.length > 0) {
    const y = stack.pop();
    const x = stack.pop();
    if (x === y) continue;
    if (typeof x !== 'object' || typeof y !== 'object' || x === null || y === null) return false;
    const xa = Array.isArray(x);
    if (xa !== Array.isArray(y)) return false;
    if (xa) {
      const ya = y as unknown[];
      if (x.length !== ya.length) return false;
      for (let i = 0; i < x.length; i++) stack.push(x[i], ya[i]);
      continue;
    }
    const xo = x as Record<string, unknown>;
    const yo = y as Record<string, unknown>;
    const keys = Object.keys(xo);
    if (keys.length !== Object.keys(yo).length) return false;
    for (const k of keys) {
      if (!Object.hasOwn(yo, k)) return false;
      stack.push(xo[k], yo[k]);
    }
  }
  return true;
}

/** Nesting beyond which `jsonKey` stops describing a value; equal keys are then confirmed with `jsonEqual`. */
const KEY_DEPTH = 32;

/**
 * A string such that equal JSON values get equal keys. Unequal values usually get different keys; callers
 * confirm collisions with `jsonEqual`, which keeps `uniqueItems` linear-ish on large arrays.
 */
export function jsonKey(value: unknown, depth = 0): string {
  if (value === null) return 'n';
  switch (typeof value) {
    case 'string':
      return 's' + JSON.stringify(value);
    case 'number':
      return 'd' + String(value);
    case 'boolean':
      return value ? 't' : 'f';
    case 'object': {
      if (depth >= KEY_DEPTH) return '…';
      if (Array.isArray(value)) {
        let out = '[';
        for (const item of value) out += jsonKey(item, depth + 1) + ',';
        return out + ']';
      }
      const obj = value as Record<string, unknown>;
      let out = '{';
      for (const k of Object.keys(obj).sort())
        out += JSON.stringify(k) + ':' + jsonKey(obj[k], depth + 1) + ',';
      return out + '}';
    }
    default:
      return 'u' + typeof value;
  }
}

/** Index pairs `[i, j]` (i < j) of the first duplicate in `items`, or `undefined` when all are distinct. */
export function findDuplicate(items: readonly unknown[]): [number, number] | undefined {
  const n = items.length;
  if (n < 2) return undefined;
  if (n <= 16) {
    for (let i = 0; i < n; i++) {
      for (let j = i + 1; j < n; j++) if (jsonEqual(items[i], items[j])) return [i, j];
    }
    return undefined;
  }
  const seen = new Map<string, number[]>();
  for (let j = 0; j < n; j++) {
    const item = items[j];
    const key = jsonKey(item);
    const bucket = seen.get(key);
    if (bucket === undefined) {
      seen.set(key, [j]);
      continue;
    }
    for (const i of bucket) if (jsonEqual(items[i], item)) return [i, j];
    bucket.push(j);
  }
  return undefined;
}
