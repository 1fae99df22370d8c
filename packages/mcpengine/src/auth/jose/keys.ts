/**
 * JSON Web Keys (RFC 7517) and the asymmetric JWS algorithms (RFC 7518, RFC 8037) on top of `node:crypto`:
 * importing public keys from JWKs, checking that a key fits an algorithm, thumbprints (RFC 7638).
 *
 * Only asymmetric algorithms exist here: a resource server never shares a secret with the authorization server,
 * so `HS*` and `none` are refused everywhere.
 */
import {
  constants,
  createHash,
  createPrivateKey,
  createPublicKey,
  type JsonWebKey as NodeJsonWebKey,
  type KeyObject,
} from 'node:crypto';
import { base64url, fromBase64url } from '../encoding.js';

export type JwsAlgorithm =
  'RS256' | 'RS384' | 'RS512' | 'PS256' | 'PS384' | 'PS512' | 'ES256' | 'ES384' | 'ES512' | 'EdDSA';

export const JWS_ALGORITHMS: readonly JwsAlgorithm[] = [
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

/** A JWK as JSON: only the members this module reads are typed. */
export interface Jwk {
  kty: string;
  kid?: string;
  alg?: string;
  use?: string;
  key_ops?: string[];
  crv?: string;
  x?: string;
  y?: string;
  n?: string;
  e?: string;
  d?: string;
  [member: string]: unknown;
}

interface AlgorithmSpec {
  readonly kty: 'RSA' | 'EC' | 'OKP';
  /** Digest for `crypto.sign`/`verify`; null for EdDSA (the curve fixes it). */
  readonly hash: string | null;
  readonly pss?: true;
  /** EC: OpenSSL curve name and the byte size of r and s. */
  readonly curve?: { readonly name: string; readonly jwk: string; readonly size: number };
}

const SPECS: Readonly<Record<JwsAlgorithm, AlgorithmSpec>> = {
  RS256: { kty: 'RSA', hash: 'sha256' },
  RS384: { kty: 'RSA', hash: 'sha384' },
  RS512: { kty: 'RSA', hash: 'sha512' },
  PS256: { kty: 'RSA', hash: 'sha256', pss: true },
  PS384: { kty: 'RSA', hash: 'sha384', pss: true },
  PS512: { kty: 'RSA', hash: 'sha512', pss: true },
  ES256: { kty: 'EC', hash: 'sha256', curve: { name: 'prime256v1', jwk: 'P-256', size: 32 } },
  ES384: { kty: 'EC', hash: 'sha384', curve: { name: 'secp384r1', jwk: 'P-384', size: 48 } },
  ES512: { kty: 'EC', hash: 'sha512', curve: { name: 'secp521r1', jwk: 'P-521', size: 66 } },
  EdDSA: { kty: 'OKP', hash: null },
};

/** RSA keys shorter than this are refused (RFC 7518 §3.3 requires 2048 bits). */
const MIN_RSA_BITS = 2048;
/** No member of a JWK may be longer than this (an RSA-16384 modulus is ~2.7 KB). */
const MAX_MEMBER_LENGTH = 4096;

export class KeyError extends Error {
  override name = 'KeyError';
}

export function isJwsAlgorithm(value: unknown): value is JwsAlgorithm {
  return typeof value === 'string' && Object.hasOwn(SPECS, value);
}

/** Why `key` cannot verify or make `alg` signatures; undefined when it can. */
export function keyProblem(key: KeyObject, alg: JwsAlgorithm): string | undefined {
  const spec = SPECS[alg];
  const type = key.asymmetricKeyType;
  const details = key.asymmetricKeyDetails ?? {};
  switch (spec.kty) {
    case 'RSA':
      if (type !== 'rsa' && !(type === 'rsa-pss' && spec.pss)) return `${alg} needs an RSA key, not ${type}`;
      if ((details.modulusLength ?? 0) < MIN_RSA_BITS)
        return `RSA keys must have at least ${MIN_RSA_BITS} bits`;
      return undefined;
    case 'EC':
      if (type !== 'ec') return `${alg} needs an EC key, not ${type}`;
      if (details.namedCurve !== spec.curve!.name) return `${alg} needs curve ${spec.curve!.jwk}`;
      return undefined;
    case 'OKP':
      return type === 'ed25519' || type === 'ed448'
        ? undefined
        : `EdDSA needs an Ed25519 or Ed448 key, not ${type}`;
  }
}

/** Options for `crypto.sign` / `crypto.verify` with `alg`. */
export function signatureOptions(alg: JwsAlgorithm): {
  hash: string | null;
  padding?: number;
  saltLength?: number;
  dsaEncoding?: 'ieee-p1363';
  size?: number;
} {
  const spec = SPECS[alg];
  if (spec.kty === 'EC') return { hash: spec.hash, dsaEncoding: 'ieee-p1363', size: spec.curve!.size };
  if (spec.pss) {
    return {
      hash: spec.hash,
      padding: constants.RSA_PKCS1_PSS_PADDING,
      saltLength: constants.RSA_PSS_SALTLEN_DIGEST,
    };
  }
  if (spec.kty === 'RSA') return { hash: spec.hash, padding: constants.RSA_PKCS1_PADDING };
  return { hash: null };
}

function requireMember(jwk: Jwk, member: string): string {
  const value = jwk[member];
  if (typeof value !== 'string' || value.length === 0 || value.length > MAX_MEMBER_LENGTH) {
    throw new KeyError(`JWK member "${member}" is missing or invalid`);
  }
  if (fromBase64url(value) === undefined) throw new KeyError(`JWK member "${member}" is not base64url`);
  return value;
}

/** The members RFC 7638 hashes, which also are the members a public key needs. */
function publicMembers(jwk: Jwk): Record<string, string> {
  switch (jwk.kty) {
    case 'RSA':
      return { e: requireMember(jwk, 'e'), kty: 'RSA', n: requireMember(jwk, 'n') };
    case 'EC': {
      const crv = jwk.crv;
      if (crv !== 'P-256' && crv !== 'P-384' && crv !== 'P-521') throw new KeyError('Unsupported EC curve');
      return { crv, kty: 'EC', x: requireMember(jwk, 'x'), y: requireMember(jwk, 'y') };
    }
    case 'OKP': {
      const crv = jwk.crv;
      if (crv !== 'Ed25519' && crv !== 'Ed448') throw new KeyError('Unsupported OKP curve');
      return { crv, kty: 'OKP', x: requireMember(jwk, 'x') };
    }
    default:
      throw new KeyError(`Unsupported key type ${JSON.stringify(jwk.kty)}`);
  }
}

/** Imports the public part of a JWK (private members are ignored). */
export function importPublicJwk(jwk: Jwk): KeyObject {
  if (typeof jwk !== 'object' || jwk === null || Array.isArray(jwk))
    throw new KeyError('A JWK must be an object');
  const members = publicMembers(jwk);
  try {
    return createPublicKey({ key: members as NodeJsonWebKey, format: 'jwk' });
  } catch (error) {
    throw new KeyError('The JWK is not a valid public key', { cause: error });
  }
}

/** RFC 7638 thumbprint (SHA-256, base64url). */
export function jwkThumbprint(jwk: Jwk): string {
  const members = publicMembers(jwk);
  const canonical = JSON.stringify(members, Object.keys(members).sort());
  return base64url(createHash('sha256').update(canonical, 'utf8').digest());
}

/** The public JWK of a key, with optional `kid`, `alg` and `use`. */
export function exportPublicJwk(key: KeyObject, extra: { kid?: string; alg?: JwsAlgorithm } = {}): Jwk {
  const publicKey = key.type === 'private' ? createPublicKey(key) : key;
  const jwk = publicKey.export({ format: 'jwk' }) as Jwk;
  const out: Jwk = { ...jwk, use: 'sig' };
  if (extra.kid !== undefined) out.kid = extra.kid;
  if (extra.alg !== undefined) out.alg = extra.alg;
  return out;
}

/** A private signing key from a KeyObject, a PEM string (PKCS#8, SEC1 or PKCS#1) or a private JWK. */
export function importPrivateKey(key: KeyObject | string | Jwk): KeyObject {
  if (
    typeof key === 'object' &&
    'asymmetricKeyType' in key &&
    typeof (key as KeyObject).export === 'function'
  ) {
    const object = key as KeyObject;
    if (object.type !== 'private') throw new KeyError('A signing key must be a private key');
    return object;
  }
  try {
    if (typeof key === 'string') return createPrivateKey({ key, format: 'pem' });
    return createPrivateKey({ key: key as NodeJsonWebKey, format: 'jwk' });
  } catch (error) {
    throw new KeyError('The signing key could not be read', { cause: error });
  }
}

/** The algorithm a key naturally signs with, for keys given without one. */
export function defaultAlgorithm(key: KeyObject): JwsAlgorithm {
  switch (key.asymmetricKeyType) {
    case 'rsa':
      return 'RS256';
    case 'rsa-pss':
      return 'PS256';
    case 'ec': {
      const curve = key.asymmetricKeyDetails?.namedCurve;
      if (curve === 'secp384r1') return 'ES384';
      if (curve === 'secp521r1') return 'ES512';
      return 'ES256';
    }
    case 'ed25519':
    case 'ed448':
      return 'EdDSA';
    default:
      throw new KeyError(`Unsupported key type ${String(key.asymmetricKeyType)}`);
  }
}
