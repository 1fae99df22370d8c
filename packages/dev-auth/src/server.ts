/**
 * A small, spec-compliant OAuth 2.1 authorization server for local development, tests and examples, as a
 * web-standard `(Request) => Promise<Response>` handler.
 *
 * - Authorization code grant with PKCE (S256 only), exact redirect URI matching (any port for loopback IP
 *   literals), `iss` in every authorization response (RFC 9207), single-use codes (a replayed code revokes
 *   what it issued), an auto-approve mode for unattended tests and a one-page consent form otherwise.
 * - Client credentials grant; refresh tokens with rotation (a reused refresh token revokes its family).
 * - Clients: pre-registered, Dynamic Client Registration (RFC 7591) and Client ID Metadata Documents.
 *   Client authentication: `none`, `client_secret_basic`, `client_secret_post`, `private_key_jwt`.
 * - JWT access tokens (RFC 9068) whose `aud` is the requested `resource` (RFC 8707), signed with a key
 *   published at the JWKS endpoint; token introspection (RFC 7662) and revocation (RFC 7009).
 * - Metadata (RFC 8414, and the OpenID Connect discovery variants) with `code_challenge_methods_supported`,
 *   `client_id_metadata_document_supported` and `authorization_response_iss_parameter_supported`.
 * - Token responses carry `Cache-Control: no-store`.
 *
 * It keeps everything in memory and authenticates no user: a development tool, not a production server.
 */
import { createHash, generateKeyPairSync, randomUUID, timingSafeEqual, type KeyObject } from 'node:crypto';
import type { JsonObject } from 'mcpengine/protocol';
import {
  decodeJwt,
  defaultAlgorithm,
  exportPublicJwk,
  importPrivateKey,
  importPublicJwk,
  jwkThumbprint,
  JwtError,
  OAUTH_WELL_KNOWN,
  OIDC_WELL_KNOWN,
  parseBasicCredentials,
  randomToken,
  RemoteJwks,
  sameResource,
  scopesOfClaims,
  signJwt,
  verifyJwt,
  verifyPkce,
  type AuthorizationServerMetadata,
  type Jwk,
  type JwsAlgorithm,
} from 'mcpengine/auth';
import {
  ClientRegistry,
  RegistrationError,
  redirectUriMatches,
  type DevClient,
  type KnownClient,
  clientFetchOptions,
  type CimdPolicy,
} from './clients.js';
import { consentPage, errorPage, PAGE_HEADERS } from './pages.js';

/** Authorization requests waiting on the consent page at most (each expires after 5 minutes). */
const MAX_PENDING_CONSENTS = 1_000;
/** Client assertion `jti`s remembered at most, and the longest assertion lifetime accepted. */
const MAX_REMEMBERED_ASSERTIONS = 10_000;
const MAX_ASSERTION_LIFETIME_MS = 10 * 60_000;

export interface DevAuthServerOptions {
  /** The issuer identifier: `http(s)://host[:port][/path]`, no trailing slash, no query. */
  issuer: string;
  /** Approve every valid authorization request at once, as `subject`. Default false (a consent page). */
  autoApprove?: boolean;
  /** The user the server pretends is logged in. Default `dev-user`. */
  subject?: string;
  /** Pre-registered clients. */
  clients?: readonly DevClient[];
  /** `scopes_supported`; requests for other scopes are refused. Default: any scope is accepted. */
  scopes?: readonly string[];
  /** Resource indicators the server issues tokens for; default any absolute URI. */
  resources?: readonly string[];
  /** The audience of tokens requested without `resource`. Default: the issuer itself. */
  defaultResource?: string;
  /** Access token lifetime. Default 1 hour. */
  accessTokenTtlSec?: number;
  /** Refresh token lifetime. Default 30 days. */
  refreshTokenTtlSec?: number;
  /** Authorization code lifetime. Default 60 s. */
  codeTtlSec?: number;
  /** Token signing key (private): KeyObject, PEM or JWK. Default: a fresh P-256 key (ES256). */
  signingKey?: KeyObject | string | Jwk;
  signingAlgorithm?: JwsAlgorithm;
  /** Dynamic Client Registration. Default true. */
  dynamicRegistration?: boolean;
  /** How long a dynamic registration lives. Default 24 hours; at most 10,000 live at once. */
  registrationTtlMs?: number;
  /**
   * Fetches on a client's word — Client ID Metadata Documents and registered `jwks_uri`s: `allowHttp` and
   * `allowPrivateNetworks` for local tests. Default: https only, never to loopback, private or link-local
   * addresses (checked by name, literal and resolved address). `loopbackDocuments` (development mode, the CLI's
   * `--cimd-loopback`) accepts client ids on a loopback host, http included, and nothing else.
   */
  clientMetadataDocuments?: CimdPolicy;
  /** Accepted `Host` header values; default the issuer's host plus localhost/127.0.0.1/[::1] on its port. */
  allowedHosts?: readonly string[];
}

