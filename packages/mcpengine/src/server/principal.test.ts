import { describe, expect, it } from 'vitest';
import { principalOf } from './principal.js';

describe('principalOf', () => {
  it('is empty for an anonymous caller', () => {
    expect(principalOf(undefined)).toBe('');
  });

  it('tells apart the same subject from two issuers', () => {
    const a = principalOf({ subject: 'alice', scopes: [], extra: { iss: 'https://as-one.example' } });
    const b = principalOf({ subject: 'alice', scopes: [], extra: { iss: 'https://as-two.example' } });
    expect(a).not.toBe(b);
  });

  it('cannot be forged by moving a separator between client_id and sub', () => {
    const a = principalOf({ clientId: 'a\0b', subject: 'c', scopes: [] });
    const b = principalOf({ clientId: 'a', subject: 'b\0c', scopes: [] });
    expect(a).not.toBe(b);
    // Nor with the characters of the encoding itself.
    const c = principalOf({ clientId: 'a","b', subject: 'c', scopes: [] });
    const d = principalOf({ clientId: 'a', subject: 'b","c', scopes: [] });
    expect(c).not.toBe(d);
  });

  it('binds a token naming neither client nor subject to the token itself', () => {
    const one = principalOf({ token: 'token-one', scopes: [] });
    const two = principalOf({ token: 'token-two', scopes: [] });
    expect(one).not.toBe(two);
    expect(one).toBe(principalOf({ token: 'token-one', scopes: ['other'] }));
    // The token itself never appears in the principal (it may be logged).
    expect(one).not.toContain('token-one');
  });

  it('is stable for the same identity whatever the token', () => {
    const first = principalOf({
      token: 't1',
      clientId: 'app',
      subject: 'u',
      scopes: [],
      extra: { iss: 'x' },
    });
    const second = principalOf({
      token: 't2',
      clientId: 'app',
      subject: 'u',
      scopes: [],
      extra: { iss: 'x' },
    });
    expect(first).toBe(second);
  });
});
