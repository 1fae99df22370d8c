/**
 * Who a caller is, as one string: sessions, tasks and `requestState` are bound to it.
 *
 * The issuer is part of it (the same `sub` from two authorization servers is two people), and the parts are
 * encoded as a JSON array so that no choice of `client_id` and `sub` can collide with another (a separator
 * character inside a value could). A token that names neither a client nor a subject is bound to a hash of
 * the token itself: two such tokens are never the same principal. Anonymous callers are the empty string.
 */
import { createHash } from 'node:crypto';
import type { AuthInfo } from './context.js';

export function principalOf(auth: AuthInfo | undefined): string {
  if (!auth) return '';
  const issuer = typeof auth.extra?.iss === 'string' ? auth.extra.iss : null;
  const clientId = auth.clientId ?? null;
  const subject = auth.subject ?? null;
  if (clientId === null && subject === null) {
    const token =
      auth.token === undefined ? null : createHash('sha256').update(auth.token).digest('base64url');
    return JSON.stringify([issuer, null, null, token]);
  }
  return JSON.stringify([issuer, clientId, subject]);
}
