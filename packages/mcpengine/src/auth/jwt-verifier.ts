/**
 * Verifies JWT access tokens (RFC 9068) locally: signature against the authorization server's JWKS (or fixed
 * keys), `iss`, `aud` = this resource (RFC 8707), `exp`/`nbf`/`iat` with a small clock skew, `typ` = `at+jwt`.
 * A token bound to a key (`cnf`, RFC 9449 / RFC 8705) is refused: presented as a Bearer token, it proves nothing
 * about the presenter, and accepting it would turn a stolen DPoP token into a Bearer one.
 */
import type { KeyObject } from 'node:crypto';
import type { AuthInfo } from '../server/context.js';
import type { JsonObject } from '../protocol/types.js';
import { RemoteJwks, type RemoteJwksOptions } from './jwks.js';
import { importPublicJwk, type Jwk, type JwsAlgorithm } from './jose/keys.js';
import { JwtError, verifyJwt } from './jose/jwt.js';
import {
  InvalidTokenError,
  sameResource,
  scopesOfClaims,
  type TokenBinding,
  type TokenVerifier,
} from './verifier.js';

export interface JwtVerifierOptions {
  /** Accepted issuers (the authorization servers of this resource), compared exactly. */
  issuer: string | readonly string[];
  /** This resource's identifier(s): the token's `aud` must contain one. */
  audience: string | readonly string[];
  /** The authorization server's key set: its URL (fetched and cached) or a `RemoteJwks`. */
  jwks?: string | URL | RemoteJwks;
  /** Fixed verification keys instead of (or besides) a JWKS. */
  keys?: readonly (KeyObject | Jwk)[];
  /** Accepted algorithms. Default: every asymmetric one. */
  algorithms?: readonly JwsAlgorithm[];
  /** Seconds of clock skew tolerated. Default 30. */
  clockSkewSec?: number;
  /**
   * Accepted `typ` values. Default `['at+jwt']` (RFC 9068 §2.1: it keeps ID tokens and other JWTs of the same
   * issuer from passing as access tokens); `'any'` turns the check off for issuers that omit `typ`.
   */
  types?: readonly string[] | 'any';
  /** Options of the JWKS fetches when `jwks` is a URL. */
  jwksOptions?: RemoteJwksOptions;
}

const MESSAGES: Record<string, string> = {
  expired: 'The access token has expired',
  'not-yet-valid': 'The access token is not valid yet',
  type: 'The token is not an access token (typ)',
  audience: 'The access token was not issued for this resource',
  issuer: 'The access token was not issued by an accepted authorization server',
};

export class JwtVerifier implements TokenVerifier {
  readonly #options: JwtVerifierOptions;
  readonly #jwks: RemoteJwks | undefined;
  readonly #keys: KeyObject[];

  constructor(options: JwtVerifierOptions) {
    this.#options = options;
    this.#jwks =
      options.jwks === undefined
        ? undefined
        : options.jwks instanceof RemoteJwks
          ? options.jwks
          : new RemoteJwks(options.jwks, options.jwksOptions);
    this.#keys = (options.keys ?? []).map((key) =>
      'asymmetricKeyType' in key && typeof (key as KeyObject).export === 'function'
        ? (key as KeyObject)
        : importPublicJwk(key as Jwk),
    );
    if (!this.#jwks && this.#keys.length === 0) throw new TypeError('JwtVerifier needs `jwks` or `keys`');
  }

  async verify(token: string, binding?: TokenBinding): Promise<AuthInfo> {
    const audiences =
      typeof this.#options.audience === 'string' ? [this.#options.audience] : this.#options.audience;
    let decoded;
    try {
      decoded = await verifyJwt(token, {
        algorithms: this.#options.algorithms,
        issuer: this.#options.issuer,
        audience: audiences,
        audienceMatches: sameResource,
        clockSkewSec: this.#options.clockSkewSec,
        ...(this.#options.types !== 'any' && { types: this.#options.types ?? ['at+jwt'] }),
        keys: async (header) => [...this.#keys, ...((await this.#jwks?.keysFor(header)) ?? [])],
      });
    } catch (error) {
      if (error instanceof JwtError) {
        throw new InvalidTokenError(MESSAGES[error.code] ?? 'The access token is invalid', { cause: error });
      }
      throw error;
    }
    const claims = decoded.claims;
    if (binding) {
      const cnf = claims.cnf as { jkt?: unknown } | undefined;
      if (typeof cnf !== 'object' || cnf === null || cnf.jkt !== binding.jkt) {
        throw new InvalidTokenError('The access token is not bound to the key of the DPoP proof');
      }
    } else if (claims.cnf !== undefined) {
      throw new InvalidTokenError('The access token is bound to a key (cnf) and was presented without proof');
    }
    const aud = typeof claims.aud === 'string' ? [claims.aud] : (claims.aud ?? []);
    const resource = aud.find((a) => audiences.some((expected) => sameResource(a, expected)));
    const clientId = [claims.client_id, claims.azp, claims.cid].find(
      (v): v is string => typeof v === 'string',
    );
    const info: AuthInfo = { token, scopes: scopesOfClaims(claims) };
    if (clientId !== undefined) info.clientId = clientId;
    if (typeof claims.sub === 'string') info.subject = claims.sub;
    if (typeof claims.exp === 'number') info.expiresAt = claims.exp;
    if (resource !== undefined) info.resource = resource;
    const extra: JsonObject = {};
    if (typeof claims.iss === 'string') extra.iss = claims.iss;
    if (typeof claims.jti === 'string') extra.jti = claims.jti;
    info.extra = extra;
    return info;
  }
}
