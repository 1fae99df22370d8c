/**
 * Scope requirements of tools, resources and prompts (`requiredScopes`): a caller sees and may use an item only
 * when its access token grants every required scope. An item with requirements is hidden from callers without
 * a token (stdio, unauthenticated HTTP).
 */
import type { Caller } from '../context.js';

/** Whether `granted` contains every scope of `required`. */
export function grantsScopes(granted: readonly string[] | undefined, required: readonly string[]): boolean {
  if (required.length === 0) return true;
  if (!granted) return false;
  return required.every((scope) => granted.includes(scope));
}

/** Checks and freezes a `requiredScopes` list; undefined when there is nothing to require. */
export function compileRequiredScopes(
  what: string,
  scopes: readonly string[] | undefined,
): readonly string[] | undefined {
  if (scopes === undefined) return undefined;
  if (
    !Array.isArray(scopes) ||
    scopes.some((s) => typeof s !== 'string' || !/^[\x21\x23-\x5B\x5D-\x7E]+$/.test(s))
  ) {
    throw new TypeError(`${what}: requiredScopes must be an array of scope tokens (RFC 6749 §3.3)`);
  }
  return scopes.length === 0 ? undefined : Object.freeze([...new Set(scopes)]);
}

/** The per-caller filter of an item: its own `visible`, and its scope requirements. */
export function scopedVisibility(
  visible: ((caller: Caller) => boolean) | undefined,
  required: readonly string[] | undefined,
): ((caller: Caller) => boolean) | undefined {
  if (!required) return visible;
  if (!visible) return (caller) => grantsScopes(caller.auth?.scopes, required);
  return (caller) => grantsScopes(caller.auth?.scopes, required) && visible(caller);
}
