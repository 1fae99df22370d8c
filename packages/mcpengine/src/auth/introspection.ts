/**
 * Verifies opaque access tokens by asking the authorization server (RFC 7662 token introspection), with a
 * bounded cache keyed by the token's SHA-256 (the token itself is never a key, never logged). Active answers
 * are cached until `exp` or `cacheTtlMs`, whichever comes first; inactive answers briefly.
 *
 * The answer is read strictly: a claim of the wrong JSON type, a token type other than an access token, or a
 * key-bound (`cnf`) token presented as a Bearer token is refused. Upstream calls for tokens not in the cache are
 * rate-bounded, so that a flood of random tokens cannot turn into a flood of introspection requests.
 */
import { createHash } from 'node:crypto';
import type { JsonObject } from '../protocol/types.js';
import type { AuthInfo } from '../server/context.js';
import { basicCredentials, formEncode } from './encoding.js';
import { authRequest, jsonObjectOf, type AuthHttpOptions } from './http.js';
import {
  InvalidTokenError,
  sameResource,
  scopesOfClaims,
  type TokenBinding,
  type TokenVerifier,
} from './verifier.js';

export interface IntrospectionVerifierOptions extends AuthHttpOptions {
  /** The introspection endpoint. */
  endpoint: string | URL;
  /** This resource's credentials at the authorization server (HTTP Basic). */
  clientId?: string;
  clientSecret?: string;
  /** This resource's identifier(s): the answer's `aud` must contain one. */
  audience: string | readonly string[];
  /** Accepted issuers, when the answer carries `iss`. */
  issuer?: string | readonly string[];
  /**
   * Refuse active tokens whose answer has no `aud` (RFC 8707 binding cannot be checked). Default true; turn it
   * off only for an authorization server that issues tokens for this resource alone.
   */
  requireAudience?: boolean;
  /** Longest time an active answer is reused. Default 60 s. */
  cacheTtlMs?: number;
  /** How long an inactive answer is reused. Default 5 s. */
  negativeCacheTtlMs?: number;
  /** Answers cached at most. Default 10 000. */
  maxCacheEntries?: number;
  /**
   * Introspection requests at most per second (tokens not in the cache); beyond, verification fails as
   * unavailable (503 with Retry-After) without asking the authorization server. Default 50.
   */
  maxRequestsPerSecond?: number;
  /** Seconds of clock skew tolerated on `exp`/`nbf`. Default 30. */
  clockSkewSec?: number;
  now?: () => number;
}

interface CacheEntry {
  readonly until: number;
  readonly info: AuthInfo | undefined;
  readonly reason?: string;
}

/** `token_type` values of an access token usable as a Bearer token (RFC 6750, RFC 8693 token type URIs). */
const ACCESS_TOKEN_TYPES = new Set([
  'bearer',
  'access_token',
  'urn:ietf:params:oauth:token-type:access_token',
]);

const NUMERIC_CLAIMS = ['exp', 'nbf', 'iat'] as const;
const STRING_CLAIMS = ['iss', 'sub', 'client_id', 'scope', 'token_type', 'username', 'jti'] as const;

/** The first claim of the answer with the wrong JSON type (RFC 7662 §2.2), if any. */
function malformedClaim(answer: Record<string, unknown>): string | undefined {
  for (const name of NUMERIC_CLAIMS) {
    const value = answer[name];
    if (value !== undefined && (typeof value !== 'number' || !Number.isFinite(value))) return name;
  }
  for (const name of STRING_CLAIMS) {
    if (answer[name] !== undefined && typeof answer[name] !== 'string') return name;
  }
  const aud = answer.aud;
  if (aud !== undefined && typeof aud !== 'string') {
    if (!Array.isArray(aud) || !aud.every((a) => typeof a === 'string')) return 'aud';
  }
  return undefined;
}

export class IntrospectionVerifier implements TokenVerifier {
  readonly #options: IntrospectionVerifierOptions;
  readonly #endpoint: URL;
  readonly #cache = new Map<string, CacheEntry>();
  readonly #pending = new Map<string, Promise<AuthInfo>>();
  #window = { start: -Infinity, requests: 0 };

  constructor(options: IntrospectionVerifierOptions) {
    this.#options = options;
    this.#endpoint = new URL(options.endpoint);
  }

