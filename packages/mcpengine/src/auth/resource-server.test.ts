/**
 * The resource server: Protected Resource Metadata, bearer authentication, 401/403 challenges, per-item scopes
 * in both eras, and the audience binding of tokens — through the real HTTP handler, with our client where MCP
 * traffic is involved (every message validated by the WireTap).
 */
import { generateKeyPairSync } from 'node:crypto';
import { WireTap, tapTransport } from '@mcpengine/oracle';
import { afterEach, describe, expect, it } from 'vitest';
import { Client } from '../client/client.js';
import type { ClientSession } from '../client/session.js';
import { RemoteError } from '../protocol/errors.js';
import { McpServer } from '../server/server.js';
import { HttpError } from '../transports/http/client-errors.js';
import { createHttpTransport } from '../transports/http/client-auto.js';
import { createMcpHttpHandler } from '../transports/http/server-handler.js';
import { signJwt, type JwtClaims } from './jose/jwt.js';
import { JwtVerifier } from './jwt-verifier.js';
import { ProtectedResource, type ProtectedResourceOptions } from './resource-server.js';
import { InvalidTokenError, sameResource } from './verifier.js';
import { bearerChallengeOf } from './www-authenticate.js';

const ISSUER = 'https://as.example';
const RESOURCE = 'http://localhost/mcp';
const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });

function token(claims: JwtClaims = {}, key = privateKey): string {
  const now = Math.floor(Date.now() / 1000);
  return signJwt(
    { iss: ISSUER, sub: 'alice', aud: RESOURCE, client_id: 'c1', exp: now + 300, iat: now, ...claims },
    key,
    { alg: 'ES256', typ: 'at+jwt' },
  );
}

function createServer(): McpServer {
  const server = new McpServer({ name: 'protected', version: '1.0.0' });
  server.addTool({
    name: 'open',
    description: 'no scope',
    handler: (_a, ctx) => `hello ${ctx.auth?.subject ?? 'anonymous'}`,
  });
  server.addTool({
    name: 'read',
    description: 'files:read',
    requiredScopes: ['files:read'],
    handler: () => 'read ok',
  });
  server.addTool({
    name: 'write',
    description: 'files:write',
    requiredScopes: ['files:write'],
    handler: () => 'write ok',
  });
  server.addResource({
    uri: 'file:///secret',
    name: 'secret',
    requiredScopes: ['files:read'],
    read: () => 'secret',
  });
  server.addResourceTemplate({
    uriTemplate: 'file:///docs/{name}',
    name: 'docs',
    requiredScopes: ['files:read'],
    read: (_uri, vars) => `doc ${String(vars.name)}`,
  });
  server.addPrompt({
    name: 'review',
    requiredScopes: ['files:read'],
    get: () => ({ messages: [{ role: 'user', content: { type: 'text', text: 'review' } }] }),
  });
  return server;
}

function setup(options: Partial<ProtectedResourceOptions> = {}) {
  const server = createServer();
  const guard = new ProtectedResource({
    resource: RESOURCE,
    authorizationServers: [ISSUER],
    scopesSupported: ['files:read'],
    verifier: new JwtVerifier({ issuer: ISSUER, audience: RESOURCE, keys: [publicKey] }),
    ...options,
  });
  const handler = createMcpHttpHandler(server, { path: '/mcp', ...guard.httpOptions(server) });
  return { server, guard, handler };
}

const clients: ClientSession[] = [];
const taps: WireTap[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  for (const tap of taps.splice(0)) tap.assertClean();
});

async function connect(
  handler: (r: Request) => Promise<Response>,
  bearer: string | undefined,
  revision: '2025-11-25' | '2026-07-28',
) {
  const transport = createHttpTransport(RESOURCE, {
    fetch: (url, init) => handler(new Request(url, init)),
    ...(bearer !== undefined && { headers: { authorization: `Bearer ${bearer}` } }),
    standaloneStream: false,
    sseFallback: false,
  });
  const tap = new WireTap();
  taps.push(tap);
  const client = await new Client({ name: 't', version: '1' }).connect(
    tapTransport(transport, tap, 'client'),
    { revision },
  );
  clients.push(client);
  return client;
}

