/** Escapes one reference token for a JSON Pointer (RFC 6901 §3). */
export function escapeToken(token: string | number): string {
  if (typeof token === 'number') return String(token);
  // Most keys have neither character; skip the replace calls for them.
  if (token.indexOf('~') === -1 && token.indexOf('/') === -1) return token;
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** Appends reference tokens to a JSON Pointer. */
export function appendPointer(pointer: string, ...tokens: (string | number)[]): string {
  let out = pointer;
  for (const t of tokens) out += '/' + escapeToken(t);
  return out;
}

/** Splits a JSON Pointer into unescaped tokens; `undefined` when it is not a pointer. */
export function parsePointer(pointer: string): string[] | undefined {
  if (pointer === '') return [];
  if (pointer[0] !== '/') return undefined;
  return pointer
    .slice(1)
    .split('/')
    .map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** Follows a JSON Pointer through a JSON value; `undefined` when a token does not exist. */
export function getByPointer(root: unknown, tokens: readonly string[]): unknown {
  let cur: unknown = root;
  for (const token of tokens) {
    if (Array.isArray(cur)) {
      if (!/^(0|[1-9][0-9]*)$/.test(token)) return undefined;
      cur = cur[Number(token)];
    } else if (typeof cur === 'object' && cur !== null && Object.hasOwn(cur, token)) {
      cur = (cur as Record<string, unknown>)[token];
    } else {
      return undefined;
    }
  }
  return cur;
}
