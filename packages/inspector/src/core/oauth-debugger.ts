/**
 * The OAuth debugger: walks MCP authorization one step at a time against an HTTP server, showing every HTTP
 * exchange and judging it against the specification (MCP 2025-11-25 "Authorization", and the 2026-07-28 pages
 * for RFC 9207 `iss` validation):
 *
 *   1. challenge — an unauthenticated `initialize`; a protected server answers 401 with a `WWW-Authenticate`
 *      challenge naming its `resource_metadata`;
 *   2. resource metadata (RFC 9728), from the challenge or the well-known URLs in order;
 *   3. authorization server metadata (RFC 8414 / OIDC discovery, in the order MCP lists);
 *   4. registration: a pre-registered client id, or Dynamic Client Registration (RFC 7591); a Client ID
 *      Metadata Document needs an https URL the inspector cannot serve, so it is reported, not used;
 *   5. authorization with PKCE S256, `state` and the `resource` indicator (RFC 8707): the user opens the
 *      authorization page; the server redirects to the inspector's loopback callback;
 *   6. token: the code for tokens (`code_verifier`, `resource`), the access token's `aud` and `iss` checked;
 *   7. refresh, when a refresh token was issued;
 *   8. the MCP request again, with the token.
 *
 * Tokens and codes are shown shortened in the exchanges; JWT claims are shown decoded (never the signature).
 * Nothing is written to disk.
 */
import { createHash, randomBytes } from 'node:crypto';
import {
  authorizationServerMetadataCandidates,
  bearerChallengeOf,
  isLoopbackHost,
  isPrivateAddress,
  protectedResourceMetadataCandidates,
} from 'mcpengine/auth';

type Json = { [key: string]: unknown };
type FetchLike = (url: URL, init: RequestInit) => Promise<Response>;

export type StepName =
  | 'challenge'
  | 'resource-metadata'
  | 'authorization-server-metadata'
  | 'registration'
  | 'authorization'
  | 'token'
  | 'refresh'
  | 'authorized-request';

export const OAUTH_STEPS: readonly { name: StepName; title: string }[] = [
  { name: 'challenge', title: 'Unauthenticated request and its 401 challenge' },
  { name: 'resource-metadata', title: 'Protected resource metadata (RFC 9728)' },
  { name: 'authorization-server-metadata', title: 'Authorization server metadata (RFC 8414)' },
  { name: 'registration', title: 'Client registration' },
  { name: 'authorization', title: 'Authorization request with PKCE (S256)' },
  { name: 'token', title: 'Token request' },
  { name: 'refresh', title: 'Refresh' },
  { name: 'authorized-request', title: 'The MCP request with the token' },
];

const SPEC = 'https://modelcontextprotocol.io/specification/2025-11-25/basic/authorization';
const SPEC_ISS = 'https://modelcontextprotocol.io/specification/2026-07-28/basic/authorization';
const REF = {
  discovery: `${SPEC}#protected-resource-metadata-discovery-requirements`,
  asDiscovery: `${SPEC}#authorization-server-metadata-discovery`,
  registration: `${SPEC}#client-registration-approaches`,
  pkce: `${SPEC}#authorization-code-protection`,
  resource: `${SPEC}#resource-parameter-implementation`,
  audience: `${SPEC}#token-audience-binding-and-validation`,
  tokens: `${SPEC}#access-token-usage`,
  iss: `${SPEC_ISS}#authorization-response-validation`,
  rfc9728: 'https://www.rfc-editor.org/rfc/rfc9728#section-3.3',
  rfc8414: 'https://www.rfc-editor.org/rfc/rfc8414#section-3.3',
  rfc7591: 'https://www.rfc-editor.org/rfc/rfc7591#section-3.2.1',
  rfc6749state: 'https://www.rfc-editor.org/rfc/rfc6749#section-4.1.2',
} as const;

export interface OAuthExchange {
  readonly request: { method: string; url: string; headers: Record<string, string>; body?: string };
  readonly response?: { status: number; headers: Record<string, string>; body: string };
  readonly error?: string;
  readonly durationMs: number;
}

