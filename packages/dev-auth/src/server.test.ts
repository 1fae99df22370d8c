/**
 * The development authorization server, driven through its web-standard handler: metadata, the authorization
 * code grant with PKCE, codes and refresh tokens (single use, rotation, replay), client authentication, DCR,
 * Client ID Metadata Documents, consent, introspection and revocation — and what it must refuse.
 */
import { spawn } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { FetchLike } from 'mcpengine/http';
import { basicCredentials, clientAssertion, createPkce, exportPublicJwk, JwtVerifier } from 'mcpengine/auth';
import { startDevAuthServer } from './node.js';
import { DevAuthorizationServer, type DevAuthServerOptions } from './server.js';

const ISSUER = 'http://127.0.0.1:9999';
const RESOURCE = 'http://127.0.0.1:3000/mcp';
const REDIRECT = 'http://127.0.0.1:4000/callback';

function server(options: Partial<DevAuthServerOptions> = {}): DevAuthorizationServer {
  return new DevAuthorizationServer({
    issuer: ISSUER,
    autoApprove: true,
    clients: [
      { client_id: 'public', redirect_uris: [REDIRECT] },
      { client_id: 'confidential', client_secret: 'top-secret', redirect_uris: [REDIRECT] },
    ],
    ...options,
  });
}

const form = (fields: Record<string, string>, headers: Record<string, string> = {}) => ({
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
  body: new URLSearchParams(fields).toString(),
});

async function call(as: DevAuthorizationServer, path: string, init?: RequestInit): Promise<Response> {
  return as.handle(new Request(`${ISSUER}${path}`, init));
}

function authorizeUrl(params: Record<string, string | undefined>): string {
  const query = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined) query.set(k, v);
  return `/authorize?${query}`;
}

/** Runs the authorization request; returns the redirect's parameters. */
async function authorize(as: DevAuthorizationServer, overrides: Record<string, string | undefined> = {}) {
  const pkce = createPkce();
  const response = await call(
    as,
    authorizeUrl({
      response_type: 'code',
      client_id: 'public',
      redirect_uri: REDIRECT,
      state: 'st',
      code_challenge: pkce.challenge,
      code_challenge_method: 'S256',
      resource: RESOURCE,
      ...overrides,
    }),
  );
  const location = response.headers.get('location');
  return { response, pkce, params: location ? new URL(location).searchParams : undefined, location };
}

async function exchange(
  as: DevAuthorizationServer,
  code: string,
  verifier: string,
  extra: Record<string, string> = {},
  headers: Record<string, string> = {},
) {
  const response = await call(
    as,
    '/token',
    form(
      {
        grant_type: 'authorization_code',
        code,
        redirect_uri: REDIRECT,
        code_verifier: verifier,
        client_id: 'public',
        ...extra,
      },
      headers,
    ),
  );
  return { response, body: (await response.json()) as Record<string, any> };
}

describe('metadata and keys', () => {
  it('publishes RFC 8414 metadata at every discovery URL of an issuer with a path', async () => {
    const as = new DevAuthorizationServer({ issuer: `${ISSUER}/tenant`, scopes: ['a', 'offline_access'] });
    for (const path of [
      '/.well-known/oauth-authorization-server/tenant',
      '/.well-known/openid-configuration/tenant',
      '/tenant/.well-known/openid-configuration',
    ]) {
      const response = await call(as, path);
      expect(response.status, path).toBe(200);
      expect(response.headers.get('content-type')).toBe('application/json');
      const metadata = await response.json();
      expect(metadata).toMatchObject({
        issuer: `${ISSUER}/tenant`,
        authorization_endpoint: `${ISSUER}/tenant/authorize`,
        token_endpoint: `${ISSUER}/tenant/token`,
        registration_endpoint: `${ISSUER}/tenant/register`,
        code_challenge_methods_supported: ['S256'],
        client_id_metadata_document_supported: true,
        authorization_response_iss_parameter_supported: true,
        response_types_supported: ['code'],
        scopes_supported: ['a', 'offline_access'],
      });
    }
    expect((await call(as, '/.well-known/oauth-authorization-server')).status).toBe(404);
    expect(() => new DevAuthorizationServer({ issuer: `${ISSUER}/` })).toThrow(/trailing slash/);
  });

  it('refuses other Host names (DNS rebinding)', async () => {
    const as = server();
    const response = await as.handle(
      new Request(`${ISSUER}/jwks`, { headers: { host: 'evil.example:9999' } }),
    );
    expect(response.status).toBe(403);
  });
});

