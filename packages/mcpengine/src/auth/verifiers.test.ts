/**
 * The two ready verifiers: JWTs against a remote JWKS (caching, rotation on an unknown `kid`, cooldown,
 * limits, failures) and RFC 7662 introspection (audience binding, caching by hash, negative caching).
 */
import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { FetchLike } from '../transports/http/client-fetch.js';
import { IntrospectionVerifier } from './introspection.js';
import { JwksUnavailableError, RemoteJwks } from './jwks.js';
import { signJwt } from './jose/jwt.js';
import { exportPublicJwk } from './jose/keys.js';
import { JwtVerifier } from './jwt-verifier.js';
import { InvalidTokenError } from './verifier.js';

const ISSUER = 'https://as.example';
const RESOURCE = 'https://rs.example/mcp';

function ecKey(): { privateKey: KeyObject; publicKey: KeyObject } {
  return generateKeyPairSync('ec', { namedCurve: 'P-256' });
}

function sign(
  key: KeyObject,
  kid: string | undefined,
  claims: Record<string, unknown> = {},
  /** `null`: no typ header. */
  typ: string | null = 'at+jwt',
): string {
  const now = Math.floor(Date.now() / 1000);
  return signJwt({ iss: ISSUER, aud: RESOURCE, sub: 'u', exp: now + 60, scope: 'a b', ...claims }, key, {
    alg: 'ES256',
    ...(kid !== undefined && { kid }),
    ...(typ !== null && { typ }),
  });
}

/** A fake network: a function per URL, and a log of what was fetched. */
function network(routes: Record<string, (init: RequestInit) => Response | Promise<Response>>) {
  const calls: string[] = [];
  const fetch: FetchLike = async (url, init) => {
    calls.push(`${init.method ?? 'GET'} ${url.href}`);
    const route = routes[url.href];
    if (!route) return new Response('not found', { status: 404 });
    return route(init);
  };
  return { fetch, calls };
}

const jsonResponse = (body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json', ...headers } });

async function refusal(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => undefined,
    (e: unknown) => e,
  );
}

