/**
 * DPoP on the resource server (RFC 9449 §4.3, §7): checks the `DPoP` proof of a request that presents its access
 * token with the `DPoP` scheme, and returns the thumbprint of the proof's key, which the token's `cnf.jkt` must
 * equal. One proof, one request: `htm` and `htu` name this request, `ath` this token, `iat` is recent, and a
 * `jti` is accepted once (a bounded replay cache covering the `iat` window).
 */
import { createHash } from 'node:crypto';
import { base64url } from './encoding.js';
import { isJwsAlgorithm, importPublicJwk, jwkThumbprint, type Jwk, type JwsAlgorithm } from './jose/keys.js';
import { decodeJwt, verifyJwt } from './jose/jwt.js';
import { InvalidTokenError } from './verifier.js';

export interface DpopProofOptions {
  /** Accepted proof algorithms. Default: every asymmetric one. */
  algorithms?: readonly JwsAlgorithm[];
  /** How old a proof may be (`iat`), in seconds. Default 300. */
  maxAgeSec?: number;
  /** Seconds a proof's `iat` may be ahead of our clock. Default 30. */
  clockSkewSec?: number;
  /** Proof `jti`s remembered at most (each until it is too old to be accepted anyway). Default 10 000. */
  maxReplayEntries?: number;
  /** The clock (milliseconds), for tests. */
  now?: () => number;
}

/** The proof is missing, malformed, for another request or token, too old, or replayed. */
export class InvalidDpopProofError extends InvalidTokenError {
  override name = 'InvalidDpopProofError';
}

export class DpopProofVerifier {
  readonly #options: DpopProofOptions;
  /** `jkt jti` → until when (ms) it must not be seen again. */
  readonly #seen = new Map<string, number>();

  constructor(options: DpopProofOptions = {}) {
    this.#options = options;
  }

  #now(): number {
    return this.#options.now?.() ?? Date.now();
  }

  /** Verifies `proof` for `method url` and `accessToken`; returns the proof key's RFC 7638 thumbprint. */
  async verify(proof: string, method: string, url: URL, accessToken: string): Promise<string> {
    const refuse = (why: string) => new InvalidDpopProofError(`The DPoP proof ${why}`);
    let decoded;
    try {
      decoded = decodeJwt(proof, 8 * 1024);
    } catch {
      throw refuse('is malformed');
    }
    const { header } = decoded;
    if (typeof header.typ !== 'string' || header.typ.toLowerCase() !== 'dpop+jwt')
      throw refuse('has no typ dpop+jwt');
    const jwk = header.jwk as Jwk | undefined;
    if (typeof jwk !== 'object' || jwk === null || Array.isArray(jwk) || 'd' in jwk)
      throw refuse('does not carry a public jwk');
    if (!isJwsAlgorithm(header.alg)) throw refuse('uses an algorithm that is not accepted');
    const nowMs = this.#now();
    const now = Math.floor(nowMs / 1000);
    let claims;
    try {
      const key = importPublicJwk(jwk);
      claims = (
        await verifyJwt(proof, {
          ...(this.#options.algorithms && { algorithms: this.#options.algorithms }),
          keys: () => [key],
          requireExpiry: false,
          clockSkewSec: this.#options.clockSkewSec ?? 30,
          now,
          maxLength: 8 * 1024,
        })
      ).claims;
    } catch {
      throw refuse('does not verify');
    }
    const maxAge = this.#options.maxAgeSec ?? 300;
    if (typeof claims.iat !== 'number' || now - claims.iat > maxAge) throw refuse('is too old');
    if (claims.htm !== method.toUpperCase()) throw refuse('is for another method');
    if (typeof claims.htu !== 'string' || !sameTarget(claims.htu, url)) throw refuse('is for another URL');
    const ath = base64url(createHash('sha256').update(accessToken, 'ascii').digest());
    if (claims.ath !== ath) throw refuse('is not bound to this access token');
    if (typeof claims.jti !== 'string' || claims.jti.length === 0 || claims.jti.length > 256)
      throw refuse('has no usable jti');
    const thumbprint = jwkThumbprint(jwk);
    this.#remember(`${thumbprint} ${claims.jti}`, (claims.iat + maxAge + 1) * 1000, refuse);
    return thumbprint;
  }

  #remember(key: string, until: number, refuse: (why: string) => Error): void {
    if (this.#seen.has(key)) throw refuse('was already used');
    const max = this.#options.maxReplayEntries ?? 10_000;
    if (this.#seen.size >= max) {
      const now = this.#now();
      for (const [seen, expiry] of this.#seen) if (expiry <= now) this.#seen.delete(seen);
    }
    // Full of live entries: refusing is safe (the client retries with a fresh proof later); forgetting is not.
    if (this.#seen.size >= max) throw new Error('Too many DPoP proofs in flight; try again shortly');
    this.#seen.set(key, until);
  }
}

/** `htu` names this request: same origin and path, query and fragment ignored (RFC 9449 §4.3). */
function sameTarget(htu: string, url: URL): boolean {
  try {
    const target = new URL(htu);
    return target.origin === url.origin && target.pathname === url.pathname;
  } catch {
    return false;
  }
}
