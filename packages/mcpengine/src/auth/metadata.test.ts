import { describe, expect, it } from 'vitest';
import { AuthorizationError } from './errors.js';
import {
  authorizationServerMetadataCandidates,
  protectedResourceMetadataCandidates,
  protectedResourceMetadataUrl,
  resourceCovers,
  validateAuthorizationServerMetadata,
  validateProtectedResourceMetadata,
} from './metadata.js';

const hrefs = (urls: URL[]) => urls.map((u) => u.href);

describe('well-known URLs', () => {
  it('inserts the resource path after the protected resource well-known prefix (RFC 9728 §3.1)', () => {
    expect(protectedResourceMetadataUrl('https://example.com/public/mcp').href).toBe(
      'https://example.com/.well-known/oauth-protected-resource/public/mcp',
    );
    expect(hrefs(protectedResourceMetadataCandidates('https://example.com/public/mcp?x=1'))).toEqual([
      'https://example.com/.well-known/oauth-protected-resource/public/mcp',
      'https://example.com/.well-known/oauth-protected-resource',
    ]);
    expect(hrefs(protectedResourceMetadataCandidates('https://example.com'))).toEqual([
      'https://example.com/.well-known/oauth-protected-resource',
    ]);
  });

  it('tries authorization server metadata in the order of 2025-11-25 and 2026-07-28', () => {
    expect(hrefs(authorizationServerMetadataCandidates('https://auth.example.com/tenant1'))).toEqual([
      'https://auth.example.com/.well-known/oauth-authorization-server/tenant1',
      'https://auth.example.com/.well-known/openid-configuration/tenant1',
      'https://auth.example.com/tenant1/.well-known/openid-configuration',
    ]);
    expect(hrefs(authorizationServerMetadataCandidates('https://auth.example.com'))).toEqual([
      'https://auth.example.com/.well-known/oauth-authorization-server',
      'https://auth.example.com/.well-known/openid-configuration',
    ]);
  });
});

describe('resource coverage (same origin, path prefix at a segment boundary)', () => {
  it.each([
    ['http://localhost:3000', 'http://localhost:3000/mcp', true],
    ['http://localhost:3000/mcp', 'http://localhost:3000/mcp', true],
    ['http://localhost:3000/', 'http://localhost:3000/mcp', true],
    ['HTTP://LOCALHOST:3000/mcp', 'http://localhost:3000/mcp', true],
    ['http://localhost:3000/m', 'http://localhost:3000/mcp', false],
    ['http://localhost:3000/mcp/v2', 'http://localhost:3000/mcp', false],
    ['https://evil.example.com/mcp', 'http://localhost:3000/mcp', false],
    ['http://localhost:3001/mcp', 'http://localhost:3000/mcp', false],
    ['http://localhost:3000/mcp#x', 'http://localhost:3000/mcp', false],
    ['http://user@localhost:3000/mcp', 'http://localhost:3000/mcp', false],
    ['not a url', 'http://localhost:3000/mcp', false],
  ])('%s for %s: %s', (resource, server, expected) => {
    expect(resourceCovers(resource, server)).toBe(expected);
  });
});

describe('metadata validation', () => {
  it('needs resource and at least one authorization server in protected resource metadata', () => {
    expect(() => validateProtectedResourceMetadata({ authorization_servers: ['https://as'] })).toThrow(
      AuthorizationError,
    );
    expect(() =>
      validateProtectedResourceMetadata({ resource: 'https://rs', authorization_servers: [] }),
    ).toThrow(/authorization server/);
    expect(() =>
      validateProtectedResourceMetadata({ resource: 'https://rs', authorization_servers: 'https://as' }),
    ).toThrow();
    expect(() =>
      validateProtectedResourceMetadata({
        resource: 'https://rs',
        authorization_servers: ['https://as'],
        scopes_supported: [1],
      }),
    ).toThrow(/scopes_supported/);
    expect(
      validateProtectedResourceMetadata({ resource: 'https://rs', authorization_servers: ['https://as'] })
        .resource,
    ).toBe('https://rs');
  });

  it('refuses authorization server metadata for another issuer, by simple string comparison', () => {
    const error = (() => {
      try {
        validateAuthorizationServerMetadata({ issuer: 'https://as/' }, 'https://as');
      } catch (e) {
        return e as AuthorizationError;
      }
    })();
    expect(error?.reason).toBe('issuer-mismatch');
    expect(() =>
      validateAuthorizationServerMetadata({ issuer: 'https://as', token_endpoint: 7 }, 'https://as'),
    ).toThrow(/token_endpoint/);
    expect(() =>
      validateAuthorizationServerMetadata(
        { issuer: 'https://as', authorization_response_iss_parameter_supported: 'yes' },
        'https://as',
      ),
    ).toThrow(/boolean/);
    expect(validateAuthorizationServerMetadata({ issuer: 'https://as' }, 'https://as').issuer).toBe(
      'https://as',
    );
  });
});