interface CodeGrant {
  clientId: string;
  redirectUri: string;
  challenge: string;
  scopes: string[];
  resource: string | undefined;
  subject: string;
  expiresAt: number;
  used: boolean;
  /** Tokens issued with this code, revoked if it is replayed. */
  issued: { jtis: string[]; family: string | undefined };
}

interface RefreshGrant {
  clientId: string;
  subject: string;
  scopes: string[];
  resource: string | undefined;
  family: string;
  expiresAt: number;
  used: boolean;
}

interface PendingConsent {
  params: AuthorizationParams;
  client: KnownClient;
  expiresAt: number;
}

interface AuthorizationParams {
  clientId: string;
  redirectUri: string;
  state: string | undefined;
  scopes: string[];
  resource: string | undefined;
  challenge: string;
}

class OAuthFailure extends Error {
  constructor(
    readonly error: string,
    readonly description: string,
    readonly status = 400,
    readonly headers: Record<string, string> = {},
  ) {
    super(description);
  }
}

const TOKEN_HEADERS = { 'content-type': 'application/json', 'cache-control': 'no-store', pragma: 'no-cache' };
const MAX_FORM_BYTES = 64 * 1024;
const SCOPE_TOKEN = /^[\x21\x23-\x5B\x5D-\x7E]+$/;

function hash(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('base64url');
}

function equalSecrets(a: string, b: string): boolean {
  const left = createHash('sha256').update(a).digest();
  const right = createHash('sha256').update(b).digest();
  return timingSafeEqual(left, right);
}

function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  });
}

function oauthErrorResponse(failure: OAuthFailure): Response {
  return json(
    failure.status,
    { error: failure.error, error_description: failure.description },
    { ...TOKEN_HEADERS, ...failure.headers },
  );
}

function html(status: number, body: string): Response {
  return new Response(body, { status, headers: PAGE_HEADERS });
}

async function readForm(request: Request): Promise<URLSearchParams> {
  const type = (request.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/x-www-form-urlencoded') {
    throw new OAuthFailure('invalid_request', 'The body must be application/x-www-form-urlencoded');
  }
  const text = await readBody(request);
  return new URLSearchParams(text);
}

async function readBody(request: Request): Promise<string> {
  const declared = Number(request.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > MAX_FORM_BYTES)
    throw new OAuthFailure('invalid_request', 'The body is too large', 413);
  const buffer = await request.arrayBuffer();
  if (buffer.byteLength > MAX_FORM_BYTES)
    throw new OAuthFailure('invalid_request', 'The body is too large', 413);
  return new TextDecoder().decode(buffer);
}

/** A single-valued parameter: undefined when absent, an error when repeated (RFC 6749 §3.1, §3.2). */
function single(params: URLSearchParams, name: string): string | undefined {
  const values = params.getAll(name);
  if (values.length > 1) throw new OAuthFailure('invalid_request', `"${name}" is repeated`);
  return values[0];
}

function splitScopes(scope: string | undefined): string[] {
  if (scope === undefined || scope === '') return [];
  const scopes = scope.split(' ').filter((s) => s.length > 0);
  if (scopes.some((s) => !SCOPE_TOKEN.test(s)))
    throw new OAuthFailure('invalid_scope', 'The scope is malformed');
  return [...new Set(scopes)];
}

export class DevAuthorizationServer {
  readonly issuer: string;
  readonly metadata: AuthorizationServerMetadata;
  readonly #options: DevAuthServerOptions;
  readonly #prefix: string;
  readonly #origin: string;
  readonly #key: KeyObject;
  readonly #alg: JwsAlgorithm;
  readonly #kid: string;
  readonly #jwks: { keys: Jwk[] };
  readonly #clients: ClientRegistry;
  readonly #codes = new Map<string, CodeGrant>();
  readonly #refresh = new Map<string, RefreshGrant>();
  readonly #revokedFamilies = new Set<string>();
  /** Access tokens issued and not expired, by jti: what introspection and revocation know. */
  readonly #accessTokens = new Map<string, { expiresAt: number; revoked: boolean }>();
  readonly #consents = new Map<string, PendingConsent>();
  /** `jti`s of client assertions already used (replay protection), until they expire. */
  readonly #assertions = new Map<string, number>();
  readonly #clientKeys = new Map<string, RemoteJwks>();
  readonly #hosts: ReadonlySet<string>;

