/**
 * Our JWS/JWT code against `jose` (the official SDK's dependency) as an independent oracle: tokens we sign
 * verify with jose and the other way round, for every algorithm; thumbprints agree; and everything strict
 * decoding must refuse is refused.
 */
import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import * as jose from 'jose';
import { describe, expect, it } from 'vitest';
import { base64url } from '../encoding.js';
import { decodeJwt, JwtError, signJwt, validateClaims, verifyJwt, type JwtClaims } from './jwt.js';
import { exportPublicJwk, importPublicJwk, jwkThumbprint, keyProblem, type JwsAlgorithm } from './keys.js';

function keyPair(alg: JwsAlgorithm): { privateKey: KeyObject; publicKey: KeyObject } {
  switch (alg) {
    case 'RS256':
    case 'RS384':
    case 'RS512':
    case 'PS256':
    case 'PS384':
    case 'PS512':
      return generateKeyPairSync('rsa', { modulusLength: 2048 });
    case 'ES256':
      return generateKeyPairSync('ec', { namedCurve: 'P-256' });
    case 'ES384':
      return generateKeyPairSync('ec', { namedCurve: 'P-384' });
    case 'ES512':
      return generateKeyPairSync('ec', { namedCurve: 'P-521' });
    case 'EdDSA':
      return generateKeyPairSync('ed25519');
  }
}

const ALGORITHMS: JwsAlgorithm[] = [
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'ES256',
  'ES384',
  'ES512',
  'EdDSA',
];
const now = () => Math.floor(Date.now() / 1000);

describe('signing and verification, checked against jose', () => {
  for (const alg of ALGORITHMS) {
    it(`${alg}: ours → jose and jose → ours`, async () => {
      const { privateKey, publicKey } = keyPair(alg);
      const claims: JwtClaims = {
        iss: 'https://as.example',
        sub: 'u1',
        aud: 'https://rs.example/mcp',
        exp: now() + 60,
        scope: 'a b',
      };
      const ours = signJwt(claims, privateKey, { alg, kid: 'k1', typ: 'at+jwt' });
      const checked = await jose.jwtVerify(ours, publicKey, {
        issuer: 'https://as.example',
        audience: 'https://rs.example/mcp',
      });
      expect(checked.payload.sub).toBe('u1');
      expect(checked.protectedHeader).toEqual({ alg, kid: 'k1', typ: 'at+jwt' });

      const theirs = await new jose.SignJWT({ scope: 'x' })
        .setProtectedHeader({ alg, typ: 'at+jwt' })
        .setIssuer('https://as.example')
        .setAudience(['https://other', 'https://rs.example/mcp'])
        .setExpirationTime('1m')
        .sign(privateKey);
      const decoded = await verifyJwt(theirs, {
        keys: () => [publicKey],
        issuer: 'https://as.example',
        audience: 'https://rs.example/mcp',
        types: ['at+jwt'],
      });
      expect(decoded.claims.scope).toBe('x');
      // The public JWK we export imports back, and into jose too.
      const jwk = exportPublicJwk(publicKey, { alg, kid: 'k1' });
      await verifyJwt(theirs, { keys: () => [importPublicJwk(jwk)] });
      await jose.jwtVerify(ours, await jose.importJWK(jwk as jose.JWK, alg));
    });
  }

  it('computes RFC 7638 thumbprints as jose does', async () => {
    for (const alg of ['RS256', 'ES256', 'ES384', 'EdDSA'] as const) {
      const jwk = exportPublicJwk(keyPair(alg).publicKey);
      expect(jwkThumbprint(jwk)).toBe(await jose.calculateJwkThumbprint(jwk as jose.JWK, 'sha256'));
    }
  });
});

