/**
 * A session behind authorization: after a step-up (403 insufficient_scope, new credentials with more scopes) the
 * modern result cache is dropped, so lists show what the new token covers.
 */
import { generateKeyPairSync } from 'node:crypto';
import { WireTap, tapTransport } from '@mcpengine/oracle';
import { describe, expect, it } from 'vitest';
import { signJwt } from '../auth/jose/jwt.js';
import { JwtVerifier } from '../auth/jwt-verifier.js';
import { ProtectedResource } from '../auth/resource-server.js';
import { McpServer } from '../server/server.js';
import { createHttpTransport } from '../transports/http/client-auto.js';
import type { FetchLike, HttpClientAuth, HttpClientAuthEvents } from '../transports/http/client-fetch.js';
import { createMcpHttpHandler } from '../transports/http/server-handler.js';
import { Client } from './client.js';

const ISSUER = 'https://as.example';
const RESOURCE = 'http://localhost/mcp';
const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });

function token(scope: string): string {
  const now = Math.floor(Date.now() / 1000);
  return signJwt(
    { iss: ISSUER, sub: 'alice', aud: RESOURCE, client_id: 'c1', exp: now + 300, iat: now, scope },
    privateKey,
    { alg: 'ES256', typ: 'at+jwt' },
  );
}

/** Stands in for `OAuthClient`: on a 403 it "steps up" to a token with more scopes, once, and says so. */
class SteppingAuth implements HttpClientAuth {
  stepUps = 0;
  #token = token('files:read');

  wrapFetch(inner: FetchLike, _serverUrl: URL, events?: HttpClientAuthEvents): FetchLike {
    return async (url, init) => {
      for (;;) {
        const headers = new Headers(init.headers);
        headers.set('authorization', `Bearer ${this.#token}`);
        const response = await inner(url, { ...init, headers });
        if (response.status !== 403 || this.stepUps > 0) return response;
        this.stepUps++;
        this.#token = token('files:read files:write');
        events?.authorized?.();
      }
    };
  }
}

describe('session and authorization', () => {
  it('drops cached results after a step-up (2026-07-28)', async () => {
    const server = new McpServer({ name: 'protected', version: '1.0.0' });
    server.addTool({
      name: 'read',
      description: 'files:read',
      requiredScopes: ['files:read'],
      handler: () => 'r',
    });
    server.addTool({
      name: 'write',
      description: 'files:write',
      requiredScopes: ['files:write'],
      handler: () => 'written',
    });
    const guard = new ProtectedResource({
      resource: RESOURCE,
      authorizationServers: [ISSUER],
      scopesSupported: ['files:read', 'files:write'],
      verifier: new JwtVerifier({ issuer: ISSUER, audience: RESOURCE, keys: [publicKey] }),
    });
    const handler = createMcpHttpHandler(server, { path: '/mcp', ...guard.httpOptions(server) });
    const auth = new SteppingAuth();
    const tap = new WireTap();
    const session = await new Client({ name: 't', version: '1' }).connect(
      tapTransport(
        createHttpTransport(RESOURCE, {
          fetch: (url, init) => handler(new Request(url, init)),
          auth,
          standaloneStream: false,
          sseFallback: false,
        }),
        tap,
        'client',
      ),
      { revision: '2026-07-28' },
    );
    try {
      expect((await session.listAllTools()).map((t) => t.name)).toEqual(['read']);
      const written = await session.callTool({ name: 'write', arguments: {} });
      expect(written.content).toEqual([{ type: 'text', text: 'written' }]);
      expect(auth.stepUps).toBe(1);
      expect((await session.listAllTools()).map((t) => t.name)).toEqual(['read', 'write']);
    } finally {
      await session.close();
      await handler.close({ drainTimeoutMs: 0 });
    }
    tap.assertClean();
  });
});
