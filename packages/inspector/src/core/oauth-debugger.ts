/**
 * The OAuth debugger: walks MCP authorization one step at a time against an HTTP server, showing every HTTP
 * exchange and judging it against the specification (MCP 2025-11-25 "Authorization", and the 2026-07-28 pages
 * for RFC 9207 `iss` validation):
 *
 *   1. challenge — an unauthenticated `initialize`; a protected server answers 401 with a `WWW-Authenticate`
 *      challenge naming its `resource_metadata`;
 *   2. resource metadata (RFC 9728), from the challenge or the well-known URLs in order;
 *   3. authorization server metadata (RFC 8414 / OIDC discovery, in the order MCP lists);
 *   4. registration, on the path the user picks (or the spec's order): a pre-registered client id, a Client ID
 *      Metadata Document (the user's https URL, or — for a development authorization server that accepts
 *      loopback documents — one the inspector hosts itself), fetched and judged; or Dynamic Client
 *      Registration (RFC 7591);
 *   5. authorization with PKCE S256, `state` and the `resource` indicator (RFC 8707): the user opens the
 *      authorization page; the server redirects to the inspector's loopback callback;
 *   6. token: the code for tokens (`code_verifier`, `resource`), the access token's `aud` and `iss` checked;
 *   7. refresh, when a refresh token was issued;
 *   8. the MCP request again, with the token;
 *   9. step-up: a call the token does not cover, answered 403 `insufficient_scope` with the scopes it needs,
 *      then a re-authorization with that scope, the token, and the call again.
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
  | 'authorized-request'
  | 'step-up';

export const OAUTH_STEPS: readonly { name: StepName; title: string }[] = [
  { name: 'challenge', title: 'Unauthenticated request and its 401 challenge' },
  { name: 'resource-metadata', title: 'Protected resource metadata (RFC 9728)' },
  { name: 'authorization-server-metadata', title: 'Authorization server metadata (RFC 8414)' },
  { name: 'registration', title: 'Client registration' },
  { name: 'authorization', title: 'Authorization request with PKCE (S256)' },
  { name: 'token', title: 'Token request' },
  { name: 'refresh', title: 'Refresh' },
  { name: 'authorized-request', title: 'The MCP request with the token' },
  { name: 'step-up', title: 'Step-up authorization (403 insufficient_scope)' },
];

/** How the client gets its id: the spec's priority order, or one path the user picked. */
export type RegistrationPath = 'auto' | 'pre-registered' | 'cimd' | 'dcr';
export const REGISTRATION_PATHS: readonly RegistrationPath[] = ['auto', 'pre-registered', 'cimd', 'dcr'];

/** The path of the Client ID Metadata Document the inspector hosts on its own (loopback) origin. */
export const HOSTED_CLIENT_METADATA_PATH = '/oauth/client-metadata.json';

/** The inspector's own client metadata (the document it hosts, and what DCR sends). */
export function inspectorClientMetadata(redirectUri: string, clientId?: string): Json {
  return {
    ...(clientId === undefined ? {} : { client_id: clientId }),
    client_name: 'MCPEngine Inspector (OAuth debugger)',
    redirect_uris: [redirectUri],
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    token_endpoint_auth_method: 'none',
  };
}

const SPEC = 'https://modelcontextprotocol.io/specification/2025-11-25/basic/authorization';
const SPEC_ISS = 'https://modelcontextprotocol.io/specification/2026-07-28/basic/authorization';
const REF = {
  discovery: `${SPEC}#protected-resource-metadata-discovery-requirements`,
  asDiscovery: `${SPEC}#authorization-server-metadata-discovery`,
  registration: `${SPEC}#client-registration-approaches`,
  cimd: `${SPEC}#client-id-metadata-documents`,
  scopeChallenge: `${SPEC}#runtime-insufficient-scope-errors`,
  stepUp: `${SPEC}#step-up-authorization-flow`,
  scopeSelection: `${SPEC}#scope-selection-strategy`,
  rfc6750: 'https://www.rfc-editor.org/rfc/rfc6750#section-3.1',
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
  /**
   * The Client ID Metadata Document the inspector serves itself (`http://127.0.0.1:<port>/oauth/client-metadata.json`):
   * used on the CIMD path when the user gives no URL. Not https, so only a development authorization server
   * that accepts loopback documents takes it.
   */
  readonly hostedClientMetadataUrl?: string;
}