export interface OAuthCheck {
  /** `pass`, `fail` (a MUST broken or the flow cannot go on), `warn` (a SHOULD, or worth knowing). */
  readonly verdict: 'pass' | 'fail' | 'warn';
  readonly text: string;
  readonly ref: string;
}

export interface OAuthStep {
  readonly name: StepName;
  readonly title: string;
  status: 'pending' | 'done' | 'failed' | 'waiting' | 'skipped';
  exchanges: OAuthExchange[];
  checks: OAuthCheck[];
  /** What the step learned, for display (secrets shortened). */
  found: Json;
  /** The authorization step: the page the user opens. */
  authorizationUrl?: string;
}

export interface OAuthDebuggerOptions {
  /** The MCP endpoint (the target's URL). */
  readonly serverUrl: string;
  /** The inspector's loopback callback, `http://127.0.0.1:<port>/oauth/callback`. */
  readonly redirectUri: string;
  readonly fetch?: FetchLike;
  /** Headers of the target (sent to the MCP server only, never to the authorization server). */
  readonly headers?: Readonly<Record<string, string>>;
}

export interface OAuthStartOptions {
  /** A pre-registered client id: no registration request. */
  readonly clientId?: string;
  /** Scopes to ask for (space-separated), instead of the challenge's or the metadata's (step-up). */
  readonly scope?: string;
}

const MAX_BODY_CHARS = 64 * 1024;
const TIMEOUT_MS = 15_000;

export class OAuthDebugger {
  readonly #options: OAuthDebuggerOptions;
  readonly #fetch: FetchLike;
  #steps: OAuthStep[] = [];
  #start: OAuthStartOptions = {};
  #running = false;
  // What the flow learned (never shown whole).
  #resourceMetadataUrl: string | undefined;
  #challengeScope: string | undefined;
  #resource: string | undefined;
  #scopesSupported: string | undefined;
  #issuer: string | undefined;
  #as: Json | undefined;
  #clientId: string | undefined;
  #verifier: string | undefined;
  #state: string | undefined;
  #code: string | undefined;
  #accessToken: string | undefined;
  #refreshToken: string | undefined;

  constructor(options: OAuthDebuggerOptions) {
    this.#options = options;
    this.#fetch = options.fetch ?? ((url, init) => fetch(url, init));
    this.reset();
  }