describe('authorization code grant with PKCE', () => {
  it('redirects with code, state and iss, and issues a JWT access token for the resource, no-store', async () => {
    const as = server();
    const { params, pkce } = await authorize(as, { scope: 'x y' });
    expect(params?.get('state')).toBe('st');
    expect(params?.get('iss')).toBe(ISSUER);
    const { response, body } = await exchange(as, params!.get('code')!, pkce.verifier, {
      resource: RESOURCE,
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('pragma')).toBe('no-cache');
    expect(body).toMatchObject({ token_type: 'Bearer', expires_in: 3600, scope: 'x y' });
    expect(typeof body.refresh_token).toBe('string');
    const jwks = (await (await call(as, '/jwks')).json()) as { keys: object[] };
    const verifier = new JwtVerifier({
      issuer: ISSUER,
      audience: RESOURCE,
      keys: jwks.keys as never,
      types: ['at+jwt'],
    });
    expect(await verifier.verify(body.access_token)).toMatchObject({
      subject: 'dev-user',
      clientId: 'public',
      scopes: ['x', 'y'],
    });
  });

  it('requires PKCE with S256 (errors go back with state and iss)', async () => {
    const as = server();
    for (const overrides of [
      { code_challenge: undefined },
      { code_challenge_method: 'plain' },
      { code_challenge_method: undefined },
      { code_challenge: 'short' },
    ]) {
      const { params } = await authorize(as, overrides);
      expect(params?.get('error')).toBe('invalid_request');
      expect(params?.get('iss')).toBe(ISSUER);
      expect(params?.get('state')).toBe('st');
      expect(params?.has('code')).toBe(false);
    }
    const { params } = await authorize(as, { response_type: 'token' });
    expect(params?.get('error')).toBe('unsupported_response_type');
  });

  it('refuses a wrong verifier, a wrong redirect_uri, another client, and an expired code', async () => {
    const as = server({ codeTtlSec: 0.05 });
    const wrongVerifier = await authorize(as);
    expect((await exchange(as, wrongVerifier.params!.get('code')!, createPkce().verifier)).body.error).toBe(
      'invalid_grant',
    );
    const wrongRedirect = await authorize(as);
    expect(
      (
        await exchange(as, wrongRedirect.params!.get('code')!, wrongRedirect.pkce.verifier, {
          redirect_uri: 'http://127.0.0.1:4000/other',
        })
      ).body.error,
    ).toBe('invalid_grant');
    const otherClient = await authorize(as);
    const stolen = await call(
      as,
      '/token',
      form(
        {
          grant_type: 'authorization_code',
          code: otherClient.params!.get('code')!,
          redirect_uri: REDIRECT,
          code_verifier: otherClient.pkce.verifier,
        },
        { authorization: basicCredentials('confidential', 'top-secret') },
      ),
    );
    expect(((await stolen.json()) as { error: string }).error).toBe('invalid_grant');
    const late = await authorize(as);
    await new Promise((r) => setTimeout(r, 80));
    expect((await exchange(as, late.params!.get('code')!, late.pkce.verifier)).body.error).toBe(
      'invalid_grant',
    );
  });

  it('treats a replayed code as an attack: refused, and the refresh tokens it produced are revoked', async () => {
    const as = server();
    const { params, pkce } = await authorize(as);
    const first = await exchange(as, params!.get('code')!, pkce.verifier);
    expect(first.response.status).toBe(200);
    const replay = await exchange(as, params!.get('code')!, pkce.verifier);
    expect(replay.response.status).toBe(400);
    expect(replay.body.error).toBe('invalid_grant');
    const refresh = await call(
      as,
      '/token',
      form({ grant_type: 'refresh_token', refresh_token: first.body.refresh_token, client_id: 'public' }),
    );
    expect(((await refresh.json()) as { error: string }).error).toBe('invalid_grant');
  });

  it('shows an error page instead of redirecting to an unregistered redirect URI or for an unknown client', async () => {
    const as = server();
    for (const overrides of [
      { redirect_uri: 'https://evil.example/callback' },
      { redirect_uri: undefined },
      { client_id: 'nobody' },
      { client_id: undefined },
    ]) {
      const { response, location } = await authorize(as, overrides);
      expect(response.status).toBe(400);
      expect(location).toBeNull();
      expect(response.headers.get('content-type')).toContain('text/html');
      expect(response.headers.get('content-security-policy')).toContain("default-src 'none'");
    }
  });

  it('lets loopback IP redirect URIs use any port (RFC 8252 §7.3), but nothing else', async () => {
    const as = server({
      clients: [
        { client_id: 'cli', redirect_uris: ['http://127.0.0.1/callback', 'http://localhost:7000/cb'] },
      ],
    });
    expect(
      (
        await authorize(as, { client_id: 'cli', redirect_uri: 'http://127.0.0.1:53123/callback' })
      ).params?.has('code'),
    ).toBe(true);
    expect(
      (await authorize(as, { client_id: 'cli', redirect_uri: 'http://127.0.0.1:53123/other' })).response
        .status,
    ).toBe(400);
    expect(
      (await authorize(as, { client_id: 'cli', redirect_uri: 'http://localhost:7001/cb' })).response.status,
    ).toBe(400);
  });

  it('checks scopes and resources against what it serves', async () => {
    const as = server({ scopes: ['a', 'b'], resources: [RESOURCE] });
    expect((await authorize(as, { scope: 'a c' })).params?.get('error')).toBe('invalid_scope');
    expect((await authorize(as, { resource: 'https://other.example/mcp' })).params?.get('error')).toBe(
      'invalid_target',
    );
    expect((await authorize(as, { resource: 'https://other.example/mcp#frag' })).params?.get('error')).toBe(
      'invalid_target',
    );
    const ok = await authorize(as, { scope: 'a' });
    const mismatch = await exchange(as, ok.params!.get('code')!, ok.pkce.verifier, {
      resource: 'http://127.0.0.1:3000/other',
    });
    expect(mismatch.body.error).toBe('invalid_target');
  });
});

describe('refresh tokens', () => {
  it('rotate: the new one works, reusing the old one revokes the family', async () => {
    const as = server();
    const { params, pkce } = await authorize(as, { scope: 'a b' });
    const first = (await exchange(as, params!.get('code')!, pkce.verifier)).body;
    const refresh = (token: string, extra: Record<string, string> = {}) =>
      call(
        as,
        '/token',
        form({ grant_type: 'refresh_token', refresh_token: token, client_id: 'public', ...extra }),
      );
    const narrowed = await refresh(first.refresh_token, { scope: 'a' });
    const second = (await narrowed.json()) as Record<string, string>;
    expect(narrowed.status).toBe(200);
    expect(narrowed.headers.get('cache-control')).toBe('no-store');
    expect(second.scope).toBe('a');
    expect(second.refresh_token).not.toBe(first.refresh_token);
    expect(
      ((await (await refresh(second.refresh_token!, { scope: 'a b c' })).json()) as { error: string }).error,
    ).toBe('invalid_scope');
    // Reuse of the first (rotated) token: refused, and the whole family with it.
    expect(((await (await refresh(first.refresh_token)).json()) as { error: string }).error).toBe(
      'invalid_grant',
    );
    const third = await call(
      as,
      '/token',
      form({ grant_type: 'refresh_token', refresh_token: second.refresh_token!, client_id: 'public' }),
    );
    expect(((await third.json()) as { error: string }).error).toBe('invalid_grant');
  });
});

describe('client authentication and other grants', () => {
  it('client credentials for confidential clients only, with the registered method', async () => {
    const as = server();
    const ok = await call(
      as,
      '/token',
      form(
        { grant_type: 'client_credentials', scope: 'a', resource: RESOURCE },
        { authorization: basicCredentials('confidential', 'top-secret') },
      ),
    );
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as { refresh_token?: string }).refresh_token).toBeUndefined();
    const wrong = await call(
      as,
      '/token',
      form({ grant_type: 'client_credentials' }, { authorization: basicCredentials('confidential', 'nope') }),
    );
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get('www-authenticate')).toMatch(/^Basic/);
    const otherMethod = await call(
      as,
      '/token',
      form({ grant_type: 'client_credentials', client_id: 'confidential', client_secret: 'top-secret' }),
    );
    expect(otherMethod.status).toBe(401);
    const both = await call(
      as,
      '/token',
      form(
        { grant_type: 'client_credentials', client_secret: 'top-secret' },
        { authorization: basicCredentials('confidential', 'top-secret') },
      ),
    );
    expect(((await both.json()) as { error: string }).error).toBe('invalid_request');
    const publicClient = await call(
      as,
      '/token',
      form({ grant_type: 'client_credentials', client_id: 'public' }),
    );
    expect(((await publicClient.json()) as { error: string }).error).toBe('unauthorized_client');
    const secretForPublic = await call(
      as,
      '/token',
      form({ grant_type: 'client_credentials', client_id: 'public', client_secret: 'x' }),
    );
    expect(secretForPublic.status).toBe(401);
    const unknownGrant = await call(as, '/token', form({ grant_type: 'password', client_id: 'public' }));
    expect(((await unknownGrant.json()) as { error: string }).error).toBe('unsupported_grant_type');
  });

  it('private_key_jwt: verifies the assertion and refuses a replayed one', async () => {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const as = server({
      clients: [
        {
          client_id: 'svc',
          redirect_uris: [],
          token_endpoint_auth_method: 'private_key_jwt',
          grant_types: ['client_credentials'],
          jwks: { keys: [exportPublicJwk(publicKey)] },
        },
      ],
    });
    const assertion = clientAssertion({ clientId: 'svc', privateKey }, ISSUER);
    const body = {
      grant_type: 'client_credentials',
      client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
      client_assertion: assertion,
    };
    expect((await call(as, '/token', form(body))).status).toBe(200);
    expect((await call(as, '/token', form(body))).status).toBe(401);
    const forged = clientAssertion(
      { clientId: 'svc', privateKey: generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey },
      ISSUER,
    );
    expect((await call(as, '/token', form({ ...body, client_assertion: forged }))).status).toBe(401);
    const wrongAudience = clientAssertion({ clientId: 'svc', privateKey }, 'https://other.example');
    expect((await call(as, '/token', form({ ...body, client_assertion: wrongAudience }))).status).toBe(401);
  });

  it('private_key_jwt: refuses an assertion living so long that its jti would be remembered for years', async () => {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const as = server({
      clients: [
        {
          client_id: 'svc',
          redirect_uris: [],
          token_endpoint_auth_method: 'private_key_jwt',
          grant_types: ['client_credentials'],
          jwks: { keys: [exportPublicJwk(publicKey)] },
        },
      ],
    });
    const body = (assertion: string) =>
      form({
        grant_type: 'client_credentials',
        client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
        client_assertion: assertion,
      });
    const decade = clientAssertion({ clientId: 'svc', privateKey }, ISSUER, 10 * 365 * 86_400);
    expect((await call(as, '/token', body(decade))).status).toBe(401);
    const fiveMinutes = clientAssertion({ clientId: 'svc', privateKey }, ISSUER, 300);
    expect((await call(as, '/token', body(fiveMinutes))).status).toBe(200);
  });

  it('refuses oversized and non-form token requests', async () => {
    const as = server();
    const big = await call(
      as,
      '/token',
      form({ grant_type: 'client_credentials', padding: 'x'.repeat(70_000) }),
    );
    expect(big.status).toBe(413);
    const jsonBody = await call(as, '/token', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(((await jsonBody.json()) as { error: string }).error).toBe('invalid_request');
  });
});