  constructor(options: DevAuthServerOptions) {
    const issuer = new URL(options.issuer);
    if (issuer.search !== '' || issuer.hash !== '' || options.issuer.endsWith('/')) {
      throw new TypeError(
        'DevAuthorizationServer: the issuer must have no query, fragment or trailing slash',
      );
    }
    this.#options = options;
    this.issuer = options.issuer;
    this.#origin = issuer.origin;
    this.#prefix = issuer.pathname === '/' ? '' : issuer.pathname;
    if (options.signingKey !== undefined) {
      this.#key = importPrivateKey(options.signingKey);
    } else {
      this.#key = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey;
    }
    this.#alg = options.signingAlgorithm ?? defaultAlgorithm(this.#key);
    const publicJwk = exportPublicJwk(this.#key, { alg: this.#alg });
    this.#kid = jwkThumbprint(publicJwk);
    this.#jwks = { keys: [{ ...publicJwk, kid: this.#kid }] };
    const methods = ['none', 'client_secret_basic', 'client_secret_post', 'private_key_jwt'];
    this.#clients = new ClientRegistry({
      clients: options.clients ?? [],
      supportedMethods: methods,
      cimd: options.clientMetadataDocuments ?? {},
      ...(options.registrationTtlMs === undefined ? {} : { registrationTtlMs: options.registrationTtlMs }),
    });
    const port = issuer.port;
    this.#hosts = new Set(
      options.allowedHosts ?? [
        issuer.host,
        ...['localhost', '127.0.0.1', '[::1]'].map((h) => (port ? `${h}:${port}` : h)),
      ],
    );
    const base = `${this.issuer}`;
    const metadata: AuthorizationServerMetadata = {
      issuer: this.issuer,
      authorization_endpoint: `${base}/authorize`,
      token_endpoint: `${base}/token`,
      jwks_uri: `${base}/jwks`,
      introspection_endpoint: `${base}/introspect`,
      revocation_endpoint: `${base}/revoke`,
      response_types_supported: ['code'],
      response_modes_supported: ['query'],
      grant_types_supported: ['authorization_code', 'refresh_token', 'client_credentials'],
      code_challenge_methods_supported: ['S256'],
      token_endpoint_auth_methods_supported: methods,
      token_endpoint_auth_signing_alg_values_supported: ['RS256', 'PS256', 'ES256', 'ES384', 'EdDSA'],
      introspection_endpoint_auth_methods_supported: [
        'client_secret_basic',
        'client_secret_post',
        'private_key_jwt',
      ],
      revocation_endpoint_auth_methods_supported: methods,
      client_id_metadata_document_supported: options.clientMetadataDocuments?.enabled !== false,
      authorization_response_iss_parameter_supported: true,
      // OpenID Connect discovery consumers expect these.
      subject_types_supported: ['public'],
      id_token_signing_alg_values_supported: [this.#alg],
    };
    if (options.dynamicRegistration !== false) metadata.registration_endpoint = `${base}/register`;
    if (options.scopes !== undefined) metadata.scopes_supported = [...options.scopes];
    this.metadata = Object.freeze(metadata);
  }

  /** The public keys tokens are signed with. */
  get jwks(): { keys: Jwk[] } {
    return this.#jwks;
  }

  /** Adds a client after start (tests). */
  addClient(client: DevClient): void {
    this.#clients.add(client);
  }

  /** Issues an access token directly (tests and scripts). */
  issueAccessToken(grant: {
    subject?: string;
    clientId: string;
    scopes?: readonly string[];
    resource?: string;
    ttlSec?: number;
  }): string {
    return this.#accessToken(
      grant.clientId,
      grant.subject ?? this.#options.subject ?? 'dev-user',
      [...(grant.scopes ?? [])],
      grant.resource,
      grant.ttlSec,
    ).token;
  }

  /** The web-standard handler. */
  readonly handle = async (request: Request): Promise<Response> => {
    const url = new URL(request.url);
    const host = request.headers.get('host') ?? url.host;
    if (!this.#hosts.has(host.toLowerCase())) {
      return html(403, errorPage('Forbidden', 'This host name is not served here.'));
    }
    this.#sweep();
    try {
      return await this.#route(request, url);
    } catch (error) {
      if (error instanceof OAuthFailure) return oauthErrorResponse(error);
      return json(500, { error: 'server_error', error_description: 'Internal error' }, TOKEN_HEADERS);
    }
  };

  async #route(request: Request, url: URL): Promise<Response> {
    const path = url.pathname;
    const method = request.method;
    const metadataPaths = [
      `${OAUTH_WELL_KNOWN}${this.#prefix}`,
      `${OIDC_WELL_KNOWN}${this.#prefix}`,
      `${this.#prefix}${OIDC_WELL_KNOWN}`,
    ];
    if (metadataPaths.includes(path)) {
      if (method !== 'GET' && method !== 'HEAD')
        return new Response(null, { status: 405, headers: { allow: 'GET' } });
      return json(200, this.metadata, { 'cache-control': 'max-age=60', 'access-control-allow-origin': '*' });
    }
    if (!path.startsWith(`${this.#prefix}/`)) return json(404, { error: 'not_found' });
    const endpoint = path.slice(this.#prefix.length);
    switch (`${method} ${endpoint}`) {
      case 'GET /jwks':
        return json(200, this.#jwks, { 'cache-control': 'max-age=300', 'access-control-allow-origin': '*' });
      case 'GET /authorize':
        return this.#authorize(url.searchParams, url);
      case 'POST /authorize':
        return this.#decide(request, url);
      case 'POST /token':
        return this.#token(request);
      case 'POST /register':
        return this.#register(request);
      case 'POST /introspect':
        return this.#introspect(request);
      case 'POST /revoke':
        return this.#revoke(request);
      default:
        return json(404, { error: 'not_found' });
    }
  }

  #sweep(): void {
    const now = Date.now();
    for (const [key, code] of this.#codes) if (code.expiresAt + 600_000 < now) this.#codes.delete(key);
    for (const [key, grant] of this.#refresh) if (grant.expiresAt < now) this.#refresh.delete(key);
    for (const [key, consent] of this.#consents) if (consent.expiresAt < now) this.#consents.delete(key);
    for (const [jti, token] of this.#accessTokens) if (token.expiresAt < now) this.#accessTokens.delete(jti);
    for (const [jti, until] of this.#assertions) if (until < now) this.#assertions.delete(jti);
  }

  // ── authorization endpoint ──────────────────────────────────────────────────────────────────────────

  /** A redirect to the client with the response parameters and `iss` (RFC 9207), also for errors. */
  #redirect(redirectUri: string, params: Record<string, string | undefined>): Response {
    const target = new URL(redirectUri);
    for (const [name, value] of Object.entries(params))
      if (value !== undefined) target.searchParams.set(name, value);
    target.searchParams.set('iss', this.issuer);
    return new Response(null, {
      status: 302,
      headers: { location: target.href, 'cache-control': 'no-store' },
    });
  }

  async #authorize(query: URLSearchParams, url: URL): Promise<Response> {
    // Until client and redirect URI are known good, errors are shown, never redirected (RFC 6749 §4.1.2.1).
    let clientId: string | undefined;
    let redirectUri: string | undefined;
    try {
      clientId = single(query, 'client_id');
      redirectUri = single(query, 'redirect_uri');
    } catch {
      return html(400, errorPage('Invalid request', 'client_id and redirect_uri must appear once.'));
    }
    if (!clientId) return html(400, errorPage('Invalid request', 'The request has no client_id.'));
    let client: KnownClient | undefined;
    try {
      client = await this.#clients.find(clientId);
    } catch (error) {
      return html(
        400,
        errorPage('Unknown client', error instanceof Error ? error.message : 'The client is not valid.'),
      );
    }
    if (!client)
      return html(400, errorPage('Unknown client', 'No client is registered with this client_id.'));
    if (!redirectUri || !redirectUriMatches(redirectUri, client.redirect_uris)) {
      return html(
        400,
        errorPage('Invalid redirect URI', 'The redirect_uri is not registered for this client.'),
      );
    }
    let state: string | undefined;
    try {
      state = single(query, 'state');
      const params = this.#checkAuthorization(query, client, redirectUri, state);
      if (this.#options.autoApprove) return this.#approve(params);
      if (this.#consents.size >= MAX_PENDING_CONSENTS) {
        this.#sweep();
        if (this.#consents.size >= MAX_PENDING_CONSENTS)
          return html(
            503,
            errorPage('Busy', 'Too many authorizations are waiting for consent; try again later.'),
          );
      }
      const transaction = randomToken(24);
      this.#consents.set(transaction, { params, client, expiresAt: Date.now() + 300_000 });
      return html(
        200,
        consentPage({
          action: url.pathname,
          transaction,
          clientName: client.client_name ?? client.client_id,
          clientId: client.client_id,
          redirectHost: new URL(redirectUri).host || redirectUri,
          scopes: params.scopes,
          resource: params.resource,
        }),
      );
    } catch (error) {
      if (!(error instanceof OAuthFailure)) throw error;
      return this.#redirect(redirectUri, { error: error.error, error_description: error.description, state });
    }
  }

  #checkAuthorization(
    query: URLSearchParams,
    client: KnownClient,
    redirectUri: string,
    state: string | undefined,
  ): AuthorizationParams {
    const responseType = single(query, 'response_type');
    if (responseType !== 'code')
      throw new OAuthFailure('unsupported_response_type', 'Only response_type=code is supported');
    if (!client.grant_types.includes('authorization_code')) {
      throw new OAuthFailure('unauthorized_client', 'This client may not use the authorization code grant');
    }
    const challenge = single(query, 'code_challenge');
    const method = single(query, 'code_challenge_method');
    if (!challenge) throw new OAuthFailure('invalid_request', 'PKCE is required: send code_challenge');
    if (method !== 'S256') throw new OAuthFailure('invalid_request', 'code_challenge_method must be S256');
    if (!/^[A-Za-z0-9\-._~]{43,128}$/.test(challenge))
      throw new OAuthFailure('invalid_request', 'code_challenge is malformed');
    const scopes = this.#checkScopes(splitScopes(single(query, 'scope')), client);
    const resource = this.#checkResource(query.getAll('resource'));
    return { clientId: client.client_id, redirectUri, state, scopes, resource, challenge };
  }

  #checkScopes(scopes: string[], client: KnownClient): string[] {
    const supported = this.#options.scopes;
    if (supported) {
      const unknown = scopes.filter((s) => !supported.includes(s));
      if (unknown.length > 0) throw new OAuthFailure('invalid_scope', `Unknown scope: ${unknown.join(' ')}`);
    }
    // A configured client's `scope` limits it. A registered client's is informational: clients register with
    // today's scopes, and enforcing them would make step-up authorization impossible.
    if (client.scope !== undefined && client.source === 'configured') {
      const allowed = client.scope.split(' ');
      if (scopes.some((s) => !allowed.includes(s)))
        throw new OAuthFailure('invalid_scope', 'The client may not request this scope');
    }
    return scopes;
  }

  #checkResource(values: string[]): string | undefined {
    if (values.length === 0) return undefined;
    if (values.length > 1)
      throw new OAuthFailure('invalid_target', 'Only one resource per request is supported');
    const resource = values[0]!;
    let url: URL;
    try {
      url = new URL(resource);
    } catch {
      throw new OAuthFailure('invalid_target', 'The resource must be an absolute URI');
    }
    if (url.hash !== '') throw new OAuthFailure('invalid_target', 'The resource must not have a fragment');
    const allowed = this.#options.resources;
    if (allowed && !allowed.some((r) => sameResource(r, resource))) {
      throw new OAuthFailure(
        'invalid_target',
        'This authorization server issues no tokens for that resource',
      );
    }
    return resource;
  }

  #approve(params: AuthorizationParams): Response {
    const code = randomToken(32);
    this.#codes.set(hash(code), {
      clientId: params.clientId,
      redirectUri: params.redirectUri,
      challenge: params.challenge,
      scopes: params.scopes,
      resource: params.resource,
      subject: this.#options.subject ?? 'dev-user',
      expiresAt: Date.now() + (this.#options.codeTtlSec ?? 60) * 1000,
      used: false,
      issued: { jtis: [], family: undefined },
    });
    return this.#redirect(params.redirectUri, { code, state: params.state });
  }

  async #decide(request: Request, url: URL): Promise<Response> {
    const origin = request.headers.get('origin');
    if (origin !== null && origin !== this.#origin && origin !== url.origin) {
      return html(403, errorPage('Forbidden', "The decision must come from this server's page."));
    }
    let form: URLSearchParams;
    try {
      form = await readForm(request);
    } catch {
      return html(400, errorPage('Invalid request', 'The form could not be read.'));
    }
    const transaction = form.get('transaction') ?? '';
    const pending = this.#consents.get(transaction);
    this.#consents.delete(transaction);
    if (!pending || pending.expiresAt < Date.now()) {
      return html(
        400,
        errorPage('Expired', 'This authorization request has expired or was already answered.'),
      );
    }
    if (form.get('decision') !== 'approve') {
      return this.#redirect(pending.params.redirectUri, {
        error: 'access_denied',
        error_description: 'The user denied the request',
        state: pending.params.state,
      });
    }
    return this.#approve(pending.params);
  }

  // ── token endpoint ──────────────────────────────────────────────────────────────────────────────────

  /** Authenticates the client of a token, introspection or revocation request. */
  async #authenticateClient(request: Request, form: URLSearchParams, endpoint: string): Promise<KnownClient> {
    const authorization = request.headers.get('authorization');
    const basic = authorization === null ? undefined : parseBasicCredentials(authorization);
    if (authorization !== null && !basic) {
      throw new OAuthFailure('invalid_client', 'Unsupported client authentication', 401, {
        'www-authenticate': 'Basic realm="token"',
      });
    }
    const assertionType = single(form, 'client_assertion_type');
    const assertion = single(form, 'client_assertion');
    const postedSecret = single(form, 'client_secret');
    const used = [basic !== undefined, postedSecret !== undefined, assertion !== undefined].filter(
      Boolean,
    ).length;
    if (used > 1) throw new OAuthFailure('invalid_request', 'Use one client authentication method');
    const bodyId = single(form, 'client_id');
    const fail = () =>
      new OAuthFailure(
        'invalid_client',
        'Client authentication failed',
        401,
        basic ? { 'www-authenticate': 'Basic realm="token"' } : {},
      );

    if (assertion !== undefined) {
      if (assertionType !== 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer') throw fail();
      let claims;
      try {
        claims = decodeJwt(assertion).claims;
      } catch {
        throw fail();
      }
      const clientId = typeof claims.sub === 'string' ? claims.sub : undefined;
      if (!clientId || claims.iss !== clientId || (bodyId !== undefined && bodyId !== clientId)) throw fail();
      const client = await this.#clients.find(clientId).catch(() => undefined);
      if (!client || client.token_endpoint_auth_method !== 'private_key_jwt') throw fail();
      try {
        const verified = await verifyJwt(assertion, {
          audience: [this.issuer, `${this.issuer}/`, `${this.issuer}${endpoint}`],
          keys: (header) => this.#clientKeysFor(client, header.kid),
          clockSkewSec: 30,
        });
        const jti = verified.claims.jti;
        if (typeof jti !== 'string' || this.#assertions.has(`${clientId} ${jti}`)) throw fail();
        // A jti is remembered until its assertion expires: a far-future exp would pin it (and memory) forever.
        const exp = verified.claims.exp ?? 0;
        if (exp * 1000 > Date.now() + MAX_ASSERTION_LIFETIME_MS) throw fail();
        if (this.#assertions.size >= MAX_REMEMBERED_ASSERTIONS) this.#sweep();
        if (this.#assertions.size >= MAX_REMEMBERED_ASSERTIONS) throw fail();
        this.#assertions.set(`${clientId} ${jti}`, exp * 1000 + 60_000);
      } catch (error) {
        if (error instanceof OAuthFailure) throw error;
        throw fail();
      }
      return client;
    }
    const clientId = basic?.id ?? bodyId;
    if (clientId === undefined) throw fail();
    const client = await this.#clients.find(clientId).catch(() => undefined);
    if (!client) throw fail();
    const secret = basic?.secret ?? postedSecret;
    switch (client.token_endpoint_auth_method) {
      case 'none':
        if (secret !== undefined) throw fail();
        return client;
      case 'client_secret_basic':
      case 'client_secret_post': {
        const expected = client.token_endpoint_auth_method === 'client_secret_basic' ? basic : postedSecret;
        if (
          expected === undefined ||
          secret === undefined ||
          !equalSecrets(secret, client.client_secret ?? '')
        )
          throw fail();
        return client;
      }
      default:
        throw fail();
    }
  }

  async #clientKeysFor(client: KnownClient, kid: string | undefined): Promise<KeyObject[]> {
    const inline = (client.jwks?.keys ?? [])
      .filter((jwk) => kid === undefined || jwk.kid === undefined || jwk.kid === kid)
      .flatMap((jwk) => {
        try {
          return [importPublicJwk(jwk)];
        } catch {
          return [];
        }
      });
    if (inline.length > 0 || client.jwks_uri === undefined) return inline;
    let remote = this.#clientKeys.get(client.client_id);
    if (!remote) {
      remote = new RemoteJwks(client.jwks_uri, {
        timeoutMs: 5_000,
        ...clientFetchOptions(this.#options.clientMetadataDocuments ?? {}),
      });
      this.#clientKeys.set(client.client_id, remote);
    }
    return remote.keysFor({ alg: 'ES256', ...(kid !== undefined && { kid }) }).catch(() => []);
  }

  async #token(request: Request): Promise<Response> {
    const form = await readForm(request);
    const client = await this.#authenticateClient(request, form, '/token');
    const grantType = single(form, 'grant_type');
    let body: JsonObject;
    switch (grantType) {
      case 'authorization_code':
        body = this.#exchangeCode(form, client);
        break;
      case 'refresh_token':
        body = this.#refreshTokens(form, client);
        break;
      case 'client_credentials': {
        if (
          !client.grant_types.includes('client_credentials') ||
          client.token_endpoint_auth_method === 'none'
        ) {
          throw new OAuthFailure(
            'unauthorized_client',
            'This client may not use the client credentials grant',
          );
        }
        const scopes = this.#checkScopes(splitScopes(single(form, 'scope')), client);
        const resource = this.#checkResource(form.getAll('resource'));
        body = this.#tokenResponse(client, client.client_id, scopes, resource, undefined).body;
        break;
      }
      default:
        throw new OAuthFailure(
          'unsupported_grant_type',
          'Supported: authorization_code, refresh_token, client_credentials',
        );
    }
    return json(200, body, TOKEN_HEADERS);
  }

  #exchangeCode(form: URLSearchParams, client: KnownClient): JsonObject {
    const code = single(form, 'code');
    if (!code) throw new OAuthFailure('invalid_request', 'The request has no code');
    const key = hash(code);
    const grant = this.#codes.get(key);
    if (!grant || grant.clientId !== client.client_id)
      throw new OAuthFailure('invalid_grant', 'The code is invalid');
    if (grant.used) {
      // A replayed code: revoke everything it produced (OAuth 2.1 §4.1.3).
      for (const jti of grant.issued.jtis) this.#revokeAccess(jti);
      if (grant.issued.family) this.#revokedFamilies.add(grant.issued.family);
      throw new OAuthFailure('invalid_grant', 'The code was already used');
    }
    grant.used = true;
    if (grant.expiresAt < Date.now()) throw new OAuthFailure('invalid_grant', 'The code has expired');
    if (single(form, 'redirect_uri') !== grant.redirectUri)
      throw new OAuthFailure('invalid_grant', 'redirect_uri does not match');
    if (!verifyPkce(single(form, 'code_verifier'), grant.challenge)) {
      throw new OAuthFailure('invalid_grant', 'The code_verifier does not match the code_challenge');
    }
    const requested = form.getAll('resource');
    let resource = grant.resource;
    if (requested.length > 0) {
      const asked = this.#checkResource(requested);
      if (grant.resource !== undefined && asked !== undefined && !sameResource(asked, grant.resource)) {
        throw new OAuthFailure('invalid_target', 'The resource differs from the authorization request');
      }
      resource = asked;
    }
    const family = client.grant_types.includes('refresh_token') ? randomUUID() : undefined;
    const { body, jti } = this.#tokenResponse(client, grant.subject, grant.scopes, resource, family);
    grant.issued = { jtis: [jti], family };
    return body;
  }

  #refreshTokens(form: URLSearchParams, client: KnownClient): JsonObject {
    const token = single(form, 'refresh_token');
    if (!token) throw new OAuthFailure('invalid_request', 'The request has no refresh_token');
    const key = hash(token);
    const grant = this.#refresh.get(key);
    if (
      !grant ||
      grant.clientId !== client.client_id ||
      grant.expiresAt < Date.now() ||
      this.#revokedFamilies.has(grant.family)
    ) {
      throw new OAuthFailure('invalid_grant', 'The refresh token is invalid');
    }
    if (grant.used) {
      // Reuse of a rotated refresh token: someone else has it. Revoke the whole family.
      this.#revokedFamilies.add(grant.family);
      throw new OAuthFailure('invalid_grant', 'The refresh token was already used');
    }
    grant.used = true;
    const asked = splitScopes(single(form, 'scope'));
    if (asked.some((s) => !grant.scopes.includes(s)))
      throw new OAuthFailure('invalid_scope', 'A refresh cannot widen the scope');
    const requested = form.getAll('resource');
    if (requested.length > 0) {
      const resource = this.#checkResource(requested);
      if (grant.resource === undefined || resource === undefined || !sameResource(resource, grant.resource)) {
        throw new OAuthFailure('invalid_target', 'The resource differs from the original grant');
      }
    }
    return this.#tokenResponse(
      client,
      grant.subject,
      asked.length > 0 ? asked : grant.scopes,
      grant.resource,
      grant.family,
    ).body;
  }

  #accessToken(
    clientId: string,
    subject: string,
    scopes: string[],
    resource: string | undefined,
    ttlSec?: number,
  ) {
    const now = Math.floor(Date.now() / 1000);
    const ttl = ttlSec ?? this.#options.accessTokenTtlSec ?? 3600;
    const jti = randomUUID();
    const claims: JsonObject = {
      iss: this.issuer,
      sub: subject,
      aud: resource ?? this.#options.defaultResource ?? this.issuer,
      client_id: clientId,
      iat: now,
      exp: now + ttl,
      jti,
    };
    if (scopes.length > 0) claims.scope = scopes.join(' ');
    const token = signJwt(claims, this.#key, { alg: this.#alg, kid: this.#kid, typ: 'at+jwt' });
    this.#accessTokens.set(jti, { expiresAt: (now + ttl) * 1000, revoked: false });
    return { token, jti, ttl };
  }

  #tokenResponse(
    client: KnownClient,
    subject: string,
    scopes: string[],
    resource: string | undefined,
    family: string | undefined,
  ): { body: JsonObject; jti: string } {
    const access = this.#accessToken(client.client_id, subject, scopes, resource);
    const body: JsonObject = { access_token: access.token, token_type: 'Bearer', expires_in: access.ttl };
    if (scopes.length > 0) body.scope = scopes.join(' ');
    if (family !== undefined) {
      const refresh = randomToken(32);
      this.#refresh.set(hash(refresh), {
        clientId: client.client_id,
        subject,
        scopes,
        resource,
        family,
        expiresAt: Date.now() + (this.#options.refreshTokenTtlSec ?? 30 * 86_400) * 1000,
        used: false,
      });
      body.refresh_token = refresh;
    }
    return { body, jti: access.jti };
  }

  #revokeAccess(jti: string): void {
    const token = this.#accessTokens.get(jti);
    if (token) token.revoked = true;
  }

  // ── registration, introspection, revocation ─────────────────────────────────────────────────────────

  async #register(request: Request): Promise<Response> {
    if (this.#options.dynamicRegistration === false) return json(404, { error: 'not_found' });
    const type = (request.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
    if (type !== 'application/json') {
      return json(
        400,
        { error: 'invalid_client_metadata', error_description: 'The body must be JSON' },
        TOKEN_HEADERS,
      );
    }
    let body: unknown;
    try {
      body = JSON.parse(await readBody(request));
    } catch (error) {
      if (error instanceof OAuthFailure) throw error;
      return json(
        400,
        { error: 'invalid_client_metadata', error_description: 'The body is not JSON' },
        TOKEN_HEADERS,
      );
    }
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      return json(
        400,
        { error: 'invalid_client_metadata', error_description: 'The body must be a JSON object' },
        TOKEN_HEADERS,
      );
    }
    let client: KnownClient;
    try {
      client = this.#clients.register(body as Record<string, unknown>);
    } catch (error) {
      if (!(error instanceof RegistrationError)) throw error;
      return json(400, { error: error.error, error_description: error.message }, TOKEN_HEADERS);
    }
    const answer: JsonObject = {
      client_id: client.client_id,
      client_id_issued_at: Math.floor(Date.now() / 1000),
      redirect_uris: client.redirect_uris,
      grant_types: client.grant_types,
      response_types: ['code'],
      token_endpoint_auth_method: client.token_endpoint_auth_method,
    };
    if (client.client_secret !== undefined) {
      answer.client_secret = client.client_secret;
      answer.client_secret_expires_at = 0;
    }
    if (client.client_name !== undefined) answer.client_name = client.client_name;
    if (client.application_type !== undefined) answer.application_type = client.application_type;
    if (client.scope !== undefined) answer.scope = client.scope;
    return json(201, answer, TOKEN_HEADERS);
  }

  /** The claims of an access token this server issued and that is still active. */
  async #activeToken(token: string): Promise<Record<string, unknown> | undefined> {
    try {
      const decoded = await verifyJwt(token, {
        issuer: this.issuer,
        keys: () => [this.#key],
        algorithms: [this.#alg],
      });
      const jti = decoded.claims.jti;
      const known = typeof jti === 'string' ? this.#accessTokens.get(jti) : undefined;
      if (!known || known.revoked) return undefined;
      return decoded.claims;
    } catch (error) {
      if (error instanceof JwtError) return undefined;
      throw error;
    }
  }

  async #introspect(request: Request): Promise<Response> {
    const form = await readForm(request);
    const client = await this.#authenticateClient(request, form, '/introspect');
    if (client.token_endpoint_auth_method === 'none') {
      throw new OAuthFailure('invalid_client', 'Introspection needs an authenticated client', 401);
    }
    const token = single(form, 'token') ?? '';
    const claims = await this.#activeToken(token);
    if (!claims) return json(200, { active: false }, TOKEN_HEADERS);
    const answer: JsonObject = { active: true, token_type: 'Bearer' };
    for (const name of ['iss', 'sub', 'aud', 'client_id', 'exp', 'iat', 'jti', 'scope']) {
      if (claims[name] !== undefined) answer[name] = claims[name] as JsonObject[string];
    }
    if (answer.scope === undefined && scopesOfClaims(claims).length > 0)
      answer.scope = scopesOfClaims(claims).join(' ');
    return json(200, answer, TOKEN_HEADERS);
  }

  async #revoke(request: Request): Promise<Response> {
    const form = await readForm(request);
    const client = await this.#authenticateClient(request, form, '/revoke');
    const token = single(form, 'token') ?? '';
    const refresh = this.#refresh.get(hash(token));
    if (refresh && refresh.clientId === client.client_id) this.#revokedFamilies.add(refresh.family);
    const claims = await this.#activeToken(token);
    if (claims && claims.client_id === client.client_id && typeof claims.jti === 'string')
      this.#revokeAccess(claims.jti);
    return new Response(null, { status: 200, headers: { 'cache-control': 'no-store' } });
  }
}
