/**
 * A remote JSON Web Key Set (RFC 7517 §5) as a resource server uses it: fetched lazily, cached, refreshed when
 * stale or when a token names a key id it does not know (key rotation) — at most once per cooldown, so that
 * tokens with random `kid`s cannot make it hammer the authorization server — and bounded in size and time.
 * When a refresh fails, the keys already known keep working for a bounded time (`maxStaleMs`): after that the
 * key set counts as unavailable (503), so that a key the authorization server withdrew during an outage is not
 * trusted forever. A key set that was fetched and lacks the token's key is the token's fault (401).
 */
import type { KeyObject } from 'node:crypto';
import { authRequest, jsonObjectOf, type AuthHttpOptions } from './http.js';
import { importPublicJwk, isJwsAlgorithm, type Jwk } from './jose/keys.js';
import type { JwtHeader } from './jose/jwt.js';

/** The key set could not be fetched and no keys are known. */
export class JwksUnavailableError extends Error {
  override name = 'JwksUnavailableError';
}

export interface RemoteJwksOptions extends AuthHttpOptions {
  /** Keys are fetched again after this long. Default 10 minutes. */
  maxAgeMs?: number;
  /** At least this long between two fetches (unknown `kid`s, failures). Default 30 s. */
  cooldownMs?: number;
  /**
   * How long keys stay usable after their last successful fetch while refreshing fails. Default: `maxAgeMs`
   * plus one hour.
   */
  maxStaleMs?: number;
  /** Keys kept at most. Default 64. */
  maxKeys?: number;
  /** The clock, for tests. */
  now?: () => number;
}

interface CachedKey {
  readonly kid: string | undefined;
  readonly alg: string | undefined;
  readonly key: KeyObject;
}

export class RemoteJwks {
  readonly url: URL;
  readonly #options: RemoteJwksOptions;
  #keys: CachedKey[] = [];
  #fetchedAt = -Infinity;
  #attemptedAt = -Infinity;
  #loading: Promise<void> | undefined;

  constructor(url: string | URL, options: RemoteJwksOptions = {}) {
    this.url = new URL(url);
    this.#options = options;
  }

  #now(): number {
    return this.#options.now?.() ?? Date.now();
  }

  /** The keys that may have signed a token with this header. */
  async keysFor(header: JwtHeader): Promise<KeyObject[]> {
    const now = this.#now();
    const stale = now - this.#fetchedAt >= (this.#options.maxAgeMs ?? 600_000);
    if (stale) await this.#refresh();
    let found = this.#select(header);
    if (found.length === 0 && typeof header.kid === 'string') {
      // A key we do not know yet: the authorization server may have rotated its keys.
      await this.#refresh();
      found = this.#select(header);
    }
    const maxStaleMs = this.#options.maxStaleMs ?? (this.#options.maxAgeMs ?? 600_000) + 3_600_000;
    if (this.#now() - this.#fetchedAt > maxStaleMs) {
      // Never fetched, or not refreshed for too long: not the token's fault, the resource server answers 503.
      this.#keys = [];
      throw new JwksUnavailableError(`The key set at ${this.url.origin} is not available`);
    }
    return found;
  }

  #select(header: JwtHeader): KeyObject[] {
    return this.#keys
      .filter((k) => (typeof header.kid === 'string' ? k.kid === header.kid : true))
      .filter((k) => k.alg === undefined || k.alg === header.alg)
      .map((k) => k.key);
  }

  /** Fetches unless within the cooldown since the last attempt; callers during a fetch wait for it. */
  async #refresh(): Promise<void> {
    if (this.#loading) return this.#loading;
    if (this.#now() - this.#attemptedAt < (this.#options.cooldownMs ?? 30_000)) return;
    this.#attemptedAt = this.#now();
    this.#loading = this.#load().finally(() => {
      this.#loading = undefined;
    });
    return this.#loading;
  }

  async #load(): Promise<void> {
    let keys: CachedKey[];
    try {
      const response = await authRequest(
        this.url,
        { method: 'GET', headers: { accept: 'application/json' } },
        'JSON Web Key Set',
        { maxBytes: 256 * 1024, ...this.#options },
      );
      if (response.status !== 200) throw new Error(`HTTP ${response.status}`);
      keys = parseJwks(jsonObjectOf(response, 'JSON Web Key Set'), this.#options.maxKeys ?? 64);
    } catch {
      // Keep what we had; the next attempt waits for the cooldown.
      return;
    }
    this.#keys = keys;
    this.#fetchedAt = this.#now();
  }
}

/** The usable signature keys of a JWKS document; keys of other types or uses are skipped, not fatal. */
export function parseJwks(document: Record<string, unknown>, maxKeys = 64): CachedKey[] {
  const list = document.keys;
  if (!Array.isArray(list)) throw new Error('A JWKS has a "keys" array');
  const keys: CachedKey[] = [];
  for (const entry of list.slice(0, 1024)) {
    if (keys.length >= maxKeys) break;
    if (typeof entry !== 'object' || entry === null) continue;
    const jwk = entry as Jwk;
    if (jwk.use !== undefined && jwk.use !== 'sig') continue;
    if (Array.isArray(jwk.key_ops) && !jwk.key_ops.includes('verify')) continue;
    if (jwk.alg !== undefined && !isJwsAlgorithm(jwk.alg)) continue;
    try {
      keys.push({
        kid: typeof jwk.kid === 'string' ? jwk.kid : undefined,
        alg: typeof jwk.alg === 'string' ? jwk.alg : undefined,
        key: importPublicJwk(jwk),
      });
    } catch {
      continue;
    }
  }
  return keys;
}