describe('strict decoding', () => {
  const { privateKey, publicKey } = keyPair('ES256');
  const good = signJwt({ exp: now() + 60 }, privateKey, { alg: 'ES256' });
  const [h, p, s] = good.split('.') as [string, string, string];
  const verify = (token: string, extra: Partial<Parameters<typeof verifyJwt>[1]> = {}) =>
    verifyJwt(token, { keys: () => [publicKey], ...extra });
  const code = async (promise: Promise<unknown>) => {
    const error = await promise.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(JwtError);
    return (error as JwtError).code;
  };

  it('refuses malformed tokens', async () => {
    for (const token of [
      '',
      'a.b',
      `${h}.${p}`,
      `${h}.${p}.${s}.x`,
      `${h}=.${p}.${s}`,
      `${h}.${p}.`,
      `${h}.%%%.${s}`,
      'x'.repeat(20_000),
    ]) {
      expect(await code(verify(token)), token.slice(0, 40)).toBe('malformed');
    }
    expect(await code(verify(`${base64url('[1]')}.${p}.${s}`))).toBe('malformed');
    expect(await code(verify(`${base64url('{"alg":"ES256","crit":["b64"]}')}.${p}.${s}`))).toBe('malformed');
    expect(await code(verify(`${h}.${base64url('not json')}.${s}`))).toBe('malformed');
  });

  it('refuses non-canonical base64url (the same bytes spelled differently)', async () => {
    // Flip the unused low bits of the last character of the signature: Node would decode it to the same bytes.
    const last = s.at(-1)!;
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const twin = alphabet[alphabet.indexOf(last) ^ 1]!;
    expect(await code(verify(`${h}.${p}.${s.slice(0, -1)}${twin}`))).toBe('malformed');
  });

  it('refuses alg none, HMAC, algorithms outside the allow-list, and keys of the wrong type', async () => {
    const none = `${base64url('{"alg":"none"}')}.${p}.`;
    expect(await code(verify(none))).toBe('malformed'); // empty signature
    const hs = `${base64url('{"alg":"HS256"}')}.${p}.${s}`;
    expect(await code(verify(hs))).toBe('algorithm');
    expect(await code(verify(good, { algorithms: ['RS256'] }))).toBe('algorithm');
    const rsa = keyPair('RS256').publicKey;
    expect(await code(verifyJwt(good, { keys: () => [rsa] }))).toBe('signature');
    expect(await code(verifyJwt(good, { keys: () => [] }))).toBe('key');
  });

  it('refuses a signature made by another key, or of the wrong length', async () => {
    const other = signJwt({ exp: now() + 60 }, keyPair('ES256').privateKey, { alg: 'ES256' });
    expect(await code(verify(`${h}.${p}.${other.split('.')[2]}`))).toBe('signature');
    expect(await code(verify(`${h}.${p}.${base64url(Buffer.alloc(63))}`))).toBe('signature');
    expect(await code(verify(`${h}.${base64url('{"exp":1}')}.${s}`))).toBe('signature');
  });

  it('refuses RSA keys below 2048 bits and curve mismatches', () => {
    const small = generateKeyPairSync('rsa', { modulusLength: 1024 }).publicKey;
    expect(keyProblem(small, 'RS256')).toMatch(/2048/);
    expect(keyProblem(keyPair('ES384').publicKey, 'ES256')).toMatch(/P-256/);
    expect(() => signJwt({}, keyPair('ES256').publicKey, { alg: 'ES256' })).toThrow(/private/);
  });

  it('decodes without verifying', () => {
    const decoded = decodeJwt(good);
    expect(decoded.header.alg).toBe('ES256');
    expect(typeof decoded.claims.exp).toBe('number');
  });
});

describe('claim validation', () => {
  const header = { alg: 'ES256' };
  const at = 1_000_000;
  const check = (claims: JwtClaims, options: Parameters<typeof validateClaims>[1] = {}) => {
    try {
      validateClaims({ header, claims }, { now: at, ...options });
      return 'ok';
    } catch (error) {
      return (error as JwtError).code;
    }
  };

  it('requires exp unless told otherwise, and honours the clock skew', () => {
    expect(check({})).toBe('claims');
    expect(check({}, { requireExpiry: false })).toBe('ok');
    expect(check({ exp: at + 1 })).toBe('ok');
    expect(check({ exp: at - 10 })).toBe('ok'); // within 30 s skew
    expect(check({ exp: at - 30 })).toBe('expired');
    expect(check({ exp: at - 10 }, { clockSkewSec: 0 })).toBe('expired');
    expect(check({ exp: 'soon' as unknown as number })).toBe('claims');
  });

  it('checks nbf and iat against now plus skew', () => {
    expect(check({ exp: at + 60, nbf: at + 20 })).toBe('ok');
    expect(check({ exp: at + 60, nbf: at + 31 })).toBe('not-yet-valid');
    expect(check({ exp: at + 60, iat: at + 100 })).toBe('not-yet-valid');
  });

  it('compares iss exactly and needs one expected audience', () => {
    expect(check({ exp: at + 60, iss: 'https://as' }, { issuer: 'https://as' })).toBe('ok');
    expect(check({ exp: at + 60, iss: 'https://as/' }, { issuer: 'https://as' })).toBe('issuer');
    expect(check({ exp: at + 60 }, { issuer: 'https://as' })).toBe('issuer');
    expect(check({ exp: at + 60, aud: ['x', 'https://rs/mcp'] }, { audience: 'https://rs/mcp' })).toBe('ok');
    expect(check({ exp: at + 60, aud: 'https://rs/mcp/' }, { audience: 'https://rs/mcp' })).toBe('audience');
    expect(check({ exp: at + 60 }, { audience: 'https://rs/mcp' })).toBe('audience');
    expect(check({ exp: at + 60, aud: [42 as unknown as string] }, { audience: '42' })).toBe('audience');
  });

  it('checks typ when asked, with or without the application/ prefix', () => {
    expect(check({ exp: at + 60 }, { types: ['at+jwt'] })).toBe('type');
    validateClaims(
      { header: { alg: 'ES256', typ: 'application/AT+JWT' }, claims: { exp: at + 60 } },
      { now: at, types: ['at+jwt'] },
    );
  });
});