describe('JwtVerifier with a remote JWKS', () => {
  it('fetches once, then serves from the cache; fetches again for an unknown kid (rotation), within limits', async () => {
    const k1 = ecKey();
    const k2 = ecKey();
    let keys = [exportPublicJwk(k1.publicKey, { kid: 'k1', alg: 'ES256' })];
    const net = network({ 'https://as.example/jwks': () => jsonResponse({ keys }) });
    let clock = 1_000_000;
    const jwks = new RemoteJwks('https://as.example/jwks', {
      fetch: net.fetch,
      now: () => clock,
      cooldownMs: 30_000,
    });
    const verifier = new JwtVerifier({ issuer: ISSUER, audience: RESOURCE, jwks });
    const info = await verifier.verify(sign(k1.privateKey, 'k1'));
    expect(info).toMatchObject({
      subject: 'u',
      scopes: ['a', 'b'],
      resource: RESOURCE,
      extra: { iss: ISSUER },
    });
    await verifier.verify(sign(k1.privateKey, 'k1'));
    expect(net.calls).toHaveLength(1);

    // The server rotates to k2; a token with the new kid triggers one fetch (after the cooldown).
    keys = [exportPublicJwk(k2.publicKey, { kid: 'k2', alg: 'ES256' })];
    clock += 31_000;
    await verifier.verify(sign(k2.privateKey, 'k2'));
    expect(net.calls).toHaveLength(2);
    // Random kids cannot make it fetch again inside the cooldown.
    for (let i = 0; i < 5; i++)
      expect(await refusal(verifier.verify(sign(k2.privateKey, `x${i}`)))).toBeInstanceOf(InvalidTokenError);
    expect(net.calls).toHaveLength(2);
    // The old key is gone with the rotation.
    expect(await refusal(verifier.verify(sign(k1.privateKey, 'k1')))).toBeInstanceOf(InvalidTokenError);
  });

  it('keeps the keys it has when a refresh fails, and reports an unreachable key set as unavailable (503, not 401)', async () => {
    const k1 = ecKey();
    let up = true;
    const net = network({
      'https://as.example/jwks': () =>
        up
          ? jsonResponse({ keys: [exportPublicJwk(k1.publicKey, { kid: 'k1' })] })
          : new Response('', { status: 500 }),
    });
    let clock = 0;
    const verifier = new JwtVerifier({
      issuer: ISSUER,
      audience: RESOURCE,
      jwks: new RemoteJwks('https://as.example/jwks', { fetch: net.fetch, now: () => clock, maxAgeMs: 1000 }),
    });
    await verifier.verify(sign(k1.privateKey, 'k1'));
    up = false;
    clock += 60_000;
    await verifier.verify(sign(k1.privateKey, 'k1'));

    const cold = new JwtVerifier({
      issuer: ISSUER,
      audience: RESOURCE,
      jwks: new RemoteJwks('https://as.example/jwks', { fetch: network({}).fetch }),
    });
    expect(await refusal(cold.verify(sign(k1.privateKey, 'k1')))).toBeInstanceOf(JwksUnavailableError);
  });

  it('stops trusting cached keys once the key set stayed unreachable past maxStaleMs (503)', async () => {
    const k1 = ecKey();
    let up = true;
    const net = network({
      'https://as.example/jwks': () =>
        up
          ? jsonResponse({ keys: [exportPublicJwk(k1.publicKey, { kid: 'k1' })] })
          : new Response('', { status: 500 }),
    });
    let clock = 0;
    const verifier = new JwtVerifier({
      issuer: ISSUER,
      audience: RESOURCE,
      jwks: new RemoteJwks('https://as.example/jwks', {
        fetch: net.fetch,
        now: () => clock,
        maxAgeMs: 60_000,
        maxStaleMs: 3_600_000,
      }),
    });
    await verifier.verify(sign(k1.privateKey, 'k1'));
    up = false;
    clock = 3_000_000; // unreachable, within the staleness bound: the known key still works
    await verifier.verify(sign(k1.privateKey, 'k1'));
    clock = 7 * 24 * 3_600_000; // a week later, still unreachable
    expect(await refusal(verifier.verify(sign(k1.privateKey, 'k1')))).toBeInstanceOf(JwksUnavailableError);
    up = true;
    clock += 60_000; // reachable again (after the cooldown): trusted again
    await verifier.verify(sign(k1.privateKey, 'k1'));
  });

  it('answers a reachable key set without the token key as the token fault (401), not 503', async () => {
    const k1 = ecKey();
    const empty = network({ 'https://as.example/jwks': () => jsonResponse({ keys: [] }) });
    const verifier = new JwtVerifier({
      issuer: ISSUER,
      audience: RESOURCE,
      jwks: new RemoteJwks('https://as.example/jwks', { fetch: empty.fetch }),
    });
    expect(await refusal(verifier.verify(sign(k1.privateKey, 'k1')))).toBeInstanceOf(InvalidTokenError);
    expect(await refusal(verifier.verify(sign(k1.privateKey, undefined)))).toBeInstanceOf(InvalidTokenError);
  });

  it('refuses oversized and malformed key sets, and skips keys it cannot use', async () => {
    const k1 = ecKey();
    const big = network({
      'https://as.example/jwks': () => jsonResponse({ keys: [], padding: 'x'.repeat(300_000) }),
    });
    const bigVerifier = new JwtVerifier({
      issuer: ISSUER,
      audience: RESOURCE,
      jwks: new RemoteJwks('https://as.example/jwks', { fetch: big.fetch }),
    });
    expect(await refusal(bigVerifier.verify(sign(k1.privateKey, 'k1')))).toBeInstanceOf(JwksUnavailableError);

    const mixed = network({
      'https://as.example/jwks': () =>
        jsonResponse({
          keys: [
            { kty: 'oct', k: 'c2VjcmV0', kid: 'k1' },
            { ...exportPublicJwk(k1.publicKey), kid: 'k1', use: 'enc' },
            { kty: 'EC', crv: 'P-256', x: '!!', y: '??', kid: 'k1' },
            { ...exportPublicJwk(k1.publicKey), kid: 'k1', alg: 'HS256' },
            { ...exportPublicJwk(k1.publicKey), kid: 'k1' },
          ],
        }),
    });
    const verifier = new JwtVerifier({
      issuer: ISSUER,
      audience: RESOURCE,
      jwks: new RemoteJwks('https://as.example/jwks', { fetch: mixed.fetch }),
    });
    await verifier.verify(sign(k1.privateKey, 'k1'));
  });

  it('refuses a plain-HTTP JWKS URL outside loopback, and redirects to other origins', async () => {
    const k1 = ecKey();
    const insecure = new JwtVerifier({ issuer: ISSUER, audience: RESOURCE, jwks: 'http://as.example/jwks' });
    expect(await refusal(insecure.verify(sign(k1.privateKey, 'k1')))).toBeInstanceOf(JwksUnavailableError);
    const redirecting = network({
      'https://as.example/jwks': () =>
        new Response(null, { status: 302, headers: { location: 'https://evil.example/jwks' } }),
      'https://evil.example/jwks': () =>
        jsonResponse({ keys: [exportPublicJwk(k1.publicKey, { kid: 'k1' })] }),
    });
    const verifier = new JwtVerifier({
      issuer: ISSUER,
      audience: RESOURCE,
      jwks: new RemoteJwks('https://as.example/jwks', { fetch: redirecting.fetch }),
    });
    expect(await refusal(verifier.verify(sign(k1.privateKey, 'k1')))).toBeInstanceOf(JwksUnavailableError);
    expect(redirecting.calls).toEqual(['GET https://as.example/jwks']);
  });
});

