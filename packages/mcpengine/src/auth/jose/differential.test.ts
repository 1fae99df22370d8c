/**
 * Differential corpus: crafted JWS tokens run through our verifier and through `jose` (a widely used,
 * independently written implementation). Both must agree on accept/refuse for every token; a divergence fails
 * unless it is listed below as deliberate, with the reason. Scope: asymmetric JWS only (RS/PS/ES/EdDSA).
 */
import {
  createHmac,
  createPrivateKey,
  generateKeyPairSync,
  sign as cryptoSign,
  constants,
  type KeyObject,
} from 'node:crypto';
import * as jose from 'jose';
import { describe, expect, it } from 'vitest';
import { base64url } from '../encoding.js';
import { exportPublicJwk, type JwsAlgorithm } from './keys.js';
import { signJwt, verifyJwt } from './jwt.js';

type KeyPair = { privateKey: KeyObject; publicKey: KeyObject };

const pairs = {
  p256: generateKeyPairSync('ec', { namedCurve: 'P-256' }),
  p384: generateKeyPairSync('ec', { namedCurve: 'P-384' }),
  p521: generateKeyPairSync('ec', { namedCurve: 'P-521' }),
  rsa: generateKeyPairSync('rsa', { modulusLength: 2048 }),
  rsaSmall: generateKeyPairSync('rsa', { modulusLength: 1024 }),
  ed25519: generateKeyPairSync('ed25519'),
  attacker: generateKeyPairSync('ec', { namedCurve: 'P-256' }),
} satisfies Record<string, KeyPair>;

const now = Math.floor(Date.now() / 1000);
const claims = { iss: 'https://as.example', sub: 'u', aud: 'https://rs.example', exp: now + 600 };

const b64json = (value: unknown) => base64url(JSON.stringify(value));

/** Signs `header.payload` by hand, so that headers and encodings can be anything. */
function rawSign(
  header: Record<string, unknown>,
  payload: unknown,
  key: KeyObject,
  how: 'p1363' | 'der' | 'pss' | 'pkcs1' | 'ed' = 'p1363',
  hash = 'sha256',
): string {
  const input = `${b64json(header)}.${typeof payload === 'string' ? payload : b64json(payload)}`;
  const signature =
    how === 'ed'
      ? cryptoSign(null, Buffer.from(input), key)
      : cryptoSign(hash, Buffer.from(input), {
          key,
          ...(how === 'p1363' && { dsaEncoding: 'ieee-p1363' as const }),
          ...(how === 'pss' && {
            padding: constants.RSA_PKCS1_PSS_PADDING,
            saltLength: constants.RSA_PSS_SALTLEN_DIGEST,
          }),
        });
  return `${input}.${base64url(signature)}`;
}

const valid = (alg: JwsAlgorithm, pair: KeyPair, extra: Record<string, unknown> = {}) =>
  signJwt({ ...claims, ...extra }, pair.privateKey, { alg, typ: 'at+jwt' });

interface Case {
  name: string;
  token: string;
  key: KeyObject;
  /** What both verifiers must conclude. */
  accept: boolean;
  /** A deliberate divergence: what jose concludes instead, and why we differ. */
  joseDiffers?: string;
}