describe('Dynamic Client Registration (RFC 7591)', () => {
  const register = (as: DevAuthorizationServer, body: unknown) =>
    call(as, '/register', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  it('refuses a jwks_uri that is not https or points at a local or private network', async () => {
    const as = server();
    const base = {
      grant_types: ['client_credentials'],
      token_endpoint_auth_method: 'private_key_jwt',
    };
    for (const jwksUri of [
      'http://keys.example/jwks',
      'https://127.0.0.1/jwks',
      'https://localhost/jwks',
      'https://169.254.169.254/latest',
      'https://[fd00::1]/jwks',
      'https://user:pw@keys.example/jwks',
      'not a url',
    ]) {
      const answer = await register(as, { ...base, jwks_uri: jwksUri });
      expect(answer.status).toBe(400);
      expect(((await answer.json()) as { error: string }).error).toBe('invalid_client_metadata');
    }
    expect((await register(as, { ...base, jwks_uri: 'https://keys.example/jwks' })).status).toBe(201);
    const local = server({ clientMetadataDocuments: { allowPrivateNetworks: true, allowHttp: true } });
    expect((await register(local, { ...base, jwks_uri: 'http://127.0.0.1:9/jwks' })).status).toBe(201);
  });

  it('registers public and confidential clients, and their credentials work', async () => {
    const as = server();
    const response = await register(as, {
      client_name: 'cli',
      redirect_uris: ['http://127.0.0.1:5000/cb'],
      grant_types: ['authorization_code', 'refresh_token'],
      token_endpoint_auth_method: 'none',
      application_type: 'native',
    });
    expect(response.status).toBe(201);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const client = (await response.json()) as Record<string, unknown>;
    expect(client).toMatchObject({
      token_endpoint_auth_method: 'none',
      application_type: 'native',
      client_name: 'cli',
    });
    expect(client.client_secret).toBeUndefined();
    const confidential = (await (
      await register(as, {
        redirect_uris: ['https://app.example/cb'],
        token_endpoint_auth_method: 'client_secret_post',
      })
    ).json()) as Record<string, string>;
    expect(typeof confidential.client_secret).toBe('string');
    const pkce = createPkce();
    const redirect = await call(
      as,
      authorizeUrl({
        response_type: 'code',
        client_id: confidential.client_id!,
        redirect_uri: 'https://app.example/cb',
        code_challenge: pkce.challenge,
        code_challenge_method: 'S256',
      }),
    );
    const code = new URL(redirect.headers.get('location')!).searchParams.get('code')!;
    const token = await call(
      as,
      '/token',
      form({
        grant_type: 'authorization_code',
        code,
        redirect_uri: 'https://app.example/cb',
        code_verifier: pkce.verifier,
        client_id: confidential.client_id!,
        client_secret: confidential.client_secret!,
      }),
    );
    expect(token.status).toBe(200);
  });

  it.each([
    [{ redirect_uris: ['http://app.example/cb'] }, 'invalid_redirect_uri'],
    [{ redirect_uris: ['javascript://x/cb'] }, 'invalid_redirect_uri'],
    [{ redirect_uris: ['https://app.example/cb#frag'] }, 'invalid_redirect_uri'],
    [{ redirect_uris: [] }, 'invalid_redirect_uri'],
    [{ redirect_uris: 'https://app.example/cb' }, 'invalid_client_metadata'],
    [{ redirect_uris: ['https://a/cb'], grant_types: ['password'] }, 'invalid_client_metadata'],
    [
      { redirect_uris: ['https://a/cb'], token_endpoint_auth_method: 'tls_client_auth' },
      'invalid_client_metadata',
    ],
    [{ redirect_uris: ['https://a/cb'], application_type: 'desktop' }, 'invalid_client_metadata'],
    [{ redirect_uris: ['https://a/cb'], response_types: ['token'] }, 'invalid_client_metadata'],
    [{ grant_types: ['client_credentials'], token_endpoint_auth_method: 'none' }, 'invalid_client_metadata'],
    [[1, 2], 'invalid_client_metadata'],
  ])('refuses %j with %s', async (body, error) => {
    const response = await register(server(), body);
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: string }).error).toBe(error);
  });

  it('does not hold a registered client to the scope it registered with (step-up stays possible)', async () => {
    const as = server();
    const client = (await (
      await register(as, { redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none', scope: 'a' })
    ).json()) as {
      client_id: string;
      scope: string;
    };
    expect(client.scope).toBe('a');
    expect((await authorize(as, { client_id: client.client_id, scope: 'a b' })).params?.has('code')).toBe(
      true,
    );
    const limited = server({ clients: [{ client_id: 'limited', redirect_uris: [REDIRECT], scope: 'a' }] });
    expect((await authorize(limited, { client_id: 'limited', scope: 'a b' })).params?.get('error')).toBe(
      'invalid_scope',
    );
  });

  it('can be turned off', async () => {
    const as = server({ dynamicRegistration: false });
    expect(as.metadata.registration_endpoint).toBeUndefined();
    expect((await register(as, { redirect_uris: ['https://a/cb'] })).status).toBe(404);
  });
});

