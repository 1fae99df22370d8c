import { describe, expect, it } from 'vitest';
import {
  authChallengeOf,
  bearerChallengeOf,
  buildBearerChallenge,
  parseWwwAuthenticate,
} from './www-authenticate.js';

describe('WWW-Authenticate parsing', () => {
  it('reads the parameters of a Bearer challenge, quoted or not, names case-insensitively', () => {
    const [challenge] = parseWwwAuthenticate(
      'Bearer error="insufficient_scope", Scope="files:read files:write", resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource", realm=mcp',
    );
    expect(challenge!.scheme).toBe('bearer');
    expect(Object.fromEntries(challenge!.params)).toEqual({
      error: 'insufficient_scope',
      scope: 'files:read files:write',
      resource_metadata: 'https://mcp.example.com/.well-known/oauth-protected-resource',
      realm: 'mcp',
    });
  });

  it('separates several challenges and keeps escapes in quoted strings', () => {
    const challenges = parseWwwAuthenticate(
      'Basic realm="a \\"quoted\\" realm", DPoP algs="ES256 PS256", Bearer resource_metadata="https://x/y", Negotiate dG9rZW4=',
    );
    expect(challenges.map((c) => c.scheme)).toEqual(['basic', 'dpop', 'bearer', 'negotiate']);
    expect(challenges[0]!.params.get('realm')).toBe('a "quoted" realm');
    expect(challenges[1]!.params.get('algs')).toBe('ES256 PS256');
    expect(challenges[3]!.token68).toBe('dG9rZW4=');
    expect(bearerChallengeOf('Basic realm=x, Bearer scope="a b", error=invalid_token')).toEqual({
      scopes: ['a', 'b'],
      error: 'invalid_token',
    });
  });

  it('reads a DPoP challenge when there is no Bearer one', () => {
    expect(authChallengeOf('DPoP error="use_dpop_nonce", resource_metadata="https://rs/prm"')).toEqual({
      scheme: 'dpop',
      error: 'use_dpop_nonce',
      resourceMetadata: 'https://rs/prm',
    });
    expect(authChallengeOf('DPoP algs="ES256", Bearer scope="a"')).toEqual({
      scheme: 'bearer',
      scopes: ['a'],
    });
    expect(authChallengeOf('Basic realm=x')).toBeUndefined();
  });

  it('survives hostile input without throwing', () => {
    for (const header of [
      'Bearer scope="unterminated',
      ', , ,',
      '=',
      'Bearer ==,,==',
      '"',
      'Bearer a=b=c',
      'x'.repeat(10_000),
    ]) {
      expect(() => parseWwwAuthenticate(header)).not.toThrow();
    }
    expect(parseWwwAuthenticate(null)).toEqual([]);
    expect(bearerChallengeOf('Basic realm=x')).toBeUndefined();
  });

  it('builds challenges that parse back, with quotes escaped and control characters removed', () => {
    const header = buildBearerChallenge({
      error: 'invalid_token',
      errorDescription: 'bad "token"\r\nInjected: yes',
      scope: ['a', 'b'],
      resourceMetadata: 'https://rs/.well-known/oauth-protected-resource/mcp',
    });
    expect(header).not.toMatch(/[\r\n]/);
    expect(bearerChallengeOf(header)).toEqual({
      error: 'invalid_token',
      errorDescription: 'bad "token"  Injected: yes',
      scopes: ['a', 'b'],
      resourceMetadata: 'https://rs/.well-known/oauth-protected-resource/mcp',
    });
    expect(buildBearerChallenge({})).toBe('Bearer');
  });
});