describe('JwtVerifier token kinds', () => {
  it('requires typ at+jwt by default (ID tokens and other JWTs do not pass), unless types is "any"', async () => {
    const k = ecKey();
    const strict = new JwtVerifier({ issuer: ISSUER, audience: RESOURCE, keys: [k.publicKey] });
    await strict.verify(sign(k.privateKey, undefined, {}, 'at+jwt'));
    await strict.verify(sign(k.privateKey, undefined, {}, 'application/at+jwt'));
    for (const typ of [null, 'JWT', 'dpop+jwt']) {
      const error = await refusal(strict.verify(sign(k.privateKey, undefined, {}, typ)));
      expect(error).toBeInstanceOf(InvalidTokenError);
      expect((error as Error).message).toMatch(/typ/);
    }
    const lenient = new JwtVerifier({
      issuer: ISSUER,
      audience: RESOURCE,
      keys: [k.publicKey],
      types: 'any',
    });
    await lenient.verify(sign(k.privateKey, undefined, {}, null));
  });

  it('refuses a key-bound token (cnf) presented as a Bearer token', async () => {
    const k = ecKey();
    const verifier = new JwtVerifier({ issuer: ISSUER, audience: RESOURCE, keys: [k.publicKey] });
    for (const cnf of [{ jkt: 'NzbLsXh8uDCcd-6MNwXF4W_7noWXFZAfHkxZsRGC9Xs' }, { 'x5t#S256': 'abc' }]) {
      const error = await refusal(verifier.verify(sign(k.privateKey, undefined, { cnf })));
      expect(error).toBeInstanceOf(InvalidTokenError);
      expect((error as Error).message).toMatch(/bound to a key/);
    }
  });
});

