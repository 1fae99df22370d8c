/**
 * The byte and text encodings OAuth uses: base64url without padding (JOSE, PKCE), HTTP Basic credentials
 * (RFC 6749 §2.3.1) and `application/x-www-form-urlencoded` bodies.
 */
import { randomBytes } from 'node:crypto';

const BASE64URL = /^[A-Za-z0-9_-]*$/;

export function base64url(bytes: Uint8Array | string): string {
  return Buffer.from(typeof bytes === 'string' ? Buffer.from(bytes, 'utf8') : bytes).toString('base64url');
}

/**
 * Decodes strict base64url (no padding, no other characters); undefined for anything else. Node's decoder
 * silently skips invalid characters, which would let two different strings name the same bytes.
 */
export function fromBase64url(text: string): Buffer | undefined {
  if (!BASE64URL.test(text) || text.length % 4 === 1) return undefined;
  const bytes = Buffer.from(text, 'base64url');
  // Non-canonical trailing bits: re-encoding must give the input back.
  return bytes.toString('base64url') === text ? bytes : undefined;
}

/** `bytes` random bytes as base64url (32 bytes → 43 characters, 256 bits). */
export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

/** A form body; undefined values are left out. Keys keep their order. */
export function formEncode(fields: Readonly<Record<string, string | undefined>>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(fields)) if (value !== undefined) params.append(key, value);
  return params.toString();
}

/** The `Authorization: Basic` value for client credentials: each part form-encoded first (RFC 6749 §2.3.1). */
export function basicCredentials(clientId: string, clientSecret: string): string {
  const encode = (value: string) => new URLSearchParams({ v: value }).toString().slice(2);
  return `Basic ${Buffer.from(`${encode(clientId)}:${encode(clientSecret)}`, 'utf8').toString('base64')}`;
}

/** Reads `Authorization: Basic` client credentials (form-decoded); undefined when malformed. */
export function parseBasicCredentials(header: string | null): { id: string; secret: string } | undefined {
  const match = header === null ? null : /^Basic ([A-Za-z0-9+/]+={0,2})$/i.exec(header.trim());
  if (!match) return undefined;
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return undefined;
  try {
    const decode = (value: string) => decodeURIComponent(value.replace(/\+/g, ' '));
    return { id: decode(decoded.slice(0, colon)), secret: decode(decoded.slice(colon + 1)) };
  } catch {
    return undefined;
  }
}
