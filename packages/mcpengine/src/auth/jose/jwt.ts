/**
 * JSON Web Tokens in compact JWS form (RFC 7515, RFC 7519): signing, strict decoding, signature verification
 * and claim validation, with `node:crypto` only.
 *
 * Decoding is strict on purpose: three base64url parts, canonical encodings, JSON objects, bounded size, an
 * asymmetric `alg` from the caller's allow-list, no `crit` extensions. Claims: `exp` is required unless the caller
 * says otherwise, `nbf`/`iat` are honoured with a small clock skew, `iss` is compared exactly, `aud` must
 * contain one of the expected audiences.
 */
import { sign as cryptoSign, verify as cryptoVerify, randomUUID, type KeyObject } from 'node:crypto';
import { base64url, fromBase64url } from '../encoding.js';
import { isJwsAlgorithm, keyProblem, signatureOptions, type Jwk, type JwsAlgorithm } from './keys.js';

export interface JwtHeader {
  alg: string;
  typ?: string;
  kid?: string;
  jwk?: Jwk;
  crit?: unknown;
  [member: string]: unknown;
}

export interface JwtClaims {
  iss?: string;
  sub?: string;
  aud?: string | string[];
  exp?: number;
  nbf?: number;
  iat?: number;
  jti?: string;
  scope?: string;
  client_id?: string;
  [claim: string]: unknown;
}

export type JwtErrorCode =
  | 'malformed'
  | 'algorithm'
  | 'signature'
  | 'expired'
  | 'not-yet-valid'
  | 'issuer'
  | 'audience'
  | 'type'
  | 'claims'
  | 'key';

export class JwtError extends Error {
  override name = 'JwtError';
  constructor(
    readonly code: JwtErrorCode,
    message: string,
  ) {
    super(message);
  }
}

export interface DecodedJwt {
  readonly header: JwtHeader;
  readonly claims: JwtClaims;
  /** `base64url(header).base64url(payload)`: the bytes the signature covers. */
  readonly signingInput: string;
  readonly signature: Buffer;
}

/** Longest token accepted (bytes of the compact form). */
export const MAX_JWT_LENGTH = 16 * 1024;