const post = (body: unknown, headers: Record<string, string> = {}, url = RESOURCE) =>
  new Request(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...headers,
    },
    body: JSON.stringify(body),
  });
const ping = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
};

describe('Protected Resource Metadata (RFC 9728)', () => {
  it('is served at the path-based and the root well-known URLs, publicly', async () => {
    const { handler } = setup({ metadata: { resource_name: 'Files' } });
    for (const path of [
      '/.well-known/oauth-protected-resource/mcp',
      '/.well-known/oauth-protected-resource',
    ]) {
      const response = await handler(
        new Request(`http://localhost${path}`, { headers: { origin: 'https://elsewhere.example' } }),
      );
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('application/json');
      expect(response.headers.get('access-control-allow-origin')).toBe('*');
      expect(await response.json()).toEqual({
        resource_name: 'Files',
        resource: RESOURCE,
        authorization_servers: [ISSUER],
        bearer_methods_supported: ['header'],
        scopes_supported: ['files:read'],
      });
    }
    expect(
      (
        await handler(
          new Request('http://localhost/.well-known/oauth-protected-resource', { method: 'OPTIONS' }),
        )
      ).status,
    ).toBe(204);
    expect(
      (
        await handler(
          new Request('http://localhost/.well-known/oauth-protected-resource', { method: 'POST' }),
        )
      ).status,
    ).toBe(405);
    expect(
      (await handler(new Request('http://localhost/.well-known/oauth-protected-resource/other'))).status,
    ).toBe(404);
  });

  it('serves the root document alone for a server at the root', async () => {
    const guard = new ProtectedResource({
      resource: 'http://localhost',
      authorizationServers: [ISSUER],
      verifier: { verify: async () => ({ scopes: [] }) },
    });
    expect(guard.metadataUrl).toBe('http://localhost/.well-known/oauth-protected-resource');
    expect(
      guard.metadataResponse(new Request('http://localhost/.well-known/oauth-protected-resource'))?.status,
    ).toBe(200);
    expect(
      () =>
        new ProtectedResource({
          resource: 'http://localhost/#x',
          authorizationServers: [ISSUER],
          verifier: { verify: async () => ({ scopes: [] }) },
        }),
    ).toThrow();
    expect(
      () =>
        new ProtectedResource({
          resource: RESOURCE,
          authorizationServers: [],
          verifier: { verify: async () => ({ scopes: [] }) },
        }),
    ).toThrow();
  });
});