describe('IntrospectionVerifier (RFC 7662)', () => {
  function setup(
    answer: (token: string) => Record<string, unknown>,
    options: Partial<ConstructorParameters<typeof IntrospectionVerifier>[0]> = {},
  ) {
    const seen: { authorization: string | null; body: string }[] = [];
    const net = network({
      'https://as.example/introspect': (init) => {
        const body = String(init.body);
        seen.push({ authorization: new Headers(init.headers).get('authorization'), body });
        return jsonResponse(answer(new URLSearchParams(body).get('token') ?? ''));
      },
    });
    let clock = 1_700_000_000_000;
    const verifier = new IntrospectionVerifier({
      endpoint: 'https://as.example/introspect',
      clientId: 'rs',
      clientSecret: 's3cret',
      audience: RESOURCE,
      issuer: ISSUER,
      fetch: net.fetch,
      now: () => clock,
      ...options,
    });
    return { verifier, net, seen, tick: (ms: number) => (clock += ms), now: () => clock };
  }

  it('accepts an active token for this resource, authenticates itself, and caches by hash', async () => {
    const { verifier, seen, net, now } = setup(() => ({
      active: true,
      iss: ISSUER,
      aud: [RESOURCE],
      sub: 'bob',
      client_id: 'c',
      scope: 'x y',
      exp: Math.floor(now() / 1000) + 600,
    }));
    const info = await verifier.verify('opaque-token');
    expect(info).toMatchObject({
      token: 'opaque-token',
      subject: 'bob',
      clientId: 'c',
      scopes: ['x', 'y'],
      resource: RESOURCE,
    });
    expect(seen[0]!.authorization).toBe(`Basic ${Buffer.from('rs:s3cret').toString('base64')}`);
    expect(seen[0]!.body).toBe('token=opaque-token&token_type_hint=access_token');
    await Promise.all([verifier.verify('opaque-token'), verifier.verify('opaque-token')]);
    expect(net.calls).toHaveLength(1);
  });

  it('refuses inactive tokens, tokens for other resources or issuers, and tokens without audience', async () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ active: false }, /not active/],
      [{ active: true, aud: 'https://other/mcp' }, /not issued for this resource/],
      [{ active: true, aud: RESOURCE, iss: 'https://evil' }, /authorization server/],
      [{ active: true }, /no audience/],
      [{ active: true, aud: RESOURCE, exp: 1 }, /expired/],
      [{ active: 'true', aud: RESOURCE }, /not active/],
      // Loose answers: a claim of the wrong type is not silently skipped.
      [{ active: true, aud: RESOURCE, exp: '1' }, /invalid "exp"/],
      [{ active: true, aud: RESOURCE, nbf: '99999999999' }, /invalid "nbf"/],
      [{ active: true, aud: RESOURCE, scope: ['admin'] }, /invalid "scope"/],
      [{ active: true, aud: [RESOURCE, 7] }, /invalid "aud"/],
      [{ active: true, aud: RESOURCE, iss: 42 }, /invalid "iss"/],
      // Not an access token, or one bound to a key this Bearer request cannot prove.
      [{ active: true, aud: RESOURCE, token_type: 'refresh_token' }, /not an access token/],
      [
        { active: true, aud: RESOURCE, token_type: 'urn:ietf:params:oauth:token-type:id_token' },
        /not an access token/,
      ],
      [{ active: true, aud: RESOURCE, cnf: { jkt: 'x' } }, /bound to a key/],
    ];
    const accepted = { active: true, aud: RESOURCE, token_type: 'Bearer' };
    expect((await setup(() => accepted).verifier.verify('t')).resource).toBe(RESOURCE);
    for (const [answer, message] of cases) {
      const { verifier } = setup(() => answer);
      const error = await refusal(verifier.verify('t'));
      expect(error).toBeInstanceOf(InvalidTokenError);
      expect((error as Error).message).toMatch(message);
    }
    const { verifier } = setup(() => ({ active: true }), { requireAudience: false });
    expect((await verifier.verify('t')).scopes).toEqual([]);
  });

  it('bounds introspection requests for tokens not in the cache (503 beyond, without asking)', async () => {
    const ctx = setup(() => ({ active: false }), { maxRequestsPerSecond: 3 });
    const outcomes = [];
    for (let i = 0; i < 10; i++) outcomes.push(await refusal(ctx.verifier.verify(`random-${i}`)));
    expect(outcomes.slice(0, 3).every((e) => e instanceof InvalidTokenError)).toBe(true);
    for (const outcome of outcomes.slice(3)) {
      expect(outcome).toBeInstanceOf(Error);
      expect(outcome).not.toBeInstanceOf(InvalidTokenError); // unavailable (503), not the token's fault
    }
    expect(ctx.net.calls).toHaveLength(3);
    // A known token is still answered from the cache; the next second has a fresh budget.
    expect(await refusal(ctx.verifier.verify('random-0'))).toBeInstanceOf(InvalidTokenError);
    ctx.tick(1_000);
    expect(await refusal(ctx.verifier.verify('random-11'))).toBeInstanceOf(InvalidTokenError);
    expect(ctx.net.calls).toHaveLength(4);
  });

  it('caches a refusal briefly, an acceptance until expiry, and treats endpoint failures as unavailable', async () => {
    let active = false;
    let exp = 0;
    const ctx = setup(() => ({ active, aud: RESOURCE, exp }));
    exp = Math.floor(ctx.now() / 1000) + 30;
    await refusal(ctx.verifier.verify('t'));
    active = true;
    expect(await refusal(ctx.verifier.verify('t'))).toBeInstanceOf(InvalidTokenError); // still the cached refusal
    ctx.tick(6_000);
    await ctx.verifier.verify('t');
    ctx.tick(70_000);
    expect(await refusal(ctx.verifier.verify('t'))).toBeInstanceOf(InvalidTokenError);

    const broken = new IntrospectionVerifier({
      endpoint: 'https://as.example/introspect',
      audience: RESOURCE,
      fetch: async () => new Response('oops', { status: 500 }),
    });
    const error = await refusal(broken.verify('t'));
    expect(error).toBeInstanceOf(Error);
    expect(error).not.toBeInstanceOf(InvalidTokenError);
  });
});