function parseObject(part: string, what: string): Record<string, unknown> {
  const bytes = fromBase64url(part);
  if (bytes === undefined) throw new JwtError('malformed', `The JWT ${what} is not base64url`);
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch {
    throw new JwtError('malformed', `The JWT ${what} is not JSON`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new JwtError('malformed', `The JWT ${what} is not a JSON object`);
  }
  return value as Record<string, unknown>;
}

/** Splits and parses a compact JWS without verifying anything but its form. */
export function decodeJwt(token: string, maxLength = MAX_JWT_LENGTH): DecodedJwt {
  if (typeof token !== 'string' || token.length === 0 || token.length > maxLength) {
    throw new JwtError('malformed', 'The JWT is empty or too long');
  }
  const parts = token.split('.');
  if (parts.length !== 3) throw new JwtError('malformed', 'A JWT has three parts');
  const [headerPart, payloadPart, signaturePart] = parts as [string, string, string];
  const header = parseObject(headerPart, 'header') as JwtHeader;
  if (typeof header.alg !== 'string') throw new JwtError('malformed', 'The JWT header has no "alg"');
  if (header.crit !== undefined) throw new JwtError('malformed', 'The JWT uses critical header extensions');
  const claims = parseObject(payloadPart, 'payload') as JwtClaims;
  const signature = fromBase64url(signaturePart);
  if (signature === undefined || signature.length === 0)
    throw new JwtError('malformed', 'The JWT signature is invalid');
  return { header, claims, signingInput: `${headerPart}.${payloadPart}`, signature };
}

/** Checks the signature of a decoded JWT with one key. */
export function verifySignature(decoded: DecodedJwt, key: KeyObject, alg: JwsAlgorithm): boolean {
  if (keyProblem(key, alg) !== undefined) return false;
  const options = signatureOptions(alg);
  if (options.size !== undefined && decoded.signature.length !== options.size * 2) return false;
  try {
    return cryptoVerify(
      options.hash,
      Buffer.from(decoded.signingInput, 'ascii'),
      { key, padding: options.padding, saltLength: options.saltLength, dsaEncoding: options.dsaEncoding },
      decoded.signature,
    );
  } catch {
    return false;
  }
}

export interface SignJwtOptions {
  alg: JwsAlgorithm;
  kid?: string;
  typ?: string;
  /** More header members (`jwk` for DPoP proofs...). */
  header?: Record<string, unknown>;
}

/** Signs `claims` as a compact JWS. */
export function signJwt(claims: JwtClaims, key: KeyObject, options: SignJwtOptions): string {
  const problem = keyProblem(key, options.alg);
  if (problem !== undefined) throw new JwtError('key', problem);
  if (key.type !== 'private') throw new JwtError('key', 'Signing needs a private key');
  const header: Record<string, unknown> = { ...options.header, alg: options.alg };
  if (options.typ !== undefined) header.typ = options.typ;
  if (options.kid !== undefined) header.kid = options.kid;
  const signingInput = `${base64url(JSON.stringify(header))}.${base64url(JSON.stringify(claims))}`;
  const sigOptions = signatureOptions(options.alg);
  const signature = cryptoSign(sigOptions.hash, Buffer.from(signingInput, 'ascii'), {
    key,
    padding: sigOptions.padding,
    saltLength: sigOptions.saltLength,
    dsaEncoding: sigOptions.dsaEncoding,
  });
  return `${signingInput}.${base64url(signature)}`;
}

export interface ClaimValidation {
  /** Accepted `iss` values (exact string comparison). Omit to skip the check. */
  issuer?: string | readonly string[];
  /** At least one must be in `aud`. Omit to skip the check (never do that for access tokens). */
  audience?: string | readonly string[];
  /** Tolerance for `exp`, `nbf` and `iat`, in seconds. Default 30. */
  clockSkewSec?: number;
  /** Refuse tokens without `exp`. Default true. */
  requireExpiry?: boolean;
  /** Accepted `typ` header values (case-insensitive, `application/` prefix optional). Omit to accept any. */
  types?: readonly string[];
  /** Seconds since the epoch; default now. */
  now?: number;
  /** How audiences compare; default exact string equality. */
  audienceMatches?: (claimed: string, expected: string) => boolean;
}

function normalizeType(type: string): string {
  const lower = type.toLowerCase();
  return lower.startsWith('application/') ? lower.slice('application/'.length) : lower;
}

/** Validates the registered claims (and `typ`) of a JWT whose signature was checked. */
export function validateClaims(
  decoded: Pick<DecodedJwt, 'header' | 'claims'>,
  options: ClaimValidation,
): void {
  const { claims, header } = decoded;
  const now = options.now ?? Math.floor(Date.now() / 1000);
  const skew = options.clockSkewSec ?? 30;
  if (options.types !== undefined) {
    const typ = typeof header.typ === 'string' ? normalizeType(header.typ) : undefined;
    if (typ === undefined || !options.types.map(normalizeType).includes(typ)) {
      throw new JwtError('type', 'The JWT has an unexpected "typ"');
    }
  }
  for (const name of ['exp', 'nbf', 'iat'] as const) {
    const value = claims[name];
    if (value !== undefined && (typeof value !== 'number' || !Number.isFinite(value))) {
      throw new JwtError('claims', `The JWT "${name}" claim is not a number`);
    }
  }
  if (claims.exp === undefined) {
    if (options.requireExpiry !== false) throw new JwtError('claims', 'The JWT has no "exp" claim');
  } else if (now - skew >= claims.exp) {
    throw new JwtError('expired', 'The JWT has expired');
  }
  if (claims.nbf !== undefined && now + skew < claims.nbf) {
    throw new JwtError('not-yet-valid', 'The JWT is not valid yet');
  }
  if (claims.iat !== undefined && now + skew < claims.iat) {
    throw new JwtError('not-yet-valid', 'The JWT was issued in the future');
  }
  if (options.issuer !== undefined) {
    const accepted = typeof options.issuer === 'string' ? [options.issuer] : options.issuer;
    if (typeof claims.iss !== 'string' || !accepted.includes(claims.iss)) {
      throw new JwtError('issuer', 'The JWT was issued by an unexpected issuer');
    }
  }
  if (options.audience !== undefined) {
    const expected = typeof options.audience === 'string' ? [options.audience] : options.audience;
    const aud = claims.aud;
    const claimed = typeof aud === 'string' ? [aud] : Array.isArray(aud) ? aud : [];
    const matches = options.audienceMatches ?? ((a: string, b: string) => a === b);
    const ok = claimed.some((value) => typeof value === 'string' && expected.some((e) => matches(value, e)));
    if (!ok) throw new JwtError('audience', 'The JWT was not issued for this audience');
  }
}

export interface VerifyJwtOptions extends ClaimValidation {
  /** Accepted algorithms; default every asymmetric one. */
  algorithms?: readonly JwsAlgorithm[];
  /** The candidate keys for this header (by `kid`, say). Tried in order. */
  keys(header: JwtHeader): KeyObject[] | Promise<KeyObject[]>;
  maxLength?: number;
}

/** Decodes, verifies the signature and validates the claims; returns the decoded token. */
export async function verifyJwt(token: string, options: VerifyJwtOptions): Promise<DecodedJwt> {
  const decoded = decodeJwt(token, options.maxLength);
  const alg = decoded.header.alg;
  const allowed =
    options.algorithms ??
    (['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA'] as const);
  if (!isJwsAlgorithm(alg) || !allowed.includes(alg)) {
    throw new JwtError('algorithm', 'The JWT is signed with an algorithm that is not accepted');
  }
  const keys = await options.keys(decoded.header);
  if (keys.length === 0) throw new JwtError('key', 'No key is known for this JWT');
  if (!keys.some((key) => verifySignature(decoded, key, alg))) {
    throw new JwtError('signature', 'The JWT signature does not verify');
  }
  validateClaims(decoded, options);
  return decoded;
}

/** A fresh `jti`. */
export function newJwtId(): string {
  return randomUUID();
}