  reset(start: OAuthStartOptions = {}): void {
    this.#start = start;
    this.#steps = OAUTH_STEPS.map(({ name, title }) => ({
      name,
      title,
      status: 'pending',
      exchanges: [],
      checks: [],
      found: {},
    }));
    this.#resourceMetadataUrl = this.#challengeScope = this.#resource = this.#issuer = undefined;
    this.#scopesSupported = undefined;
    this.#as = undefined;
    this.#clientId = this.#verifier = this.#state = this.#code = undefined;
    this.#accessToken = this.#refreshToken = undefined;
  }

  get steps(): readonly OAuthStep[] {
    return this.#steps;
  }

  /** The access token obtained, once the token step passed. */
  get accessToken(): string | undefined {
    return this.#accessToken;
  }

  /** The state of the pending authorization, to match the callback. */
  get pendingState(): string | undefined {
    return this.#step('authorization').status === 'waiting' ? this.#state : undefined;
  }

  state(): Json {
    return {
      serverUrl: this.#options.serverUrl,
      redirectUri: this.#options.redirectUri,
      running: this.#running,
      hasToken: this.#accessToken !== undefined,
      steps: this.#steps,
    };
  }

  /** Runs the next pending step; false when nothing is left or the flow cannot go on. */
  async next(): Promise<boolean> {
    if (this.#running) return false;
    const step = this.#steps.find((s) => s.status === 'pending' || s.status === 'waiting');
    if (step === undefined || step.status === 'waiting') return false;
    if (this.#steps.some((s) => s.status === 'failed')) return false;
    this.#running = true;
    try {
      await this.#run(step);
      if (step.status === 'pending')
        step.status = step.checks.some((c) => c.verdict === 'fail') ? 'failed' : 'done';
    } catch (error) {
      step.status = 'failed';
      step.checks.push({ verdict: 'fail', text: (error as Error).message, ref: SPEC });
    } finally {
      this.#running = false;
    }
    return step.status !== 'failed';
  }

  /** The redirect back from the authorization server (the inspector's `/oauth/callback`). */
  callback(query: URLSearchParams): boolean {
    const step = this.#step('authorization');
    if (step.status !== 'waiting' || query.get('state') !== this.#state) return false;
    step.exchanges.push({
      request: {
        method: 'GET',
        url: `${this.#options.redirectUri}?${shortenQuery(query)}`,
        headers: {},
      },
      durationMs: 0,
    });
    step.checks.push(pass('the redirect carries the state sent (CSRF protection)', REF.rfc6749state));
    const iss = query.get('iss');
    const advertised = this.#as?.['authorization_response_iss_parameter_supported'] === true;
    if (iss !== null)
      step.checks.push(
        check(
          iss === this.#issuer,
          `iss ${JSON.stringify(iss)} ${iss === this.#issuer ? 'is' : 'is not'} the issuer ${JSON.stringify(this.#issuer)} (RFC 9207)`,
          REF.iss,
        ),
      );
    else
      step.checks.push(
        advertised
          ? fail(
              'iss is missing though the metadata advertises authorization_response_iss_parameter_supported',
              REF.iss,
            )
          : warn('no iss in the authorization response (RFC 9207: SHOULD)', REF.iss),
      );
    const error = query.get('error');
    if (error !== null) {
      step.checks.push(
        fail(
          `the authorization server answered error=${error} ${query.get('error_description') ?? ''}`,
          SPEC,
        ),
      );
    } else {
      this.#code = query.get('code') ?? undefined;
      step.checks.push(check(this.#code !== undefined, 'the redirect carries an authorization code', SPEC));
      step.found = { ...step.found, code: shorten(this.#code) };
    }
    step.status = step.checks.some((c) => c.verdict === 'fail') ? 'failed' : 'done';
    return true;
  }

  #step(name: StepName): OAuthStep {
    return this.#steps.find((s) => s.name === name)!;
  }

  async #run(step: OAuthStep): Promise<void> {
    switch (step.name) {
      case 'challenge':
        return this.#challenge(step);
      case 'resource-metadata':
        return this.#resourceMetadata(step);
      case 'authorization-server-metadata':
        return this.#authorizationServerMetadata(step);
      case 'registration':
        return this.#registration(step);
      case 'authorization':
        return this.#authorization(step);
      case 'token':
        return this.#token(step);
      case 'refresh':
        return this.#refresh(step);
      case 'authorized-request':
        return this.#authorizedRequest(step);
    }
  }

  async #exchange(
    step: OAuthStep,
    url: URL,
    init: { method: string; headers?: Record<string, string>; body?: string },
  ): Promise<{ response: Response | undefined; text: string }> {
    const started = Date.now();
    const headers = init.headers ?? {};
    const refusal = this.#refusal(url);
    if (refusal !== undefined) {
      step.exchanges.push({
        request: {
          method: init.method,
          url: url.href,
          headers: redactHeaders(headers),
          ...bodyOf(init.body),
        },
        error: `not sent: ${refusal}`,
        durationMs: 0,
      });
      throw new Error(refusal);
    }
    try {
      const response = await this.#fetch(url, {
        method: init.method,
        headers,
        ...(init.body === undefined ? {} : { body: init.body }),
        redirect: 'manual',
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
      const text = (await response.text()).slice(0, MAX_BODY_CHARS);
      step.exchanges.push({
        request: {
          method: init.method,
          url: url.href,
          headers: redactHeaders(headers),
          ...bodyOf(init.body),
        },
        response: {
          status: response.status,
          headers: headersOf(response.headers),
          body: shortenSecrets(text),
        },
        durationMs: Date.now() - started,
      });
      return { response, text };
    } catch (error) {
      step.exchanges.push({
        request: {
          method: init.method,
          url: url.href,
          headers: redactHeaders(headers),
          ...bodyOf(init.body),
        },
        error: (error as Error).message,
        durationMs: Date.now() - started,
      });
      return { response: undefined, text: '' };
    }
  }

  /**
   * Why a URL the server's documents named is not fetched: not http(s), or a loopback/private address named by
   * a server that is itself public (the debugger must not become a way into the user's network).
   */
  #refusal(url: URL): string | undefined {
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return `${url.protocol} URLs are not fetched`;
    const server = new URL(this.#options.serverUrl).hostname;
    const local = (host: string) => isLoopbackHost(host) || isPrivateAddress(host);
    if (!local(server) && local(url.hostname))
      return `a public server named a loopback or private address (${url.host}): refused`;
    return undefined;
  }

  #mcpInit(token?: string): { method: string; headers: Record<string, string>; body: string } {
    return {
      method: 'POST',
      headers: {
        ...this.#options.headers,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2025-11-25',
        ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: {
          protocolVersion: '2025-11-25',
          capabilities: {},
          clientInfo: { name: 'mcpengine-inspector-oauth-debugger', version: '0.1.0' },
        },
      }),
    };
  }

  async #challenge(step: OAuthStep): Promise<void> {
    const { response } = await this.#exchange(step, new URL(this.#options.serverUrl), this.#mcpInit());
    if (response === undefined) {
      step.checks.push(fail('the server could not be reached', SPEC));
      return;
    }
    if (response.status !== 401) {
      step.checks.push(
        warn(`the server answered ${response.status}, not 401: it may not need authorization`, REF.discovery),
      );
    } else step.checks.push(pass('401 Unauthorized without a token', REF.tokens));
    const header = response.headers.get('www-authenticate');
    const challenge = bearerChallengeOf(header);
    if (response.status === 401)
      step.checks.push(
        check(challenge !== undefined, 'a Bearer challenge in WWW-Authenticate (RFC 6750 §3)', REF.discovery),
      );
    this.#resourceMetadataUrl = challenge?.resourceMetadata;
    this.#challengeScope = challenge?.scopes?.join(' ');
    if (response.status === 401)
      step.checks.push(
        this.#resourceMetadataUrl === undefined
          ? warn('no resource_metadata in the challenge: the well-known URLs are tried', REF.discovery)
          : pass('the challenge names resource_metadata', REF.discovery),
      );
    step.found = {
      ...(header === null ? {} : { 'www-authenticate': header }),
      ...(this.#resourceMetadataUrl === undefined ? {} : { resource_metadata: this.#resourceMetadataUrl }),
      ...(this.#challengeScope === undefined ? {} : { scope: this.#challengeScope }),
    };
  }

  async #resourceMetadata(step: OAuthStep): Promise<void> {
    const candidates =
      this.#resourceMetadataUrl !== undefined
        ? [new URL(this.#resourceMetadataUrl)]
        : protectedResourceMetadataCandidates(this.#options.serverUrl);
    let metadata: Json | undefined;
    for (const url of candidates) {
      const { response, text } = await this.#exchange(step, url, {
        method: 'GET',
        headers: { accept: 'application/json' },
      });
      if (response?.status === 200) {
        metadata = jsonOf(text);
        break;
      }
    }
    if (metadata === undefined) {
      step.checks.push(fail('no protected resource metadata document was found', REF.discovery));
      return;
    }
    step.found = metadata;
    const resource = metadata['resource'];
    const canonical = canonicalUri(this.#options.serverUrl);
    step.checks.push(
      check(
        typeof resource === 'string' && canonicalUri(resource) === canonical,
        `resource ${JSON.stringify(resource)} identifies this server (${canonical})`,
        REF.rfc9728,
      ),
    );
    if (typeof resource === 'string') this.#resource = resource;
    const scopes = metadata['scopes_supported'];
    if (Array.isArray(scopes) && scopes.every((s) => typeof s === 'string') && scopes.length > 0)
      this.#scopesSupported = scopes.join(' ');
    const servers = metadata['authorization_servers'];
    const ok = Array.isArray(servers) && servers.length > 0 && servers.every((s) => typeof s === 'string');
    step.checks.push(
      check(ok, 'authorization_servers names at least one authorization server', REF.discovery),
    );
    if (ok) this.#issuer = servers[0] as string;
  }

  async #authorizationServerMetadata(step: OAuthStep): Promise<void> {
    const issuer = this.#issuer!;
    let metadata: Json | undefined;
    for (const url of authorizationServerMetadataCandidates(issuer)) {
      const { response, text } = await this.#exchange(step, url, {
        method: 'GET',
        headers: { accept: 'application/json' },
      });
      if (response?.status === 200) {
        metadata = jsonOf(text);
        break;
      }
    }
    if (metadata === undefined) {
      step.checks.push(fail(`no authorization server metadata for ${issuer}`, REF.asDiscovery));
      return;
    }
    this.#as = metadata;
    step.found = metadata;
    step.checks.push(
      check(
        metadata['issuer'] === issuer,
        `issuer ${JSON.stringify(metadata['issuer'])} is the authorization server named (${issuer})`,
        REF.rfc8414,
      ),
    );
    const methods = metadata['code_challenge_methods_supported'];
    step.checks.push(
      check(
        Array.isArray(methods) && methods.includes('S256'),
        Array.isArray(methods)
          ? `code_challenge_methods_supported lists ${methods.join(', ')}${methods.includes('S256') ? '' : ' (no S256)'}`
          : 'code_challenge_methods_supported is absent: clients MUST refuse to proceed',
        REF.pkce,
      ),
    );
    for (const field of ['authorization_endpoint', 'token_endpoint'])
      step.checks.push(check(typeof metadata[field] === 'string', `${field} is given`, REF.rfc8414));
    const ways = [
      metadata['client_id_metadata_document_supported'] === true ? 'Client ID Metadata Documents' : undefined,
      typeof metadata['registration_endpoint'] === 'string' ? 'Dynamic Client Registration' : undefined,
    ].filter((w) => w !== undefined);
    step.checks.push(
      ways.length > 0
        ? pass(`registration offered: ${ways.join(', ')} (and pre-registration)`, REF.registration)
        : warn('neither CIMD nor DCR is offered: only a pre-registered client id works', REF.registration),
    );
  }

  async #registration(step: OAuthStep): Promise<void> {
    if (this.#start.clientId !== undefined && this.#start.clientId !== '') {
      this.#clientId = this.#start.clientId;
      step.found = { client_id: this.#clientId, how: 'pre-registered' };
      step.checks.push(pass('a pre-registered client id is used', REF.registration));
      return;
    }
    if (this.#as?.['client_id_metadata_document_supported'] === true)
      step.checks.push(
        warn(
          'the server accepts Client ID Metadata Documents, but their URL must be https: the inspector (on loopback) uses Dynamic Client Registration instead',
          REF.registration,
        ),
      );
    const endpoint = this.#as?.['registration_endpoint'];
    if (typeof endpoint !== 'string') {
      step.checks.push(fail('no registration_endpoint: give a pre-registered client id', REF.registration));
      return;
    }
    const request = {
      client_name: 'MCPEngine Inspector (OAuth debugger)',
      redirect_uris: [this.#options.redirectUri],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
    const { response, text } = await this.#exchange(step, new URL(endpoint), {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(request),
    });
    const body = jsonOf(text);
    step.found = body ?? {};
    step.checks.push(
      check(response?.status === 201, `201 Created (got ${response?.status ?? 'no answer'})`, REF.rfc7591),
    );
    const clientId = body?.['client_id'];
    step.checks.push(check(typeof clientId === 'string', 'the response carries a client_id', REF.rfc7591));
    if (typeof clientId === 'string') this.#clientId = clientId;
  }

  async #authorization(step: OAuthStep): Promise<void> {
    const endpoint = this.#as?.['authorization_endpoint'];
    if (typeof endpoint !== 'string') {
      step.checks.push(fail('no authorization_endpoint', REF.rfc8414));
      return;
    }
    this.#verifier = randomBytes(32).toString('base64url');
    this.#state = randomBytes(16).toString('base64url');
    const challenge = createHash('sha256').update(this.#verifier).digest('base64url');
    const url = new URL(endpoint);
    const scope = this.#scope();
    const params: Record<string, string> = {
      response_type: 'code',
      client_id: this.#clientId!,
      redirect_uri: this.#options.redirectUri,
      code_challenge: challenge,
      code_challenge_method: 'S256',
      state: this.#state,
      resource: this.#resource ?? canonicalUri(this.#options.serverUrl),
      ...(scope === undefined ? {} : { scope }),
    };
    for (const [key, value] of Object.entries(params)) url.searchParams.set(key, value);
    step.authorizationUrl = url.href;
    step.found = { ...params, state: shorten(this.#state) };
    step.checks.push(pass('PKCE with S256: the code_challenge is the SHA-256 of a fresh verifier', REF.pkce));
    step.checks.push(pass(`resource=${params['resource']} names this server`, REF.resource));
    step.status = 'waiting';
  }

  #scope(): string | undefined {
    if (this.#start.scope !== undefined && this.#start.scope !== '') return this.#start.scope;
    // Scope selection strategy: the challenge's scope, else the metadata's scopes_supported.
    return this.#challengeScope ?? this.#scopesSupported;
  }

  async #tokenRequest(step: OAuthStep, form: Record<string, string>): Promise<Json | undefined> {
    const endpoint = this.#as?.['token_endpoint'];
    if (typeof endpoint !== 'string') {
      step.checks.push(fail('no token_endpoint', REF.rfc8414));
      return undefined;
    }
    const { response, text } = await this.#exchange(step, new URL(endpoint), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: new URLSearchParams(form).toString(),
    });
    const body = jsonOf(text);
    step.checks.push(
      check(response?.status === 200, `200 OK (got ${response?.status ?? 'no answer'})`, SPEC),
    );
    if (response?.status !== 200 || body === undefined) return undefined;
    step.checks.push(
      check(
        String(body['token_type']).toLowerCase() === 'bearer',
        `token_type ${JSON.stringify(body['token_type'])}`,
        REF.tokens,
      ),
    );
    const access = body['access_token'];
    step.checks.push(check(typeof access === 'string', 'an access_token is issued', REF.tokens));
    if (typeof access !== 'string') return undefined;
    this.#accessToken = access;
    if (typeof body['refresh_token'] === 'string') this.#refreshToken = body['refresh_token'];
    const claims = jwtClaims(access);
    const resource = this.#resource ?? canonicalUri(this.#options.serverUrl);
    if (claims === undefined)
      step.checks.push(
        warn('the access token is opaque (not a JWT): its audience cannot be checked here', REF.audience),
      );
    else {
      const aud = claims['aud'];
      const audiences = Array.isArray(aud) ? aud : [aud];
      step.checks.push(
        check(
          audiences.some((a) => typeof a === 'string' && canonicalUri(a) === canonicalUri(resource)),
          `aud ${JSON.stringify(aud)} names this server (${resource})`,
          REF.audience,
        ),
      );
      step.checks.push(
        check(
          claims['iss'] === this.#issuer,
          `iss ${JSON.stringify(claims['iss'])} is the issuer`,
          REF.audience,
        ),
      );
    }
    step.found = {
      token_type: body['token_type'],
      expires_in: body['expires_in'],
      scope: body['scope'],
      access_token: shorten(access),
      ...(typeof body['refresh_token'] === 'string' ? { refresh_token: shorten(body['refresh_token']) } : {}),
      ...(claims === undefined ? {} : { claims }),
    };
    return body;
  }

  async #token(step: OAuthStep): Promise<void> {
    if (this.#code === undefined) {
      step.checks.push(fail('no authorization code', SPEC));
      return;
    }
    step.checks.push(pass('the code_verifier of the authorization request is sent (PKCE)', REF.pkce));
    step.checks.push(pass('the resource parameter is sent with the token request', REF.resource));
    await this.#tokenRequest(step, {
      grant_type: 'authorization_code',
      code: this.#code,
      redirect_uri: this.#options.redirectUri,
      client_id: this.#clientId!,
      code_verifier: this.#verifier!,
      resource: this.#resource ?? canonicalUri(this.#options.serverUrl),
    });
  }

  async #refresh(step: OAuthStep): Promise<void> {
    if (this.#refreshToken === undefined) {
      step.status = 'skipped';
      step.checks.push(warn('no refresh token was issued (ask for offline_access to get one)', SPEC));
      return;
    }
    await this.#tokenRequest(step, {
      grant_type: 'refresh_token',
      refresh_token: this.#refreshToken,
      client_id: this.#clientId!,
      resource: this.#resource ?? canonicalUri(this.#options.serverUrl),
    });
  }

  async #authorizedRequest(step: OAuthStep): Promise<void> {
    const { response } = await this.#exchange(
      step,
      new URL(this.#options.serverUrl),
      this.#mcpInit(this.#accessToken),
    );
    step.checks.push(
      check(
        response !== undefined && response.status >= 200 && response.status < 300,
        `the server accepts the token (HTTP ${response?.status ?? 'no answer'})`,
        REF.tokens,
      ),
    );
  }
}