describe('Client ID Metadata Documents', () => {
  const DOC = 'https://client.example/oauth/metadata.json';
  function withDocument(document: unknown, status = 200) {
    const fetched: string[] = [];
    const fetch: FetchLike = async (url) => {
      fetched.push(url.href);
      return new Response(JSON.stringify(document), {
        status,
        headers: { 'content-type': 'application/json' },
      });
    };
    return { as: server({ clientMetadataDocuments: { fetch } }), fetched };
  }

  it('never fetches a document on a local or private network (by name, literal or resolved address)', async () => {
    const fetched: string[] = [];
    const fetch: FetchLike = async (url) => {
      fetched.push(url.href);
      return new Response('{}', { headers: { 'content-type': 'application/json' } });
    };
    const lookup = async (host: string) => (host === 'internal.example' ? ['10.0.0.8'] : ['93.184.215.14']);
    const as = server({ clientMetadataDocuments: { fetch, lookup } });
    for (const id of [
      'https://127.0.0.1/client.json',
      'https://localhost/client.json',
      'https://169.254.169.254/latest/meta-data.json',
      'https://[::ffff:10.0.0.1]/client.json',
      'https://internal.example/client.json',
    ]) {
      const answer = await authorize(as, { client_id: id });
      expect(answer.params?.has('code') ?? false).toBe(false);
    }
    expect(fetched).toEqual([]);
    const open = server({ clientMetadataDocuments: { fetch, lookup, allowPrivateNetworks: true } });
    await authorize(open, { client_id: 'https://internal.example/client.json' });
    expect(fetched).toEqual(['https://internal.example/client.json']);
  });

  it('fetches the document of a URL client id, checks it, and caches it', async () => {
    const { as, fetched } = withDocument({
      client_id: DOC,
      client_name: 'Doc client',
      redirect_uris: [REDIRECT],
    });
    const first = await authorize(as, { client_id: DOC });
    expect(first.params?.has('code')).toBe(true);
    const token = await call(
      as,
      '/token',
      form({
        grant_type: 'authorization_code',
        code: first.params!.get('code')!,
        redirect_uri: REDIRECT,
        code_verifier: first.pkce.verifier,
        client_id: DOC,
      }),
    );
    expect(token.status).toBe(200);
    await authorize(as, { client_id: DOC });
    expect(fetched).toEqual([DOC]);
  });

  it.each([
    [{ client_id: 'https://client.example/other.json', client_name: 'x', redirect_uris: [REDIRECT] }],
    [{ client_id: DOC, redirect_uris: [REDIRECT] }],
    [
      {
        client_id: DOC,
        client_name: 'x',
        redirect_uris: [REDIRECT],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    [{ client_id: DOC, client_name: 'x', redirect_uris: ['https://elsewhere.example/cb'] }],
  ])('refuses document %j', async (document) => {
    const { as } = withDocument(document);
    const { response, location } = await authorize(as, { client_id: DOC });
    expect(response.status).toBe(400);
    expect(location).toBeNull();
  });

  it('refuses unreachable documents and plain-HTTP document URLs', async () => {
    expect((await authorize(withDocument({}, 404).as, { client_id: DOC })).response.status).toBe(400);
    const { as, fetched } = withDocument({
      client_id: 'http://client.example/m.json',
      client_name: 'x',
      redirect_uris: [REDIRECT],
    });
    expect((await authorize(as, { client_id: 'http://client.example/m.json' })).response.status).toBe(400);
    expect(fetched).toEqual([]);
  });

  it('development mode (loopbackDocuments) accepts a loopback document, http included, and nothing else', async () => {
    const LOCAL = 'http://127.0.0.1:4000/oauth/client-metadata.json';
    const fetched: string[] = [];
    const fetch: FetchLike = async (url) => {
      fetched.push(url.href);
      return new Response(
        JSON.stringify({ client_id: url.href, client_name: 'Local', redirect_uris: [REDIRECT] }),
        {
          headers: { 'content-type': 'application/json' },
        },
      );
    };
    const lookup = async (host: string) => (host === 'internal.example' ? ['10.0.0.8'] : ['93.184.215.14']);
    // Without the mode: a loopback document is never fetched.
    const strict = server({ clientMetadataDocuments: { fetch, lookup } });
    expect((await authorize(strict, { client_id: LOCAL })).params?.has('code') ?? false).toBe(false);
    expect(fetched).toEqual([]);
    const dev = server({ clientMetadataDocuments: { fetch, lookup, loopbackDocuments: true } });
    const local = await authorize(dev, { client_id: LOCAL });
    expect(local.params?.has('code')).toBe(true);
    expect(fetched).toEqual([LOCAL]);
    // Other private addresses and plain http elsewhere stay refused.
    for (const id of [
      'https://10.0.0.1/client.json',
      'https://internal.example/c.json',
      'http://client.example/c.json',
    ])
      expect((await authorize(dev, { client_id: id })).params?.has('code') ?? false).toBe(false);
    expect(fetched).toEqual([LOCAL]);
  });
});

describe('consent, introspection, revocation', () => {
  it('asks for consent without auto-approve; the decision is single-use and same-origin', async () => {
    const as = server({ autoApprove: false });
    const malformed = await authorize(as, { scope: 'read a"b' });
    expect(malformed.params?.get('error')).toBe('invalid_scope'); // refused before any consent
    const escaped = await authorize(as, { scope: '<script>' }); // a valid scope token (RFC 6749 §3.3)
    const escapedHtml = await escaped.response.text();
    expect(escapedHtml).toContain('&#60;script&#62;');
    expect(escapedHtml).not.toContain('<script>');
    const consent = await authorize(as, { scope: 'read' });
    expect(consent.response.status).toBe(200);
    expect(consent.response.headers.get('x-frame-options')).toBe('DENY');
    const html = await consent.response.text();
    expect(html).toContain('127.0.0.1:4000');
    const transaction = /name="transaction" value="([^"]+)"/.exec(html)![1]!;
    const cross = await call(
      as,
      '/authorize',
      form({ transaction, decision: 'approve' }, { origin: 'https://evil.example' }),
    );
    expect(cross.status).toBe(403);
    const approved = await call(as, '/authorize', form({ transaction, decision: 'approve' }));
    expect(approved.status).toBe(302);
    expect(new URL(approved.headers.get('location')!).searchParams.has('code')).toBe(true);
    expect((await call(as, '/authorize', form({ transaction, decision: 'approve' }))).status).toBe(400);

    const other = await authorize(as);
    const otherTransaction = /name="transaction" value="([^"]+)"/.exec(await other.response.text())![1]!;
    const denied = await call(as, '/authorize', form({ transaction: otherTransaction, decision: 'deny' }));
    const params = new URL(denied.headers.get('location')!).searchParams;
    expect([params.get('error'), params.get('iss'), params.get('state')]).toEqual([
      'access_denied',
      ISSUER,
      'st',
    ]);
  });

  it('introspects for authenticated clients only, and revocation makes tokens inactive', async () => {
    const as = server();
    const { params, pkce } = await authorize(as);
    const { body } = await exchange(as, params!.get('code')!, pkce.verifier);
    const introspect = (token: string) =>
      call(
        as,
        '/introspect',
        form({ token }, { authorization: basicCredentials('confidential', 'top-secret') }),
      );
    expect(await (await introspect(body.access_token)).json()).toMatchObject({
      active: true,
      aud: RESOURCE,
      client_id: 'public',
      sub: 'dev-user',
    });
    expect(await (await introspect('garbage')).json()).toEqual({ active: false });
    expect(
      (await call(as, '/introspect', form({ token: body.access_token, client_id: 'public' }))).status,
    ).toBe(401);
    expect((await call(as, '/revoke', form({ token: body.access_token, client_id: 'public' }))).status).toBe(
      200,
    );
    expect(await (await introspect(body.access_token)).json()).toEqual({ active: false });
    await call(as, '/revoke', form({ token: body.refresh_token, client_id: 'public' }));
    const refresh = await call(
      as,
      '/token',
      form({ grant_type: 'refresh_token', refresh_token: body.refresh_token, client_id: 'public' }),
    );
    expect(refresh.status).toBe(400);
  });
});