describe('bearer authentication', () => {
  it('answers a request without a token 401, naming the metadata and the scopes', async () => {
    const { handler } = setup();
    const response = await handler(post(ping));
    expect(response.status).toBe(401);
    expect(bearerChallengeOf(response.headers.get('www-authenticate'))).toEqual({
      resourceMetadata: 'http://localhost/.well-known/oauth-protected-resource/mcp',
      scopes: ['files:read'],
    });
  });

  it('refuses tokens in the query string, malformed headers, and other schemes', async () => {
    const { handler } = setup();
    const good = token();
    const query = await handler(
      post(ping, { authorization: `Bearer ${good}` }, `${RESOURCE}?access_token=${good}`),
    );
    expect(query.status).toBe(400);
    expect(await query.text()).not.toContain(good);
    expect((await handler(post(ping, { authorization: 'Bearer a b' }))).status).toBe(400);
    expect((await handler(post(ping, { authorization: `Bearer ${good}, Bearer ${good}` }))).status).toBe(400);
    const basic = await handler(post(ping, { authorization: 'Basic dXNlcjpwYXNz' }));
    expect(basic.status).toBe(401);
    expect(bearerChallengeOf(basic.headers.get('www-authenticate'))?.error).toBeUndefined();
  });

  it.each([
    ['expired', { exp: Math.floor(Date.now() / 1000) - 120 }, 'The access token has expired'],
    [
      'for another resource',
      { aud: 'http://localhost/other' },
      'The access token was not issued for this resource',
    ],
    [
      'for the resource with a trailing slash',
      { aud: `${RESOURCE}/` },
      'The access token was not issued for this resource',
    ],
    ['without audience', { aud: undefined }, 'The access token was not issued for this resource'],
    [
      'from another issuer',
      { iss: 'https://evil.example' },
      'The access token was not issued by an accepted authorization server',
    ],
    ['not yet valid', { nbf: Math.floor(Date.now() / 1000) + 600 }, 'The access token is not valid yet'],
  ])('answers a token %s 401 invalid_token, without echoing it', async (_what, claims, description) => {
    const { handler } = setup();
    const bad = token(claims as JwtClaims);
    const response = await handler(post(ping, { authorization: `Bearer ${bad}` }));
    expect(response.status).toBe(401);
    const challenge = bearerChallengeOf(response.headers.get('www-authenticate'));
    expect(challenge?.error).toBe('invalid_token');
    expect(challenge?.errorDescription).toBe(description);
    expect(await response.text()).not.toContain(bad);
  });

  it('refuses a token signed by another key', async () => {
    const { handler } = setup();
    const forged = token({}, generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey);
    expect((await handler(post(ping, { authorization: `Bearer ${forged}` }))).status).toBe(401);
  });

  it('accepts the audience with an upper-case scheme and host (canonical URI guidance)', () => {
    expect(sameResource('HTTPS://MCP.Example.com/mcp', 'https://mcp.example.com/mcp')).toBe(true);
    expect(sameResource('https://mcp.example.com/MCP', 'https://mcp.example.com/mcp')).toBe(false);
    expect(sameResource('https://mcp.example.com', 'https://mcp.example.com/')).toBe(false);
  });

  it('answers 503 when the token cannot be checked, and 403 without the scopes every request needs', async () => {
    const failing = setup({ verifier: { verify: () => Promise.reject(new Error('introspection down')) } });
    const down = await failing.handler(post(ping, { authorization: 'Bearer abc' }));
    expect(down.status).toBe(503);
    expect(down.headers.get('retry-after')).toBe('5');
    const strict = setup({ requiredScopes: ['mcp'] });
    const refused = await strict.handler(
      post(ping, { authorization: `Bearer ${token({ scope: 'files:read' })}` }),
    );
    expect(refused.status).toBe(403);
    expect(bearerChallengeOf(refused.headers.get('www-authenticate'))).toMatchObject({
      error: 'insufficient_scope',
      scopes: ['mcp'],
    });
    const invalid = setup({ verifier: { verify: () => Promise.reject(new InvalidTokenError('revoked')) } });
    expect((await invalid.handler(post(ping, { authorization: 'Bearer abc' }))).status).toBe(401);
  });
});

