/**
 * The client flow against a scriptable world (a resource server and authorization servers behind a fake
 * `fetch`): the happy path, and every hostile or broken answer it must refuse — with a clear error, nothing
 * leaked, nothing stored.
 */
import { generateKeyPairSync } from 'node:crypto';
import * as jose from 'jose';
import { describe, expect, it } from 'vitest';
import type { FetchLike } from '../../transports/http/client-fetch.js';
import { AuthorizationError, OAuthError } from '../errors.js';
import { s256 } from '../pkce.js';
import { OAuthClient, type OAuthClientOptions } from './oauth-client.js';
import { MemoryAuthStore } from './store.js';

const MCP = 'https://mcp.example.com/mcp';
const AS = 'https://auth.example.com';
const AS2 = 'https://auth2.example.com';
const REDIRECT = 'http://127.0.0.1:7777/callback';
const SECRET = 'very-secret-client-secret';

interface World {
  /** Every request, as `METHOD url`. */
  log: string[];
  forms: URLSearchParams[];
  /** The Authorization header of each token request. */
  authorizationHeaders: (string | null)[];
  registrations: Record<string, unknown>[];
  authorizations: URL[];
  /** Tokens the resource server accepts, with their scopes. */
  valid: Map<string, string[]>;
  fetch: FetchLike;
  authorize: (url: URL) => Promise<URL>;
  issuer: string;
}

interface Script {
  prm?: (url: URL) => Response | undefined;
  prmResource?: string;
  challenge?: (status: 401 | 403) => string;
  /** The resource server's decision for a token (after the 401 for a missing/unknown token). */
  rs?: (token: string | undefined, scopes: string[] | undefined) => Response | undefined;
  metadata?: (issuer: string) => Record<string, unknown> | undefined;
  metadataResponse?: (url: URL) => Response | undefined;
  redirect?: (params: URLSearchParams, issuer: string) => Record<string, string | undefined>;
  token?: (form: URLSearchParams, headers: Headers, issuer: string) => Response | undefined;
  register?: (body: Record<string, unknown>) => Response | undefined;
  /** The authorization server the protected resource metadata names. */
  issuer?: () => string;
}

const json = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });

function world(script: Script = {}): World {
  const log: string[] = [];
  const forms: URLSearchParams[] = [];
  const authorizationHeaders: (string | null)[] = [];
  const registrations: Record<string, unknown>[] = [];
  const authorizations: URL[] = [];
  const valid = new Map<string, string[]>();
  let counter = 0;
  const codes = new Map<string, { scope: string; challenge: string }>();
  const issuer = () => script.issuer?.() ?? AS;
  const metadataFor = (iss: string): Record<string, unknown> => ({
    issuer: iss,
    authorization_endpoint: `${iss}/authorize`,
    token_endpoint: `${iss}/token`,
    registration_endpoint: `${iss}/register`,
    response_types_supported: ['code'],
    code_challenge_methods_supported: ['S256'],
    authorization_response_iss_parameter_supported: true,
    token_endpoint_auth_methods_supported: ['none', 'client_secret_basic'],
  });

  const fetch: FetchLike = async (url, init) => {
    const method = init.method ?? 'GET';
    log.push(`${method} ${url.href}`);
    const headers = new Headers(init.headers);
    if (url.origin === 'https://mcp.example.com') {
      if (url.pathname.startsWith('/.well-known/oauth-protected-resource')) {
        const scripted = script.prm?.(url);
        if (scripted) return scripted;
        if (url.pathname !== '/.well-known/oauth-protected-resource/mcp')
          return new Response('', { status: 404 });
        return json({
          resource: script.prmResource ?? MCP,
          authorization_servers: [issuer()],
          scopes_supported: ['mcp:basic'],
        });
      }
      if (url.pathname === '/mcp') {
        const auth = headers.get('authorization');
        const token = auth?.startsWith('Bearer ') ? auth.slice(7) : undefined;
        const scopes = token === undefined ? undefined : valid.get(token);
        const scripted = script.rs?.(token, scopes);
        if (scripted) return scripted;
        if (scopes === undefined) {
          const challenge =
            script.challenge?.(401) ??
            `Bearer resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource/mcp"`;
          return json({ error: 'invalid_token' }, 401, { 'www-authenticate': challenge });
        }
        return json({ jsonrpc: '2.0', id: 1, result: {} });
      }
    }
    const iss = [AS, AS2, 'https://mcp.example.com'].find(
      (candidate) => url.origin === new URL(candidate).origin,
    );
    if (iss) {
      if (url.pathname.startsWith('/.well-known/')) {
        const scripted = script.metadataResponse?.(url);
        if (scripted) return scripted;
        if (url.pathname !== '/.well-known/oauth-authorization-server')
          return new Response('', { status: 404 });
        const metadata = script.metadata ? script.metadata(iss) : metadataFor(iss);
        return metadata ? json(metadata) : new Response('', { status: 404 });
      }
      if (url.pathname === '/register' && method === 'POST') {
        const body = JSON.parse(String(init.body)) as Record<string, unknown>;
        registrations.push(body);
        const scripted = script.register?.(body);
        if (scripted) return scripted;
        return json(
          {
            client_id: `client-${iss}`,
            client_secret: SECRET,
            token_endpoint_auth_method: body.token_endpoint_auth_method,
          },
          201,
        );
      }
      if (url.pathname === '/token' && method === 'POST') {
        const form = new URLSearchParams(String(init.body));
        forms.push(form);
        authorizationHeaders.push(headers.get('authorization'));
        const scripted = script.token?.(form, headers, iss);
        if (scripted) return scripted;
        let scope = form.get('scope') ?? '';
        if (form.get('grant_type') === 'authorization_code') {
          const code = codes.get(form.get('code') ?? '');
          if (!code || s256(form.get('code_verifier') ?? '') !== code.challenge)
            return json({ error: 'invalid_grant' }, 400);
          scope = code.scope;
        }
        const token = `at-${iss}-${++counter}`;
        valid.set(token, scope.split(' ').filter(Boolean));
        return json(
          {
            access_token: token,
            token_type: 'Bearer',
            expires_in: 60,
            refresh_token: `rt-${counter}`,
            scope,
          },
          200,
          {
            'cache-control': 'no-store',
          },
        );
      }
    }
    return new Response('not found', { status: 404 });
  };

  const authorize = async (url: URL): Promise<URL> => {
    authorizations.push(url);
    const params = url.searchParams;
    const iss = url.origin;
    const code = `code-${++counter}`;
    codes.set(code, { scope: params.get('scope') ?? '', challenge: params.get('code_challenge') ?? '' });
    const answer = script.redirect?.(params, iss) ?? { code, state: params.get('state') ?? undefined, iss };
    const target = new URL(params.get('redirect_uri')!);
    for (const [k, v] of Object.entries(answer)) if (v !== undefined) target.searchParams.set(k, v);
    return target;
  };
  return {
    log,
    forms,
    authorizationHeaders,
    registrations,
    authorizations,
    valid,
    fetch,
    authorize,
    issuer: AS,
  };
}

function client(w: World, options: Partial<OAuthClientOptions> = {}) {
  const store = new MemoryAuthStore();
  const oauth = new OAuthClient({
    redirectUri: REDIRECT,
    authorize: w.authorize,
    fetch: w.fetch,
    store,
    ...options,
  });
  const send = oauth.wrapFetch(w.fetch, new URL(MCP));
  const post = (headers: Record<string, string> = {}) =>
    send(new URL(MCP), {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}',
    });
  return { oauth, store, post };
}

async function failure(promise: Promise<unknown>): Promise<Error> {
  const outcome = await promise.then(
    (value) => value,
    (error: unknown) => error,
  );
  if (!(outcome instanceof Error)) throw new Error(`expected a failure, got ${String(outcome)}`);
  return outcome;
}