function corpus(): Case[] {
  const { p256, p384, p521, rsa, rsaSmall, ed25519, attacker } = pairs;
  const es256 = valid('ES256', p256);
  const [h, p, s] = es256.split('.') as [string, string, string];
  const pem = p256.publicKey.export({ type: 'spki', format: 'pem' }) as string;
  const hsInput = `${b64json({ alg: 'HS256', typ: 'JWT' })}.${b64json(claims)}`;
  // A character in the middle carries signature bits; the last one of 86 also carries 4 unused bits.
  const flipMiddle = (text: string) => text.slice(0, 20) + (text[20] === 'A' ? 'B' : 'A') + text.slice(21);
  const lastBits = (text: string) => {
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const index = alphabet.indexOf(text.at(-1)!);
    return text.slice(0, -1) + alphabet[index ^ 1]!; // flips one of the unused low bits only
  };
  return [
    // Every supported algorithm, well formed.
    { name: 'ES256', token: es256, key: p256.publicKey, accept: true },
    { name: 'ES384', token: valid('ES384', p384), key: p384.publicKey, accept: true },
    { name: 'ES512', token: valid('ES512', p521), key: p521.publicKey, accept: true },
    { name: 'RS256', token: valid('RS256', rsa), key: rsa.publicKey, accept: true },
    { name: 'RS384', token: valid('RS384', rsa), key: rsa.publicKey, accept: true },
    { name: 'RS512', token: valid('RS512', rsa), key: rsa.publicKey, accept: true },
    { name: 'PS256', token: valid('PS256', rsa), key: rsa.publicKey, accept: true },
    { name: 'PS384', token: valid('PS384', rsa), key: rsa.publicKey, accept: true },
    { name: 'PS512', token: valid('PS512', rsa), key: rsa.publicKey, accept: true },
    { name: 'EdDSA', token: valid('EdDSA', ed25519), key: ed25519.publicKey, accept: true },
    // Algorithm confusion.
    {
      name: 'alg none, no signature',
      token: `${b64json({ alg: 'none' })}.${p}.`,
      key: p256.publicKey,
      accept: false,
    },
    { name: 'alg NONE', token: `${b64json({ alg: 'NONE' })}.${p}.`, key: p256.publicKey, accept: false },
    {
      name: 'HS256 keyed with the public key PEM',
      token: `${hsInput}.${base64url(createHmac('sha256', pem).update(hsInput).digest())}`,
      key: p256.publicKey,
      accept: false,
    },
    {
      name: 'ES256 header, RSA key',
      token: rawSign({ alg: 'ES256' }, claims, rsa.privateKey, 'pkcs1'),
      key: rsa.publicKey,
      accept: false,
    },
    {
      name: 'RS256 header on a PSS signature',
      token: rawSign({ alg: 'RS256' }, claims, rsa.privateKey, 'pss'),
      key: rsa.publicKey,
      accept: false,
    },
    {
      name: 'ES384 header, P-256 key',
      token: rawSign({ alg: 'ES384' }, claims, p256.privateKey, 'p1363', 'sha384'),
      key: p256.publicKey,
      accept: false,
    },
    { name: 'ES256 token, Ed25519 key', token: es256, key: ed25519.publicKey, accept: false },
    { name: 'RS256 token, EC key', token: valid('RS256', rsa), key: p256.publicKey, accept: false },
    {
      name: 'unknown alg',
      token: rawSign({ alg: 'ES256K' }, claims, p256.privateKey),
      key: p256.publicKey,
      accept: false,
    },
    {
      name: 'RSA key of 1024 bits',
      token: rawSign({ alg: 'RS256' }, claims, rsaSmall.privateKey, 'pkcs1'),
      key: rsaSmall.publicKey,
      accept: false,
    },
    // Signatures.
    {
      name: 'DER-encoded ECDSA signature',
      token: rawSign({ alg: 'ES256' }, claims, p256.privateKey, 'der'),
      key: p256.publicKey,
      accept: false,
    },
    {
      name: 'tampered payload',
      token: `${h}.${b64json({ ...claims, sub: 'admin' })}.${s}`,
      key: p256.publicKey,
      accept: false,
    },
    { name: 'tampered signature', token: `${h}.${p}.${flipMiddle(s)}`, key: p256.publicKey, accept: false },
    {
      name: 'signature with non-canonical trailing bits',
      token: `${h}.${p}.${lastBits(s)}`,
      key: p256.publicKey,
      accept: false,
      joseDiffers:
        'strict base64url: a second spelling of the same signature bytes is refused (jose ignores the unused bits)',
    },
    { name: 'empty signature', token: `${h}.${p}.`, key: p256.publicKey, accept: false },
    { name: 'truncated signature', token: `${h}.${p}.${s.slice(0, 40)}`, key: p256.publicKey, accept: false },
    { name: 'signed by another key', token: valid('ES256', attacker), key: p256.publicKey, accept: false },
    // Structure and encoding.
    { name: 'four segments', token: `${es256}.${s}`, key: p256.publicKey, accept: false },
    { name: 'two segments', token: `${h}.${p}`, key: p256.publicKey, accept: false },
    {
      name: 'padded base64url signature',
      token: `${es256}==`,
      key: p256.publicKey,
      accept: false,
      joseDiffers: 'RFC 7515 §2 base64url has no padding; jose tolerates "=" at the end',
    },
    {
      name: 'standard base64 characters',
      token: `${h}.${p}.${s.replace(/-/g, '+').replace(/_/g, '/')}`,
      key: p256.publicKey,
      accept: s === s.replace(/[-_]/g, ''),
    },
    { name: 'whitespace inside', token: `${h}.${p} .${s}`, key: p256.publicKey, accept: false },
    {
      name: 'header not JSON',
      token: `${base64url('{alg:ES256}')}.${p}.${s}`,
      key: p256.publicKey,
      accept: false,
    },
    {
      name: 'header a JSON array',
      token: rawSign([] as unknown as Record<string, unknown>, claims, p256.privateKey),
      key: p256.publicKey,
      accept: false,
    },
    {
      name: 'payload a JSON string',
      token: rawSign({ alg: 'ES256' }, b64json('hello'), p256.privateKey),
      key: p256.publicKey,
      accept: false,
    },
    // Critical headers and unencoded payloads.
    {
      name: 'crit with an unknown extension',
      token: rawSign({ alg: 'ES256', crit: ['exp'], exp: 1 }, claims, p256.privateKey),
      key: p256.publicKey,
      accept: false,
    },
    {
      name: 'b64 false (RFC 7797)',
      token: rawSign({ alg: 'ES256', b64: false, crit: ['b64'] }, claims, p256.privateKey),
      key: p256.publicKey,
      accept: false,
    },
    {
      name: 'empty crit',
      token: rawSign({ alg: 'ES256', crit: [] }, claims, p256.privateKey),
      key: p256.publicKey,
      accept: false,
    },
    // Time claims (30 s tolerance on both sides).
    { name: 'expired', token: valid('ES256', p256, { exp: now - 120 }), key: p256.publicKey, accept: false },
    {
      name: 'expired within the tolerance',
      token: valid('ES256', p256, { exp: now - 5 }),
      key: p256.publicKey,
      accept: true,
    },
    {
      name: 'nbf in the future',
      token: valid('ES256', p256, { nbf: now + 120 }),
      key: p256.publicKey,
      accept: false,
    },
    {
      name: 'nbf within the tolerance',
      token: valid('ES256', p256, { nbf: now + 5 }),
      key: p256.publicKey,
      accept: true,
    },
    {
      name: 'exp as a string',
      token: valid('ES256', p256, { exp: String(now + 600) }),
      key: p256.publicKey,
      accept: false,
    },
    {
      name: 'nbf as a string',
      token: valid('ES256', p256, { nbf: String(now - 600) }),
      key: p256.publicKey,
      accept: false,
    },
    {
      name: 'iat in the future',
      token: valid('ES256', p256, { iat: now + 3600 }),
      key: p256.publicKey,
      accept: false,
      joseDiffers: 'jose checks iat only with maxTokenAge; a token issued in the future is refused here',
    },
    {
      name: 'no exp',
      token: signJwt({ iss: 'https://as.example' }, p256.privateKey, { alg: 'ES256' }),
      key: p256.publicKey,
      accept: false,
      joseDiffers: 'access tokens must expire: we require exp by default, jose only with requiredClaims',
    },
    // Key-selection tricks: with a fixed key, header hints never choose the key.
    {
      name: 'embedded jwk of the attacker',
      token: rawSign({ alg: 'ES256', jwk: exportPublicJwk(attacker.publicKey) }, claims, attacker.privateKey),
      key: p256.publicKey,
      accept: false,
    },
    {
      name: 'jku to the attacker',
      token: rawSign({ alg: 'ES256', jku: 'https://evil.example/jwks' }, claims, attacker.privateKey),
      key: p256.publicKey,
      accept: false,
    },
    {
      name: 'kid path traversal, right key',
      token: rawSign({ alg: 'ES256', kid: '../../dev/null' }, claims, p256.privateKey),
      key: p256.publicKey,
      accept: true,
    },
    {
      name: 'kid of another type',
      token: rawSign({ alg: 'ES256', kid: 42 }, claims, p256.privateKey),
      key: p256.publicKey,
      accept: true,
    },
  ];
}

