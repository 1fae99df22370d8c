import { describe, expect, it } from 'vitest';
import {
  basicCredentials,
  formEncode,
  fromBase64url,
  parseBasicCredentials,
  randomToken,
} from './encoding.js';
import { createPkce, s256, verifyPkce } from './pkce.js';

describe('encodings', () => {
  it('decodes only canonical base64url', () => {
    expect(fromBase64url('aGk')?.toString()).toBe('hi');
    expect(fromBase64url('aGk=')).toBeUndefined();
    expect(fromBase64url('aGl')).toBeUndefined(); // non-zero trailing bits
    expect(fromBase64url('a+b/')).toBeUndefined();
    expect(fromBase64url('a')).toBeUndefined();
  });

  it('form-encodes Basic credentials (RFC 6749 §2.3.1) and reads them back', () => {
    const header = basicCredentials('client:1', 'se cret/+%');
    expect(Buffer.from(header.slice(6), 'base64').toString()).toBe('client%3A1:se+cret%2F%2B%25');
    expect(parseBasicCredentials(header)).toEqual({ id: 'client:1', secret: 'se cret/+%' });
    expect(parseBasicCredentials('Basic !!!')).toBeUndefined();
    expect(parseBasicCredentials(`Basic ${Buffer.from('nocolon').toString('base64')}`)).toBeUndefined();
    expect(parseBasicCredentials('Bearer abc')).toBeUndefined();
  });

  it('leaves undefined form fields out', () => {
    expect(formEncode({ a: '1 2', b: undefined, c: 'x&y' })).toBe('a=1+2&c=x%26y');
    expect(randomToken()).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });
});

describe('PKCE', () => {
  it('matches the RFC 7636 appendix B example', () => {
    expect(s256('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk')).toBe(
      'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
    );
  });

  it('creates S256 pairs and verifies only well-formed matching verifiers', () => {
    const pkce = createPkce();
    expect(pkce.method).toBe('S256');
    expect(verifyPkce(pkce.verifier, pkce.challenge)).toBe(true);
    expect(verifyPkce(createPkce().verifier, pkce.challenge)).toBe(false);
    expect(verifyPkce('short', s256('short'))).toBe(false);
    expect(verifyPkce(undefined, pkce.challenge)).toBe(false);
  });
});
