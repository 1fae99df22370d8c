/**
 * What a resource server needs from an access-token check: a `TokenVerifier` turns a bearer token into the
 * caller's `AuthInfo`, or refuses it with `InvalidTokenError` (answered 401 `invalid_token`). Any other error
 * means the check could not be made (the authorization server is unreachable...) and is answered 503.
 */
import type { AuthInfo } from '../server/context.js';

/** The key a request proved possession of (a verified DPoP proof): the token must be bound to it. */
export interface TokenBinding {
  /** RFC 7638 thumbprint of the proof key; the token's `cnf.jkt` must equal it. */
  jkt: string;
}

export interface TokenVerifier {
  /**
   * Without `binding` (a Bearer token), a token bound to a key must be refused; with it (a DPoP request whose
   * proof verified), the token must be bound to exactly that key.
   */
  verify(token: string, binding?: TokenBinding): Promise<AuthInfo>;
}

/** The token is invalid, expired, revoked, or meant for another resource. */
export class InvalidTokenError extends Error {
  override name = 'InvalidTokenError';
  constructor(
    /** Safe to show the client (it goes into `error_description`); never contains the token. */
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** The scopes of a token's claims: `scope` (RFC 9068, RFC 7662, space-separated) or `scp` (an array). */
export function scopesOfClaims(claims: Readonly<Record<string, unknown>>): string[] {
  const scope = claims.scope;
  if (typeof scope === 'string') return scope.split(' ').filter((s) => s.length > 0);
  const scp = claims.scp;
  if (Array.isArray(scp)) return scp.filter((s): s is string => typeof s === 'string');
  if (typeof scp === 'string') return scp.split(' ').filter((s) => s.length > 0);
  return [];
}

/**
 * Resource identifiers compare as strings, except that the scheme and host are case-insensitive (the 2026-07-28
 * canonical-URI guidance). No other normalization: `https://h` and `https://h/` are different resources.
 */
export function sameResource(a: string, b: string): boolean {
  if (a === b) return true;
  const split = (value: string) => /^([A-Za-z][A-Za-z0-9+.-]*:\/\/)([^/?#]*)(.*)$/s.exec(value);
  const left = split(a);
  const right = split(b);
  if (!left || !right) return false;
  return (
    left[1]!.toLowerCase() === right[1]!.toLowerCase() &&
    left[2]!.toLowerCase() === right[2]!.toLowerCase() &&
    left[3] === right[3]
  );
}