  #now(): number {
    return this.#options.now?.() ?? Date.now();
  }

  async verify(token: string, binding?: TokenBinding): Promise<AuthInfo> {
    // DPoP-bound opaque tokens would need the cnf of every cached answer; not supported yet (see docs/security.md).
    if (binding) throw new InvalidTokenError('DPoP-bound tokens are not accepted by this resource');
    if (token.length === 0 || token.length > 16 * 1024)
      throw new InvalidTokenError('The access token is invalid');
    const key = createHash('sha256').update(token, 'utf8').digest('base64url');
    const cached = this.#cache.get(key);
    if (cached && cached.until > this.#now()) {
      if (!cached.info) throw new InvalidTokenError(cached.reason ?? 'The access token is invalid');
      if (cached.info.expiresAt !== undefined && cached.info.expiresAt * 1000 <= this.#now()) {
        throw new InvalidTokenError('The access token has expired');
      }
      return { ...cached.info, token };
    }
    let pending = this.#pending.get(key);
    if (!pending) {
      this.#spendRequest();
      pending = this.#introspect(token, key).finally(() => this.#pending.delete(key));
      this.#pending.set(key, pending);
    }
    return { ...(await pending), token };
  }

  /** Counts one upstream request in the current one-second window, or throws (503) when it is used up. */
  #spendRequest(): void {
    const now = this.#now();
    if (now - this.#window.start >= 1000) this.#window = { start: now, requests: 0 };
    if (this.#window.requests >= (this.#options.maxRequestsPerSecond ?? 50)) {
      throw new Error('Too many token introspection requests; try again shortly');
    }
    this.#window.requests++;
  }

  #remember(key: string, entry: CacheEntry): void {
    const max = this.#options.maxCacheEntries ?? 10_000;
    this.#cache.delete(key);
    if (this.#cache.size >= max) {
      const oldest = this.#cache.keys().next().value;
      if (oldest !== undefined) this.#cache.delete(oldest);
    }
    this.#cache.set(key, entry);
  }

  #refuse(key: string, reason: string): never {
    this.#remember(key, {
      until: this.#now() + (this.#options.negativeCacheTtlMs ?? 5_000),
      info: undefined,
      reason,
    });
    throw new InvalidTokenError(reason);
  }

  async #introspect(token: string, key: string): Promise<AuthInfo> {
    const headers: Record<string, string> = {
      'content-type': 'application/x-www-form-urlencoded',
      accept: 'application/json',
    };
    if (this.#options.clientId !== undefined) {
      headers.authorization = basicCredentials(this.#options.clientId, this.#options.clientSecret ?? '');
    }
    const response = await authRequest(
      this.#endpoint,
      { method: 'POST', headers, body: formEncode({ token, token_type_hint: 'access_token' }) },
      'token introspection response',
      { maxBytes: 64 * 1024, ...this.#options },
    );
    if (response.status !== 200) throw new Error(`Token introspection answered HTTP ${response.status}`);
    const answer = jsonObjectOf(response, 'token introspection response');
    if (answer.active !== true) return this.#refuse(key, 'The access token is not active');
    const malformed = malformedClaim(answer);
    if (malformed !== undefined)
      return this.#refuse(key, `The introspection answer has an invalid "${malformed}"`);
    if (typeof answer.token_type === 'string' && !ACCESS_TOKEN_TYPES.has(answer.token_type.toLowerCase()))
      return this.#refuse(key, 'The token is not an access token');
    if (answer.cnf !== undefined)
      return this.#refuse(key, 'The access token is bound to a key (cnf) and was presented without proof');
    const now = Math.floor(this.#now() / 1000);
    const skew = this.#options.clockSkewSec ?? 30;
    if (typeof answer.exp === 'number' && now - skew >= answer.exp)
      return this.#refuse(key, 'The access token has expired');
    if (typeof answer.nbf === 'number' && now + skew < answer.nbf)
      return this.#refuse(key, 'The access token is not valid yet');
    if (this.#options.issuer !== undefined && answer.iss !== undefined) {
      const issuers =
        typeof this.#options.issuer === 'string' ? [this.#options.issuer] : this.#options.issuer;
      if (typeof answer.iss !== 'string' || !issuers.includes(answer.iss)) {
        return this.#refuse(key, 'The access token was not issued by an accepted authorization server');
      }
    }
    const audiences =
      typeof this.#options.audience === 'string' ? [this.#options.audience] : this.#options.audience;
    const aud =
      typeof answer.aud === 'string' ? [answer.aud] : Array.isArray(answer.aud) ? answer.aud : undefined;
    let resource: string | undefined;
    if (aud === undefined) {
      if (this.#options.requireAudience !== false)
        return this.#refuse(key, 'The access token names no audience');
    } else {
      resource = aud.find(
        (a): a is string => typeof a === 'string' && audiences.some((e) => sameResource(a, e)),
      );
      if (resource === undefined)
        return this.#refuse(key, 'The access token was not issued for this resource');
    }
    const info: AuthInfo = { scopes: scopesOfClaims(answer) };
    if (typeof answer.client_id === 'string') info.clientId = answer.client_id;
    if (typeof answer.sub === 'string') info.subject = answer.sub;
    if (typeof answer.exp === 'number') info.expiresAt = answer.exp;
    if (resource !== undefined) info.resource = resource;
    const extra: JsonObject = {};
    if (typeof answer.iss === 'string') extra.iss = answer.iss;
    info.extra = extra;
    const ttl = Math.min(
      this.#options.cacheTtlMs ?? 60_000,
      typeof answer.exp === 'number' ? answer.exp * 1000 - this.#now() : Infinity,
    );
    if (ttl > 0) this.#remember(key, { until: this.#now() + ttl, info });
    return { ...info, token };
  }
}