function check(ok: boolean, text: string, ref: string): OAuthCheck {
  return { verdict: ok ? 'pass' : 'fail', text, ref };
}
const pass = (text: string, ref: string): OAuthCheck => ({ verdict: 'pass', text, ref });
const fail = (text: string, ref: string): OAuthCheck => ({ verdict: 'fail', text, ref });
const warn = (text: string, ref: string): OAuthCheck => ({ verdict: 'warn', text, ref });

/** RFC 8707's canonical form for comparison: lower-case scheme and host, no trailing slash, no fragment. */
export function canonicalUri(uri: string): string {
  try {
    const url = new URL(uri);
    url.hash = '';
    return url.href.replace(/\/$/, '');
  } catch {
    return uri;
  }
}

function jsonOf(text: string): Json | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : undefined;
  } catch {
    return undefined;
  }
}

/** The claims of a JWT, decoded and not verified (for display and audience checks only). */
function jwtClaims(token: string): Json | undefined {
  const parts = token.split('.');
  if (parts.length !== 3) return undefined;
  try {
    return jsonOf(Buffer.from(parts[1]!, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
}

export function shorten(secret: string | undefined): string | undefined {
  if (secret === undefined) return undefined;
  return secret.length <= 12 ? '…' : `${secret.slice(0, 8)}… (${secret.length} chars)`;
}

const SECRET_FIELDS = /"(access_token|refresh_token|id_token|client_secret|code)"\s*:\s*"([^"]*)"/g;

function shortenSecrets(text: string): string {
  return text.replace(SECRET_FIELDS, (_all, key: string, value: string) => `"${key}":"${shorten(value)}"`);
}

const SECRET_PARAMS = new Set(['code', 'state', 'refresh_token', 'code_verifier', 'client_secret']);

/** A query or form body, readable (decoded) and with secrets shortened. */
function shortenQuery(query: URLSearchParams): string {
  return [...query]
    .map(([key, value]) => `${key}=${SECRET_PARAMS.has(key) ? shorten(value) : value}`)
    .join('&');
}

function bodyOf(body: string | undefined): { body?: string } {
  if (body === undefined) return {};
  if (body.startsWith('{')) return { body: shortenSecrets(body) };
  return { body: shortenQuery(new URLSearchParams(body)) };
}

function redactHeaders(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers))
    out[name] = /^(authorization|cookie|proxy-authorization)$/i.test(name)
      ? `${value.split(' ')[0]} ${shorten(value.split(' ')[1] ?? '') ?? ''}`
      : value;
  return out;
}

function headersOf(headers: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  headers.forEach((value, name) => {
    out[name] = /^(set-cookie)$/i.test(name) ? '(redacted)' : value;
  });
  return out;
}