export interface OAuthStartOptions {
  /** A pre-registered client id: no registration request. */
  readonly clientId?: string;
  /** Scopes to ask for (space-separated), instead of the challenge's or the metadata's. */
  readonly scope?: string;
  /** The registration path; default `auto` (pre-registered, else CIMD when a URL is given, else DCR). */
  readonly registration?: RegistrationPath;
  /** The client id of the CIMD path: the https URL of the client's metadata document. */
  readonly clientMetadataUrl?: string;
  /** Step-up: a tool the first token may not cover, called with the token. */
  readonly stepUpTool?: string;
  readonly stepUpArguments?: Json;
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
  #grantedScope: string | undefined;
  /** Step-up: after the redirect, the token request and the call again remain. */
  #stepUpPhase: 'probe' | 'token' = 'probe';
  #stepUpScope: string | undefined;

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
    this.#accessToken = this.#refreshToken = this.#grantedScope = undefined;
    this.#stepUpPhase = 'probe';
    this.#stepUpScope = undefined;
  }

  get steps(): readonly OAuthStep[] {
    return this.#steps;
  }

  /** The access token obtained, once the token step passed. */
  get accessToken(): string | undefined {
    return this.#accessToken;
  }

  /** The state of the pending authorization (first, or step-up), to match the callback. */
  get pendingState(): string | undefined {
    return this.#waitingStep() === undefined ? undefined : this.#state;
  }

  #waitingStep(): OAuthStep | undefined {
    return this.#steps.find(
      (s) => (s.name === 'authorization' || s.name === 'step-up') && s.status === 'waiting',
    );
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
    const step = this.#waitingStep();
    if (step === undefined || query.get('state') !== this.#state) return false;
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
    const failed = step.checks.some((c) => c.verdict === 'fail');
    if (step.name === 'step-up' && !failed) {
      // The step goes on: the token for the larger scope, then the call again (Next step).
      this.#stepUpPhase = 'token';
      step.status = 'pending';
    } else step.status = failed ? 'failed' : 'done';
    return true;
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
      case 'step-up':
        return this.#stepUp(step);
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
    const path = this.#start.registration ?? 'auto';
    const clientId = this.#start.clientId ?? '';
    const documentUrl = this.#start.clientMetadataUrl ?? '';
    const cimdSupported = this.#as?.['client_id_metadata_document_supported'] === true;
    const dcrOffered = typeof this.#as?.['registration_endpoint'] === 'string';
    if (path === 'pre-registered' || (path === 'auto' && clientId !== '')) {
      if (clientId === '') {
        step.checks.push(fail('the pre-registered path needs a client id', REF.registration));
        return;
      }
      this.#clientId = clientId;
      step.found = { client_id: this.#clientId, how: 'pre-registered' };
      step.checks.push(pass('a pre-registered client id is used', REF.registration));
      return;
    }
    if (path === 'cimd' || (path === 'auto' && cimdSupported && documentUrl !== '')) {
      await this.#clientMetadataDocument(step, documentUrl, cimdSupported);
      return;
    }
    if (path === 'auto' && !cimdSupported && documentUrl !== '')
      step.checks.push(
        warn(
          'a metadata document URL was given, but the authorization server does not advertise client_id_metadata_document_supported: Dynamic Client Registration is used',
          REF.registration,
        ),
      );
    if (path === 'auto' && cimdSupported)
      step.checks.push(
        warn(
          'the authorization server accepts Client ID Metadata Documents (the spec prefers them to DCR), but no document URL was given: Dynamic Client Registration is used',
          REF.registration,
        ),
      );
    if (!dcrOffered) {
      step.checks.push(
        fail(
          'no registration_endpoint: Dynamic Client Registration is not offered (give a pre-registered client id or a metadata document)',
          REF.registration,
        ),
      );
      return;
    }
    await this.#dynamicRegistration(step);
  }

  async #dynamicRegistration(step: OAuthStep): Promise<void> {
    const endpoint = this.#as!['registration_endpoint'] as string;
    const request = {
      ...inspectorClientMetadata(this.#options.redirectUri),
      client_name: 'MCPEngine Inspector (OAuth debugger)',
    };
    const { response, text } = await this.#exchange(step, new URL(endpoint), {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(request),
    });
    const body = jsonOf(text);
    step.found = { how: 'Dynamic Client Registration', ...body };
    step.checks.push(
      check(response?.status === 201, `201 Created (got ${response?.status ?? 'no answer'})`, REF.rfc7591),
    );
    const clientId = body?.['client_id'];
    step.checks.push(check(typeof clientId === 'string', 'the response carries a client_id', REF.rfc7591));
    if (typeof clientId === 'string') this.#clientId = clientId;
  }

  /**
   * The CIMD path: the client id is the URL of a JSON document describing the client. The debugger fetches it
   * as the authorization server will and judges it (MCP 2025-11-25 "Client ID Metadata Documents").
   */
  async #clientMetadataDocument(step: OAuthStep, given: string, supported: boolean): Promise<void> {
    step.checks.push(
      supported
        ? pass('the authorization server metadata has client_id_metadata_document_supported: true', REF.cimd)
        : fail(
            'the authorization server does not advertise client_id_metadata_document_supported: pick another registration path',
            REF.cimd,
          ),
    );
    if (!supported) return;
    const hosted = given === '' ? this.#options.hostedClientMetadataUrl : undefined;
    const documentUrl = given !== '' ? given : hosted;
    if (documentUrl === undefined) {
      step.checks.push(fail('give the https URL of the client metadata document', REF.cimd));
      return;
    }
    let url: URL;
    try {
      url = new URL(documentUrl);
    } catch {
      step.checks.push(fail(`${JSON.stringify(documentUrl)} is not an absolute URL`, REF.cimd));
      return;
    }
    step.found = {
      how: 'Client ID Metadata Document',
      client_id: documentUrl,
      ...(hosted ? { hostedBy: 'this inspector' } : {}),
    };
    if (url.protocol === 'https:') step.checks.push(pass('the client id is an https URL', REF.cimd));
    else if (url.protocol === 'http:' && isLoopbackHost(url.hostname))
      step.checks.push(
        warn(
          `the client id ${url.href} is not https (the spec says MUST): only a development authorization server that accepts loopback documents takes it`,
          REF.cimd,
        ),
      );
    else {
      step.checks.push(fail(`the client id must be an https URL, got ${url.href}`, REF.cimd));
      return;
    }
    step.checks.push(
      check(
        url.pathname !== '/' && url.pathname !== '' && url.hash === '',
        'the URL has a path component (and no fragment)',
        REF.cimd,
      ),
    );
    const { response, text } = await this.#exchange(step, url, {
      method: 'GET',
      headers: { accept: 'application/json' },
    });
    step.checks.push(
      check(
        response?.status === 200,
        `the document is served (HTTP ${response?.status ?? 'no answer'})`,
        REF.cimd,
      ),
    );
    if (response?.status !== 200) return;
    const document = jsonOf(text);
    step.checks.push(check(document !== undefined, 'the document is a JSON object', REF.cimd));
    if (document === undefined) return;
    step.found = { ...step.found, document };
    step.checks.push(
      check(
        document['client_id'] === documentUrl,
        `client_id ${JSON.stringify(document['client_id'])} ${document['client_id'] === documentUrl ? 'equals' : 'is not'} the document URL exactly`,
        REF.cimd,
      ),
    );
    step.checks.push(
      check(
        typeof document['client_name'] === 'string' && document['client_name'] !== '',
        'client_name is given',
        REF.cimd,
      ),
    );
    const redirects = document['redirect_uris'];
    const list = Array.isArray(redirects) ? redirects.filter((r): r is string => typeof r === 'string') : [];
    step.checks.push(check(list.length > 0, 'redirect_uris is a non-empty list', REF.cimd));
    if (list.includes(this.#options.redirectUri))
      step.checks.push(
        pass(`redirect_uris lists this inspector's callback (${this.#options.redirectUri})`, REF.cimd),
      );
    else if (list.some((uri) => sameLoopbackCallback(uri, this.#options.redirectUri)))
      step.checks.push(
        warn(
          `redirect_uris lists this callback on another loopback port: accepted only by servers that let loopback ports vary (RFC 8252 §7.3)`,
          REF.cimd,
        ),
      );
    else
      step.checks.push(
        fail(
          `redirect_uris does not list this inspector's callback ${this.#options.redirectUri}: the authorization server MUST refuse the redirect`,
          REF.cimd,
        ),
      );
    const method = document['token_endpoint_auth_method'] ?? 'none';
    step.checks.push(
      check(
        method === 'none',
        method === 'none'
          ? 'token_endpoint_auth_method is none (a public client)'
          : `token_endpoint_auth_method ${JSON.stringify(method)}: ${
              method === 'client_secret_basic' || method === 'client_secret_post'
                ? 'a public document cannot carry a shared secret'
                : 'the debugger holds no key for it'
            }`,
        REF.cimd,
      ),
    );
    const grants = document['grant_types'];
    if (grants !== undefined)
      step.checks.push(
        check(
          Array.isArray(grants) && grants.includes('authorization_code'),
          `grant_types ${JSON.stringify(grants)} allows authorization_code`,
          REF.cimd,
        ),
      );
    if (step.checks.some((c) => c.verdict === 'fail')) return;
    this.#clientId = documentUrl;
  }

  async #authorization(step: OAuthStep): Promise<void> {
    this.#authorizationRequest(step, this.#scope());
  }

  /** Builds the authorization request (fresh PKCE verifier and state) and waits for the redirect. */
  #authorizationRequest(step: OAuthStep, scope: string | undefined): void {
    const endpoint = this.#as?.['authorization_endpoint'];
    if (typeof endpoint !== 'string') {
      step.checks.push(fail('no authorization_endpoint', REF.rfc8414));
      return;
    }
    this.#verifier = randomBytes(32).toString('base64url');
    this.#state = randomBytes(16).toString('base64url');
    this.#code = undefined;
    const challenge = createHash('sha256').update(this.#verifier).digest('base64url');
    const url = new URL(endpoint);
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
    const shown = { ...params, state: shorten(this.#state) };
    step.found = step.name === 'authorization' ? shown : { ...step.found, authorization: shown };
    step.checks.push(pass('PKCE with S256: the code_challenge is the SHA-256 of a fresh verifier', REF.pkce));
    step.checks.push(pass(`resource=${params['resource']} names this server`, REF.resource));
    step.status = 'waiting';
  }

  #scope(): string | undefined {
    if (this.#start.scope !== undefined && this.#start.scope !== '') return this.#start.scope;
    // Scope selection strategy: the challenge's scope, else the metadata's scopes_supported.
    return this.#challengeScope ?? this.#scopesSupported;
  }

  /** The authorization-code grant for the code the redirect brought back (first authorization and step-up). */
  #exchangeCode(step: OAuthStep, code: string): Promise<Json | undefined> {
    return this.#tokenRequest(step, {
      grant_type: 'authorization_code',
      code,
      redirect_uri: this.#options.redirectUri,
      client_id: this.#clientId!,
      code_verifier: this.#verifier!,
      resource: this.#resource ?? canonicalUri(this.#options.serverUrl),
    });
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
    if (typeof body['scope'] === 'string') this.#grantedScope = body['scope'];
    const found = {
      token_type: body['token_type'],
      expires_in: body['expires_in'],
      scope: body['scope'],
      access_token: shorten(access),
      ...(typeof body['refresh_token'] === 'string' ? { refresh_token: shorten(body['refresh_token']) } : {}),
      ...(claims === undefined ? {} : { claims }),
    };
    step.found = step.name === 'step-up' ? { ...step.found, token: found } : found;
    return body;
  }

  async #token(step: OAuthStep): Promise<void> {
    if (this.#code === undefined) {
      step.checks.push(fail('no authorization code', SPEC));
      return;
    }
    step.checks.push(pass('the code_verifier of the authorization request is sent (PKCE)', REF.pkce));
    step.checks.push(pass('the resource parameter is sent with the token request', REF.resource));
    await this.#exchangeCode(step, this.#code);
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

  /**
   * Step-up: the tool named is called with the current token; a 403 `insufficient_scope` naming the scopes it
   * needs leads to a new authorization with them; after the redirect, the token, then the call again.
   */
  async #stepUp(step: OAuthStep): Promise<void> {
    if (this.#stepUpPhase === 'token') return this.#stepUpToken(step);
    const tool = this.#start.stepUpTool ?? '';
    if (tool === '') {
      step.status = 'skipped';
      step.checks.push(
        warn('name a tool the token may not cover (Start over) to try step-up authorization', REF.stepUp),
      );
      return;
    }
    if (this.#accessToken === undefined) {
      step.checks.push(fail('no access token to step up from', REF.stepUp));
      return;
    }
    const response = await this.#callTool(step, tool);
    if (response === undefined) {
      step.checks.push(fail('the server could not be reached', SPEC));
      return;
    }
    if (response.status >= 200 && response.status < 300) {
      step.status = 'skipped';
      step.checks.push(
        warn(
          `the server accepted the call (HTTP ${response.status}): the token already covers ${tool}, no step-up is needed`,
          REF.stepUp,
        ),
      );
      return;
    }
    step.checks.push(
      check(
        response.status === 403,
        `403 Forbidden for a token without the scope (got ${response.status})`,
        REF.scopeChallenge,
      ),
    );
    const header = response.headers.get('www-authenticate');
    const challenge = bearerChallengeOf(header);
    step.checks.push(
      check(
        challenge?.error === 'insufficient_scope',
        `WWW-Authenticate: Bearer error="insufficient_scope" (got ${challenge === undefined ? 'no Bearer challenge' : `error=${JSON.stringify(challenge.error ?? null)}`})`,
        REF.rfc6750,
      ),
    );
    const needed = challenge?.scopes ?? [];
    step.checks.push(
      needed.length > 0
        ? pass(`the challenge names the scopes needed: ${needed.join(' ')}`, REF.scopeChallenge)
        : fail('the challenge names no scope: the client cannot tell what to ask for', REF.scopeChallenge),
    );
    step.checks.push(
      challenge?.resourceMetadata === undefined
        ? warn('no resource_metadata in the challenge (SHOULD, as with 401)', REF.scopeChallenge)
        : pass('the challenge names resource_metadata', REF.scopeChallenge),
    );
    step.found = {
      ...(header === null ? {} : { 'www-authenticate': header }),
      ...(this.#grantedScope === undefined ? {} : { granted: this.#grantedScope }),
    };
    if (step.checks.some((c) => c.verdict === 'fail')) return;
    const granted = (this.#grantedScope ?? '').split(' ').filter((s) => s !== '');
    const dropped = granted.filter((s) => !needed.includes(s));
    if (dropped.length > 0)
      step.checks.push(
        warn(
          `the challenge leaves out scopes granted before (${dropped.join(' ')}): the new token will lack them (servers SHOULD include them)`,
          REF.scopeChallenge,
        ),
      );
    // Scope selection strategy: the challenge's scope.
    this.#stepUpScope = needed.join(' ');
    step.checks.push(pass(`re-authorization asks for scope="${this.#stepUpScope}"`, REF.scopeSelection));
    this.#authorizationRequest(step, this.#stepUpScope);
  }

  async #stepUpToken(step: OAuthStep): Promise<void> {
    if (this.#code === undefined) {
      step.checks.push(fail('no authorization code', SPEC));
      return;
    }
    const body = await this.#exchangeCode(step, this.#code);
    if (body === undefined) return;
    const wanted = (this.#stepUpScope ?? '').split(' ').filter((s) => s !== '');
    if (typeof body['scope'] === 'string') {
      const got = body['scope'].split(' ');
      const missing = wanted.filter((s) => !got.includes(s));
      step.checks.push(
        check(
          missing.length === 0,
          missing.length === 0
            ? `the new token's scope covers ${wanted.join(' ')}`
            : `the new token lacks ${missing.join(' ')}`,
          REF.stepUp,
        ),
      );
    }
    const response = await this.#callTool(step, this.#start.stepUpTool!);
    step.checks.push(
      check(
        response !== undefined && response.status >= 200 && response.status < 300,
        `the call is accepted with the stepped-up token (HTTP ${response?.status ?? 'no answer'})`,
        REF.stepUp,
      ),
    );
  }

  /** `initialize`, `notifications/initialized`, then `tools/call` of the tool named, with the current token. */
  async #callTool(step: OAuthStep, tool: string): Promise<Response | undefined> {
    const init = this.#mcpInit(this.#accessToken);
    const { response } = await this.#exchange(step, new URL(this.#options.serverUrl), init);
    if (response === undefined) return undefined;
    if (response.status < 200 || response.status >= 300) return response;
    const session = response.headers.get('mcp-session-id');
    const headers: Record<string, string> = {
      ...init.headers,
      ...(session === null ? {} : { 'mcp-session-id': session }),
    };
    const post = (message: Json) =>
      this.#exchange(step, new URL(this.#options.serverUrl), {
        method: 'POST',
        headers,
        body: JSON.stringify({ jsonrpc: '2.0', ...message }),
      });
    await post({ method: 'notifications/initialized' });
    const call = await post({
      id: 2,
      method: 'tools/call',
      params: { name: tool, arguments: this.#start.stepUpArguments ?? {} },
    });
    return call.response;
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

/** The same loopback callback on another port (RFC 8252 §7.3 lets a native client's port vary). */
function sameLoopbackCallback(listed: string, ours: string): boolean {
  try {
    const a = new URL(listed);
    const b = new URL(ours);
    return (
      a.protocol === 'http:' &&
      a.hostname === b.hostname &&
      isLoopbackHost(a.hostname) &&
      a.pathname === b.pathname &&
      a.search === b.search
    );
  } catch {
    return false;
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