describe('the authorization code flow', () => {
  it('runs on a 401 and sends the request again with the token; later requests reuse it', async () => {
    const w = world();
    const { post, oauth } = client(w, { clientName: 'tester' });
    const response = await post({ 'mcp-protocol-version': '2025-11-25' });
    expect(response.status).toBe(200);
    expect(w.log).toEqual([
      `POST ${MCP}`,
      'GET https://mcp.example.com/.well-known/oauth-protected-resource/mcp',
      `GET ${AS}/.well-known/oauth-authorization-server`,
      `POST ${AS}/register`,
      `POST ${AS}/token`,
      `POST ${MCP}`,
    ]);
    expect(w.registrations[0]).toMatchObject({
      client_name: 'tester',
      redirect_uris: [REDIRECT],
      grant_types: ['authorization_code', 'refresh_token'],
      token_endpoint_auth_method: 'none',
      application_type: 'native',
    });
    expect(w.registrations[0]!.scope).toBeUndefined();
    const request = w.authorizations[0]!.searchParams;
    expect(Object.fromEntries(request)).toMatchObject({
      response_type: 'code',
      client_id: `client-${AS}`,
      redirect_uri: REDIRECT,
      scope: 'mcp:basic',
      code_challenge_method: 'S256',
      resource: MCP,
    });
    expect(request.get('state')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const form = w.forms[0]!;
    expect(form.get('resource')).toBe(MCP);
    expect(form.get('code_verifier')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(await oauth.accessToken(MCP)).toBe(`at-${AS}-2`);
    await post();
    expect(w.log.filter((l) => l !== `POST ${MCP}`)).toHaveLength(4);
  });

  it('sends the metadata resource verbatim (no trailing slash added) and scopes from the challenge first', async () => {
    const w = world({
      prm: (url) =>
        url.pathname === '/.well-known/oauth-protected-resource'
          ? json({
              resource: 'https://mcp.example.com',
              authorization_servers: [AS],
              scopes_supported: ['a', 'b'],
            })
          : undefined,
      challenge: () => 'Bearer scope="files:read"',
      prmResource: 'unused',
    });
    // The path-based document is missing: only the root one exists.
    const original = w.fetch;
    w.fetch = (url, init) =>
      url.pathname === '/.well-known/oauth-protected-resource/mcp'
        ? Promise.resolve(new Response('', { status: 404 }))
        : original(url, init);
    const { post } = client(w);
    expect((await post()).status).toBe(200);
    expect(w.authorizations[0]!.searchParams.get('resource')).toBe('https://mcp.example.com');
    expect(w.forms[0]!.get('resource')).toBe('https://mcp.example.com');
    expect(w.authorizations[0]!.searchParams.get('scope')).toBe('files:read');
  });

  it('uses a Client ID Metadata Document where supported, and asks for offline_access when offered', async () => {
    const w = world({
      metadata: (iss) => ({
        issuer: iss,
        authorization_endpoint: `${iss}/authorize`,
        token_endpoint: `${iss}/token`,
        code_challenge_methods_supported: ['S256'],
        client_id_metadata_document_supported: true,
        scopes_supported: ['mcp:basic', 'offline_access'],
      }),
    });
    const { post } = client(w, { clientMetadataUrl: 'https://app.example/client.json' });
    expect((await post()).status).toBe(200);
    expect(w.registrations).toEqual([]);
    expect(w.authorizations[0]!.searchParams.get('client_id')).toBe('https://app.example/client.json');
    expect(w.authorizations[0]!.searchParams.get('scope')).toBe('mcp:basic offline_access');
  });

  it('falls back to the 2025-03-26 rules: metadata at the server origin, then the default endpoints', async () => {
    const w = world({
      prm: () => new Response('', { status: 404 }),
      metadata: () => undefined,
      challenge: () => 'Bearer',
    });
    const { post } = client(w);
    expect((await post()).status).toBe(200);
    expect(w.log).toContain('POST https://mcp.example.com/register');
    expect(w.log).toContain('POST https://mcp.example.com/token');
    expect(w.authorizations[0]!.origin).toBe('https://mcp.example.com');
    expect(w.authorizations[0]!.searchParams.get('resource')).toBe(MCP);
  });

  it('refreshes an expired token with its refresh token at the issuing server, and starts over if refused', async () => {
    const w = world();
    const { post, oauth } = client(w);
    await post();
    w.valid.clear(); // the access token expires
    expect((await post()).status).toBe(200);
    expect(w.forms.map((f) => f.get('grant_type'))).toEqual(['authorization_code', 'refresh_token']);
    expect(w.forms[1]!.get('refresh_token')).toBe('rt-2');
    expect(w.forms[1]!.get('resource')).toBe(MCP);
    expect(w.authorizations).toHaveLength(1);

    const refusing = world({
      token: (form) =>
        form.get('grant_type') === 'refresh_token' ? json({ error: 'invalid_grant' }, 400) : undefined,
    });
    const second = client(refusing);
    await second.post();
    refusing.valid.clear();
    expect((await second.post()).status).toBe(200);
    expect(refusing.authorizations).toHaveLength(2);
    expect(await oauth.accessToken(MCP)).toBeDefined();
  });

  it('runs one flow for concurrent requests', async () => {
    const w = world();
    const { post } = client(w);
    const responses = await Promise.all([post(), post(), post()]);
    expect(responses.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(w.authorizations).toHaveLength(1);
  });
});

describe('where tokens go', () => {
  it('never attaches a token to a request for another origin', async () => {
    const w = world();
    const { post, oauth } = client(w);
    await post();
    const seen: (string | null)[] = [];
    const send = oauth.wrapFetch(async (_url, init) => {
      seen.push(new Headers(init.headers).get('authorization'));
      return new Response(null, { status: 202 });
    }, new URL(MCP));
    await send(new URL('https://elsewhere.example.com/messages'), { method: 'POST', body: '{}' });
    await send(new URL('https://mcp.example.com/messages?sessionId=1'), { method: 'POST', body: '{}' });
    expect(seen).toEqual([null, `Bearer at-${AS}-2`]);
  });
});

describe('step-up and retry limits', () => {
  it('re-authorizes on 403 insufficient_scope with the union of scopes, once per new scope', async () => {
    const w = world({
      rs: (token, scopes) =>
        token !== undefined && scopes !== undefined && !scopes.includes('mcp:write')
          ? json({ error: 'insufficient_scope' }, 403, {
              'www-authenticate':
                'Bearer error="insufficient_scope", scope="mcp:write", resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource/mcp"',
            })
          : undefined,
    });
    const { post } = client(w);
    expect((await post()).status).toBe(200);
    expect(w.authorizations.map((u) => u.searchParams.get('scope'))).toEqual([
      'mcp:basic',
      'mcp:basic mcp:write',
    ]);
  });

  it('does not re-authorize for scopes it already asked for, and passes the 403 on', async () => {
    const w = world({
      rs: (token, scopes) =>
        scopes !== undefined
          ? json({ error: 'insufficient_scope' }, 403, {
              'www-authenticate': 'Bearer error="insufficient_scope", scope="mcp:basic"',
            })
          : undefined,
    });
    const { post } = client(w);
    expect((await post()).status).toBe(403);
    expect(w.authorizations).toHaveLength(1);
  });

  it('a 403 that is not insufficient_scope is just an answer', async () => {
    const w = world({ rs: () => json({ error: 'forbidden' }, 403) });
    const { post } = client(w);
    expect((await post()).status).toBe(403);
    expect(w.authorizations).toHaveLength(0);
  });

  it('gives up after maxAttempts flows for one request', async () => {
    const w = world({
      rs: (token) =>
        token
          ? json({ error: 'invalid_token' }, 401, { 'www-authenticate': 'Bearer error="invalid_token"' })
          : undefined,
    });
    const { post } = client(w, { maxAttempts: 2 });
    expect((await post()).status).toBe(401);
    // The first flow authorizes; the second refreshes (the 401 was for the token it holds).
    expect(w.forms.map((f) => f.get('grant_type'))).toEqual(['authorization_code', 'refresh_token']);
  });
});

describe('what the flow must refuse', () => {
  const cases: [string, Script, string][] = [
    ['metadata for another resource', { prmResource: 'https://evil.example.com/mcp' }, 'resource-mismatch'],
    ['metadata for a sibling path', { prmResource: 'https://mcp.example.com/mcp2' }, 'resource-mismatch'],
    [
      'a resource_metadata URL over plain HTTP',
      {
        challenge: () =>
          'Bearer resource_metadata="http://mcp.example.com/.well-known/oauth-protected-resource/mcp"',
      },
      'insecure',
    ],
    [
      'metadata redirected to another origin',
      {
        prm: () => new Response(null, { status: 302, headers: { location: 'https://evil.example.com/prm' } }),
      },
      'insecure',
    ],
    [
      'oversized metadata',
      { prm: () => new Response('x'.repeat(100_000), { headers: { 'content-type': 'application/json' } }) },
      'invalid-response',
    ],
    [
      'metadata that is not JSON',
      { prm: () => new Response('<html>', { headers: { 'content-type': 'text/html' } }) },
      'invalid-response',
    ],
    [
      'metadata without authorization servers',
      { prm: () => json({ resource: MCP, authorization_servers: [] }) },
      'discovery',
    ],
    [
      'authorization server metadata for another issuer',
      { metadata: () => ({ issuer: 'https://attacker.example.com' }) },
      'issuer-mismatch',
    ],
    [
      'an authorization server without PKCE',
      {
        metadata: (iss) => ({
          issuer: iss,
          authorization_endpoint: `${iss}/authorize`,
          token_endpoint: `${iss}/token`,
          registration_endpoint: `${iss}/register`,
        }),
      },
      'pkce',
    ],
    [
      'a missing iss when advertised',
      { redirect: (p) => ({ code: 'c', state: p.get('state')! }) },
      'iss-mismatch',
    ],
    [
      'a wrong iss',
      { redirect: (p) => ({ code: 'c', state: p.get('state')!, iss: 'https://evil.example.com' }) },
      'iss-mismatch',
    ],
    [
      'an iss with a trailing slash',
      { redirect: (p, iss) => ({ code: 'c', state: p.get('state')!, iss: `${iss}/` }) },
      'iss-mismatch',
    ],
    [
      'an upper-case iss',
      { redirect: (p, iss) => ({ code: 'c', state: p.get('state')!, iss: iss.toUpperCase() }) },
      'iss-mismatch',
    ],
    [
      'a wrong iss from a server that does not advertise it',
      {
        metadata: (iss) => ({
          issuer: iss,
          authorization_endpoint: `${iss}/authorize`,
          token_endpoint: `${iss}/token`,
          registration_endpoint: `${iss}/register`,
          code_challenge_methods_supported: ['S256'],
        }),
        redirect: (p) => ({ code: 'c', state: p.get('state')!, iss: 'https://evil.example.com' }),
      },
      'iss-mismatch',
    ],
    [
      'an error response with a wrong iss (not even its error is trusted)',
      { redirect: (p) => ({ error: 'access_denied', state: p.get('state')!, iss: 'https://evil' }) },
      'iss-mismatch',
    ],
    ['a foreign state', { redirect: (_p, iss) => ({ code: 'c', state: 'forged', iss }) }, 'state-mismatch'],
    ['no code', { redirect: (p, iss) => ({ state: p.get('state')!, iss }) }, 'invalid-response'],
    [
      'a token response of another type',
      { token: () => json({ access_token: 'x', token_type: 'mac' }) },
      'invalid-response',
    ],
    [
      'an access token that could inject headers',
      { token: () => json({ access_token: 'x\r\nX-Evil: 1', token_type: 'Bearer' }) },
      'invalid-response',
    ],
    [
      'a token endpoint that redirects',
      { token: () => new Response(null, { status: 307, headers: { location: `${AS}/token2` } }) },
      'insecure',
    ],
    [
      'a registration without client_id',
      { register: () => json({ client_secret: 'x' }, 201) },
      'invalid-response',
    ],
    [
      'a registration of a secret method without a secret',
      { register: () => json({ client_id: 'x', token_endpoint_auth_method: 'client_secret_basic' }, 201) },
      'invalid-response',
    ],
  ];

  for (const [what, script, reason] of cases) {
    it(`refuses ${what} (${reason}), storing nothing and leaking nothing`, async () => {
      const w = world(script);
      const { post, store } = client(w);
      const error = await failure(post());
      expect(error).toBeInstanceOf(AuthorizationError);
      expect((error as AuthorizationError).reason).toBe(reason);
      expect(await store.get(`tokens ${MCP}`)).toBeUndefined();
      const message = `${error.message} ${String((error.cause as Error | undefined)?.message)}`;
      expect(message).not.toContain(SECRET);
      expect(message).not.toMatch(/code-\d/);
      if (
        reason === 'iss-mismatch' ||
        reason === 'state-mismatch' ||
        reason === 'issuer-mismatch' ||
        reason === 'resource-mismatch'
      ) {
        expect(w.forms).toEqual([]); // no code (or anything) went to a token endpoint
      }
      if (reason === 'resource-mismatch' || reason === 'issuer-mismatch') {
        expect(w.authorizations).toEqual([]);
        expect(w.registrations).toEqual([]);
      }
    });
  }

  it('passes on the server error of an authorization response once iss and state check out', async () => {
    const w = world({
      redirect: (p, iss) => ({
        error: 'access_denied',
        error_description: 'nope',
        state: p.get('state')!,
        iss,
      }),
    });
    const error = await failure(client(w).post());
    expect(error).toBeInstanceOf(OAuthError);
    expect((error as OAuthError).error).toBe('access_denied');
  });

  it('reports token endpoint errors as OAuthError and stores no tokens', async () => {
    const w = world({ token: () => json({ error: 'invalid_grant', error_description: 'bad code' }, 400) });
    const { post, store } = client(w);
    const error = await failure(post());
    expect(error).toBeInstanceOf(OAuthError);
    expect(error.message).toBe('invalid_grant: bad code');
    expect(await store.get(`tokens ${MCP}`)).toBeUndefined();
  });

  it('does not retry a refused non-interactive grant', async () => {
    const w = world({ token: () => json({ error: 'invalid_grant' }, 400) });
    const { post } = client(w, { grant: { type: 'jwt_bearer', issuer: AS, assertion: 'a.b.c' } });
    expect(await failure(post())).toBeInstanceOf(OAuthError);
    expect(await failure(post())).toBeInstanceOf(OAuthError);
    expect(w.forms).toHaveLength(1);
  });
});

describe('credentials bound to their authorization server', () => {
  it("never presents one server's client id to another, and registers again after a change", async () => {
    let current = AS;
    const w = world({ issuer: () => current });
    const { post, store } = client(w, {
      clients: [{ issuer: AS, clientId: 'pre-registered', clientSecret: SECRET }],
    });
    expect((await post()).status).toBe(200);
    expect(w.forms[0]!.get('client_id')).toBeNull(); // Basic authentication, as the server prefers
    current = AS2;
    w.valid.clear();
    expect((await post()).status).toBe(200);
    expect(w.registrations).toHaveLength(1);
    const at2 = w.authorizations[1]!;
    expect(at2.origin).toBe(AS2);
    expect(at2.searchParams.get('client_id')).toBe(`client-${AS2}`);
    expect(w.forms.at(-1)!.get('grant_type')).toBe('authorization_code'); // no refresh token sent to AS2
    expect(await store.get(`client ${AS2}`)).toMatchObject({ client_id: `client-${AS2}` });
    expect(await store.get(`client ${AS}`)).toBeUndefined();
  });

  it('says so when the server moved to an authorization server it has no way to register with', async () => {
    const w = world({
      issuer: () => AS2,
      metadata: (iss) => ({
        issuer: iss,
        authorization_endpoint: `${iss}/authorize`,
        token_endpoint: `${iss}/token`,
        code_challenge_methods_supported: ['S256'],
      }),
    });
    const error = await failure(
      client(w, { clients: [{ issuer: AS, clientId: 'pre', clientSecret: SECRET }] }).post(),
    );
    expect((error as AuthorizationError).reason).toBe('registration');
    expect(error.message).toContain(AS);
    expect(error.message).not.toContain(SECRET);
  });
});

describe('discovery targets', () => {
  async function refusedWith(
    w: World,
    options: Partial<OAuthClientOptions> = {},
  ): Promise<AuthorizationError> {
    const error = await failure(client(w, options).post());
    const cause = error instanceof AuthorizationError ? error : error.cause;
    expect(cause).toBeInstanceOf(AuthorizationError);
    return cause as AuthorizationError;
  }

  it('refuses a resource_metadata URL on another origin than the MCP server, without fetching it', async () => {
    const w = world({
      challenge: () => 'Bearer resource_metadata="https://evil.example/.well-known/oauth-protected-resource"',
    });
    expect((await refusedWith(w)).reason).toBe('blocked-target');
    expect(w.log.some((line) => line.includes('evil.example'))).toBe(false);
  });

  it('refuses authorization servers on loopback, private or link-local addresses for a remote MCP server', async () => {
    for (const target of [
      'http://localhost:8080',
      'http://127.0.0.1:9000',
      'https://169.254.169.254',
      'https://10.1.2.3',
      'https://[::1]',
      'https://[fd00::1]',
      'https://[::ffff:192.168.0.1]',
    ]) {
      const w = world({ issuer: () => target });
      expect((await refusedWith(w)).reason).toBe('blocked-target');
      expect(w.log.some((line) => line.includes(new URL(target).host))).toBe(false);
    }
  });

  it('checks the addresses a name resolves to, and lets allowPrivateNetworks opt in', async () => {
    const resolved: string[] = [];
    const lookup = async (host: string) => {
      resolved.push(host);
      return host === 'auth.example.com' ? ['10.0.0.7'] : ['93.184.215.14'];
    };
    const w = world();
    expect((await refusedWith(w, { lookup })).reason).toBe('blocked-target');
    expect(resolved).toContain('auth.example.com');
    expect(w.log.some((line) => line.includes('auth.example.com'))).toBe(false);

    const open = world();
    expect((await client(open, { lookup, allowPrivateNetworks: true }).post()).status).toBe(200);
  });
});

describe('non-interactive grants', () => {
  it('client credentials with private_key_jwt: an assertion jose accepts, for the issuer', async () => {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const w = world();
    const { post } = client(w, {
      grant: {
        type: 'client_credentials',
        issuer: AS,
        credentials: { clientId: 'svc', privateKey, authMethod: 'private_key_jwt' },
      },
    });
    expect((await post()).status).toBe(200);
    const form = w.forms[0]!;
    expect(form.get('grant_type')).toBe('client_credentials');
    expect(form.get('client_assertion_type')).toBe('urn:ietf:params:oauth:client-assertion-type:jwt-bearer');
    const { payload } = await jose.jwtVerify(form.get('client_assertion')!, publicKey, {
      audience: AS,
      issuer: 'svc',
      subject: 'svc',
    });
    expect(typeof payload.jti).toBe('string');
    expect(form.get('resource')).toBe(MCP);
    expect(w.authorizations).toEqual([]);
    expect(w.registrations).toEqual([]);
  });

  it('never sends grant credentials to an authorization server they are not bound to', async () => {
    const grants: OAuthClientOptions['grant'][] = [
      { type: 'client_credentials', issuer: AS, credentials: { clientId: 'svc', clientSecret: SECRET } },
      { type: 'jwt_bearer', issuer: [AS], assertion: 'the-workload-assertion' },
      {
        type: 'id_jag',
        issuer: AS,
        idpTokenEndpoint: 'https://idp.example.com/token',
        idToken: 'the-id-token',
        credentials: { clientId: 'xaa', clientSecret: SECRET },
      },
    ];
    for (const grant of grants) {
      // The MCP server's metadata names the attacker's authorization server (AS2).
      const w = world({ issuer: () => AS2 });
      const sent: string[] = [];
      const fetch: FetchLike = async (url, init) => {
        sent.push(`${url.href} ${String(init.body ?? '')} ${new Headers(init.headers).get('authorization')}`);
        return w.fetch(url, init);
      };
      const oauth = new OAuthClient({ fetch, grant });
      const send = oauth.wrapFetch(fetch, new URL(MCP));
      const error = await failure(send(new URL(MCP), { method: 'POST', body: '{}' }));
      const refusal = error instanceof AuthorizationError ? error : error.cause;
      expect(refusal).toBeInstanceOf(AuthorizationError);
      expect((refusal as AuthorizationError).reason).toBe('untrusted-issuer');
      expect(w.forms).toEqual([]);
      const leaked = sent.join('\n');
      for (const secret of [SECRET, 'the-workload-assertion', 'the-id-token', 'c3Zj']) {
        expect(leaked).not.toContain(secret);
      }
      expect(sent.some((line) => line.startsWith('https://idp.example.com'))).toBe(false);
    }
  });

  it('a grant bound to several issuers uses the one the server lists, with Basic whatever the metadata says', async () => {
    const w = world({
      issuer: () => AS2,
      metadata: (iss) => ({
        issuer: iss,
        token_endpoint: `${iss}/token`,
        response_types_supported: ['code'],
        // A hostile metadata would like the secret in the body, or no authentication at all.
        token_endpoint_auth_methods_supported: ['none', 'client_secret_post'],
      }),
    });
    const { post } = client(w, {
      grant: {
        type: 'client_credentials',
        issuer: [AS, AS2],
        credentials: { clientId: 'svc', clientSecret: SECRET },
      },
    });
    expect((await post()).status).toBe(200);
    expect(w.forms[0]!.get('client_secret')).toBeNull();
    expect(w.authorizationHeaders[0]).toBe(`Basic ${Buffer.from(`svc:${SECRET}`).toString('base64')}`);
    expect(w.log.some((line) => line === `POST ${AS2}/token`)).toBe(true);
  });

  it('refuses a grant without an issuer', () => {
    const grant = { type: 'client_credentials', credentials: { clientId: 'svc', clientSecret: SECRET } };
    expect(() => new OAuthClient({ grant: grant as unknown as OAuthClientOptions['grant'] })).toThrow(
      /issuer/,
    );
  });

  it('an ID-JAG exchange at the identity provider, then the JWT bearer grant', async () => {
    const w = world();
    const idp: string[] = [];
    const fetch: FetchLike = async (url, init) => {
      if (url.origin === 'https://idp.example.com') {
        idp.push(String(init.body));
        return json({
          access_token: 'the-id-jag',
          issued_token_type: 'urn:ietf:params:oauth:token-type:id-jag',
          token_type: 'N_A',
        });
      }
      return w.fetch(url, init);
    };
    const oauth = new OAuthClient({
      fetch,
      grant: {
        type: 'id_jag',
        issuer: AS,
        idpTokenEndpoint: 'https://idp.example.com/token',
        idToken: 'the-id-token',
        credentials: { clientId: 'xaa', clientSecret: SECRET },
      },
    });
    const send = oauth.wrapFetch(w.fetch, new URL(MCP));
    expect((await send(new URL(MCP), { method: 'POST', body: '{}' })).status).toBe(200);
    expect(Object.fromEntries(new URLSearchParams(idp[0]))).toMatchObject({
      grant_type: 'urn:ietf:params:oauth:grant-type:token-exchange',
      requested_token_type: 'urn:ietf:params:oauth:token-type:id-jag',
      subject_token: 'the-id-token',
      subject_token_type: 'urn:ietf:params:oauth:token-type:id_token',
      audience: AS,
      resource: MCP,
    });
    expect(Object.fromEntries(w.forms[0]!)).toMatchObject({
      grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer',
      assertion: 'the-id-jag',
    });
  });
});

describe('DPoP (RFC 9449)', () => {
  it('binds tokens when the server challenges with DPoP, with fresh proofs and the nonces servers ask for', async () => {
    const proofs: { where: string; proof: string; authorization: string | null }[] = [];
    let asNonceAsked = false;
    let rsNonceAsked = false;
    const w = world({
      challenge: () =>
        'DPoP resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource/mcp"',
      metadata: (iss) => ({
        issuer: iss,
        authorization_endpoint: `${iss}/authorize`,
        token_endpoint: `${iss}/token`,
        registration_endpoint: `${iss}/register`,
        code_challenge_methods_supported: ['S256'],
        dpop_signing_alg_values_supported: ['ES256'],
      }),
      token: (form, headers) => {
        const proof = headers.get('dpop');
        proofs.push({ where: 'token', proof: proof ?? '', authorization: null });
        if (!asNonceAsked) {
          asNonceAsked = true;
          return json({ error: 'use_dpop_nonce' }, 400, { 'dpop-nonce': 'as-nonce-1' });
        }
        if (form.get('grant_type') !== 'authorization_code') return undefined;
        w.valid.set('dpop-bound', ['mcp:basic']);
        return json({ access_token: 'dpop-bound', token_type: 'DPoP', expires_in: 60 });
      },
    });
    const original = w.fetch;
    w.fetch = async (url, init) => {
      const headers = new Headers(init.headers);
      if (url.href === MCP && headers.get('authorization')?.startsWith('DPoP ')) {
        proofs.push({
          where: 'mcp',
          proof: headers.get('dpop') ?? '',
          authorization: headers.get('authorization'),
        });
        if (!rsNonceAsked) {
          rsNonceAsked = true;
          return json({ error: 'use_dpop_nonce' }, 401, {
            'www-authenticate': 'DPoP error="use_dpop_nonce"',
            'dpop-nonce': 'rs-nonce-1',
          });
        }
        return json({ jsonrpc: '2.0', id: 1, result: {} });
      }
      return original(url, init);
    };
    const { post } = client(w);
    expect((await post()).status).toBe(200);
    expect((await post()).status).toBe(200);

    const decoded = await Promise.all(
      proofs.map(async ({ where, proof, authorization }) => {
        const header = jose.decodeProtectedHeader(proof);
        expect(header.typ).toBe('dpop+jwt');
        expect((header.jwk as Record<string, unknown>).d).toBeUndefined();
        const { payload } = await jose.jwtVerify(
          proof,
          await jose.importJWK(header.jwk as jose.JWK, 'ES256'),
        );
        return {
          where,
          payload,
          authorization,
          thumbprint: await jose.calculateJwkThumbprint(header.jwk as jose.JWK),
        };
      }),
    );
    expect(decoded.map((d) => [d.where, d.payload.nonce])).toEqual([
      ['token', undefined],
      ['token', 'as-nonce-1'],
      ['mcp', undefined],
      ['mcp', 'rs-nonce-1'],
      ['mcp', 'rs-nonce-1'],
    ]);
    expect(decoded[1]!.payload).toMatchObject({ htm: 'POST', htu: `${AS}/token` });
    expect(decoded[2]!.payload).toMatchObject({ htm: 'POST', htu: MCP });
    expect(decoded[2]!.payload.ath).toBe(
      Buffer.from(await crypto.subtle.digest('SHA-256', Buffer.from('dpop-bound'))).toString('base64url'),
    );
    expect(decoded[2]!.authorization).toBe('DPoP dpop-bound');
    expect(new Set(decoded.map((d) => d.payload.jti)).size).toBe(decoded.length); // a fresh proof every time
    expect(new Set(decoded.map((d) => d.thumbprint)).size).toBe(1); // one key
  });

  it('stays with Bearer tokens when the authorization server does not offer DPoP', async () => {
    const w = world({
      challenge: () =>
        'DPoP resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource/mcp"',
    });
    const seen: (string | null)[] = [];
    const original = w.fetch;
    w.fetch = async (url, init) => {
      if (url.pathname === '/token') seen.push(new Headers(init.headers).get('dpop'));
      return original(url, init);
    };
    const { post } = client(w);
    expect((await post()).status).toBe(200);
    expect(seen).toEqual([null]);
  });
});

describe('configuration', () => {
  it('refuses a client metadata URL that is not https with a path, and a flow without an authorize handler', async () => {
    expect(() => new OAuthClient({ clientMetadataUrl: 'http://app.example/c.json' })).toThrow(/https/);
    expect(() => new OAuthClient({ clientMetadataUrl: 'https://app.example/' })).toThrow(/path/);
    const w = world();
    const oauth = new OAuthClient({ fetch: w.fetch, redirectUri: REDIRECT });
    const error = await failure(
      oauth.wrapFetch(w.fetch, new URL(MCP))(new URL(MCP), { method: 'POST', body: '{}' }),
    );
    expect((error as AuthorizationError).reason).toBe('interaction');
  });
});