describe('running it', () => {
  it('listens on loopback only unless told otherwise', async () => {
    await expect(startDevAuthServer({ host: '0.0.0.0' })).rejects.toThrow(/loopback/);
    const running = await startDevAuthServer({ autoApprove: true });
    try {
      expect(running.issuer).toBe(`http://127.0.0.1:${running.port}`);
      const metadata = await (await fetch(`${running.issuer}/.well-known/oauth-authorization-server`)).json();
      expect(metadata).toMatchObject({ issuer: running.issuer });
    } finally {
      await running.close();
    }
  });

  // The committed bin, which loads the built `dist/main.js` (`npm test` builds first).
  const CLI = resolve(import.meta.dirname, '../bin/mcpengine-dev-auth.js');
  it('starts from the command line and prints its issuer', async () => {
    const child = spawn(
      process.execPath,
      [CLI, '--port', '0', '--auto-approve', '--client', 'c=http://127.0.0.1/cb'],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    try {
      const issuer = await new Promise<string>((done, fail) => {
        let out = '';
        child.stdout.on('data', (chunk: Buffer) => {
          out += chunk.toString();
          if (out.includes('\n')) done(out.trim());
        });
        child.once('exit', (code) => fail(new Error(`exited ${code}`)));
      });
      expect(issuer).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const metadata = (await (await fetch(`${issuer}/.well-known/oauth-authorization-server`)).json()) as {
        issuer: string;
      };
      expect(metadata.issuer).toBe(issuer);
    } finally {
      child.kill('SIGTERM');
    }
  });
});