for (const revision of ['2025-11-25', '2026-07-28'] as const) {
  describe(`per-item scopes (${revision})`, () => {
    it('lists only what the token covers, and answers a call beyond it 403 insufficient_scope', async () => {
      const { handler } = setup();
      const reader = await connect(handler, token({ scope: 'files:read' }), revision);
      expect((await reader.listAllTools()).map((t) => t.name)).toEqual(['open', 'read']);
      expect((await reader.callTool({ name: 'read', arguments: {} })).content).toEqual([
        { type: 'text', text: 'read ok' },
      ]);
      expect((await reader.callTool({ name: 'open', arguments: {} })).content).toEqual([
        { type: 'text', text: 'hello alice' },
      ]);
      const refused = await reader.callTool({ name: 'write', arguments: {} }).then(
        () => undefined,
        (e: unknown) => e,
      );
      const http = findCause(refused, HttpError);
      expect(http?.status).toBe(403);

      const raw = await handler(
        post(
          { jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'write', arguments: {} } },
          { authorization: `Bearer ${token({ scope: 'files:read offline_access' })}` },
        ),
      );
      expect(raw.status).toBe(403);
      // The granted scope comes along (not offline_access), so that a replacing client keeps it.
      expect(bearerChallengeOf(raw.headers.get('www-authenticate'))).toEqual({
        error: 'insufficient_scope',
        errorDescription: 'The access token lacks a scope this request needs',
        scopes: ['files:read', 'files:write'],
        resourceMetadata: 'http://localhost/.well-known/oauth-protected-resource/mcp',
      });

      const writer = await connect(handler, token({ scope: 'files:read files:write' }), revision);
      expect((await writer.listAllTools()).map((t) => t.name)).toEqual(['open', 'read', 'write']);
      expect((await writer.callTool({ name: 'write', arguments: {} })).content).toEqual([
        { type: 'text', text: 'write ok' },
      ]);
    });

    it('hides and guards resources, templates and prompts the same way', async () => {
      const { handler } = setup();
      const nobody = await connect(handler, token({ scope: '' }), revision);
      expect((await nobody.listResources()).resources).toEqual([]);
      expect((await nobody.listResourceTemplates()).resourceTemplates).toEqual([]);
      expect((await nobody.listPrompts()).prompts).toEqual([]);
      for (const attempt of [
        () => nobody.readResource({ uri: 'file:///secret' }),
        () => nobody.readResource({ uri: 'file:///docs/a' }),
        () => nobody.getPrompt({ name: 'review' }),
      ]) {
        const error = await attempt().then(
          () => undefined,
          (e: unknown) => e,
        );
        expect(findCause(error, HttpError)?.status).toBe(403);
      }
      const reader = await connect(handler, token({ scope: 'files:read' }), revision);
      expect((await reader.readResource({ uri: 'file:///docs/a' })).contents[0]).toMatchObject({
        text: 'doc a',
      });
      expect((await reader.getPrompt({ name: 'review' })).messages).toHaveLength(1);
    });
  });
}

describe('options', () => {
  it('lets anonymous callers in when allowed: scoped items hidden, calling one is 401 with its scopes', async () => {
    const { handler } = setup({ allowAnonymous: true });
    const anonymous = await connect(handler, undefined, '2025-11-25');
    expect((await anonymous.listAllTools()).map((t) => t.name)).toEqual(['open']);
    expect((await anonymous.callTool({ name: 'open', arguments: {} })).content).toEqual([
      { type: 'text', text: 'hello anonymous' },
    ]);
    const raw = await handler(
      post(
        { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'read', arguments: {} } },
        {
          'mcp-protocol-version': '2026-07-28',
        },
      ),
    );
    expect(raw.status).toBe(401);
    expect(bearerChallengeOf(raw.headers.get('www-authenticate'))?.scopes).toEqual(['files:read']);
  });

  it('applies scope hierarchies to everything (impliedScopes)', async () => {
    const { handler } = setup({ impliedScopes: { 'files:write': ['files:read'] } });
    const writer = await connect(handler, token({ scope: 'files:write' }), '2026-07-28');
    expect((await writer.listAllTools()).map((t) => t.name)).toEqual(['open', 'read', 'write']);
  });

  it('hides scoped items from callers without any authentication (stdio-like)', async () => {
    const server = createServer();
    const handler = createMcpHttpHandler(server, { path: '/mcp' });
    const client = await connect(handler, undefined, '2026-07-28');
    expect((await client.listAllTools()).map((t) => t.name)).toEqual(['open']);
    const error = await client.callTool({ name: 'read', arguments: {} }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(RemoteError);
  });

  it('refuses malformed requiredScopes at registration', () => {
    const server = new McpServer({ name: 's', version: '1' });
    expect(() => server.addTool({ name: 't', requiredScopes: ['bad scope'], handler: () => '' })).toThrow(
      /requiredScopes/,
    );
    expect(() => server.addTool({ name: 't2', requiredScopes: ['a"b'], handler: () => '' })).toThrow(
      /requiredScopes/,
    );
  });
});

function findCause<T>(error: unknown, type: new (...args: never[]) => T): T | undefined {
  for (let current = error, i = 0; current !== undefined && i < 10; i++) {
    if (current instanceof type) return current;
    current = current instanceof Error ? current.cause : undefined;
  }
  return undefined;
}
