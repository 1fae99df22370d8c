/**
 * Proof Key for Code Exchange (RFC 7636) with the only method MCP allows: S256.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { randomToken } from './encoding.js';

const VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/;

export interface Pkce {
  readonly verifier: string;
  readonly challenge: string;
  readonly method: 'S256';
}

/** A fresh verifier (256 random bits, 43 characters) and its S256 challenge. */
export function createPkce(): Pkce {
  const verifier = randomToken(32);
  return { verifier, challenge: s256(verifier), method: 'S256' };
}

export function s256(verifier: string): string {
  return createHash('sha256').update(verifier, 'ascii').digest('base64url');
}

/** Whether `verifier` is well-formed and hashes to `challenge` (constant-time on equal lengths). */
export function verifyPkce(verifier: unknown, challenge: string): boolean {
  if (typeof verifier !== 'string' || !VERIFIER.test(verifier)) return false;
  const computed = Buffer.from(s256(verifier));
  const expected = Buffer.from(challenge);
  return computed.length === expected.length && timingSafeEqual(computed, expected);
}