async function oursAccepts(token: string, key: KeyObject): Promise<boolean> {
  try {
    await verifyJwt(token, { keys: () => [key], clockSkewSec: 30 });
    return true;
  } catch {
    return false;
  }
}

async function joseAccepts(token: string, key: KeyObject): Promise<boolean> {
  try {
    await jose.jwtVerify(token, key, { clockTolerance: 30 });
    return true;
  } catch {
    return false;
  }
}

describe('JOSE differential corpus (ours vs jose)', () => {
  it('has a private key usable by both (sanity of the harness)', () => {
    expect(createPrivateKey(pairs.p256.privateKey.export({ type: 'pkcs8', format: 'pem' })).type).toBe(
      'private',
    );
  });

  for (const testCase of corpus()) {
    it(`${testCase.accept ? 'accepts' : 'refuses'}: ${testCase.name}`, async () => {
      const ours = await oursAccepts(testCase.token, testCase.key);
      const theirs = await joseAccepts(testCase.token, testCase.key);
      expect(ours, 'our verifier').toBe(testCase.accept);
      // Any divergence from jose must be listed, with its reason.
      expect(theirs, `jose (deliberate divergence: ${testCase.joseDiffers ?? 'none listed'})`).toBe(
        testCase.joseDiffers === undefined ? ours : !ours,
      );
    });
  }
});
