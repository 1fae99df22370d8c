/**
 * DPoP (RFC 9449): a client key that binds access and refresh tokens to this client, and the proofs that show
 * possession of it — one fresh proof per HTTP request, for the token endpoint and for the MCP server. Used when
 * the MCP server challenges with the `DPoP` scheme and the authorization server supports it (or when asked).
 */
import { createHash, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { base64url } from '../encoding.js';
import { newJwtId, signJwt } from '../jose/jwt.js';
import { exportPublicJwk, importPrivateKey, jwkThumbprint, type Jwk } from '../jose/keys.js';

export class DpopKey {
  readonly #key: KeyObject;
  readonly #publicJwk: Jwk;

  private constructor(key: KeyObject) {
    this.#key = key;
    const { kty, crv, x, y } = exportPublicJwk(key);
    this.#publicJwk = { kty, crv, x, y } as Jwk;
  }

  /** A fresh P-256 key (ES256). */
  static generate(): DpopKey {
    return new DpopKey(generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey);
  }

  /** A key stored earlier with `toJwk()`. */
  static fromJwk(jwk: Jwk): DpopKey {
    return new DpopKey(importPrivateKey(jwk));
  }

  /** The private key as a JWK, to store with the tokens bound to it. */
  toJwk(): Jwk {
    return this.#key.export({ format: 'jwk' }) as Jwk;
  }

  /** RFC 7638 thumbprint (the tokens' `cnf.jkt`). */
  get thumbprint(): string {
    return jwkThumbprint(this.#publicJwk);
  }

  /** A proof for one request: `htu` is the URL without query and fragment; `ath` binds an access token. */
  proof(
    method: string,
    url: URL,
    options: { nonce?: string | undefined; accessToken?: string | undefined } = {},
  ): string {
    const claims: Record<string, unknown> = {
      jti: newJwtId(),
      htm: method.toUpperCase(),
      htu: `${url.origin}${url.pathname}`,
      iat: Math.floor(Date.now() / 1000),
    };
    if (options.nonce !== undefined) claims.nonce = options.nonce;
    if (options.accessToken !== undefined) {
      claims.ath = base64url(createHash('sha256').update(options.accessToken, 'ascii').digest());
    }
    return signJwt(claims, this.#key, { alg: 'ES256', typ: 'dpop+jwt', header: { jwk: this.#publicJwk } });
  }
}

/** The `DPoP-Nonce` values servers hand out (RFC 9449 §8, §9), by origin. */
export class DpopNonces {
  readonly #nonces = new Map<string, string>();

  get(url: URL): string | undefined {
    return this.#nonces.get(url.origin);
  }

  /** Remembers the nonce of a response, if it carries one; returns whether it did. */
  learn(url: URL, response: { headers: Headers }): boolean {
    const nonce = response.headers.get('dpop-nonce');
    if (nonce === null || !/^[\x21\x23-\x5B\x5D-\x7E]{1,512}$/.test(nonce)) return false;
    this.#nonces.set(url.origin, nonce);
    return true;
  }
}
