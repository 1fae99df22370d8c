/**
 * `OAuthClient`: MCP authorization on the client side, driven by the server's 401 and 403 answers.
 *
 * Give it to an HTTP client transport (`auth` option). Every request then carries the stored access token;
 * a 401, or a 403 `insufficient_scope`, runs the flow and the request is sent again:
 *
 * - a 401 for a token that has a refresh token is first answered by refreshing it at the issuing server;
 * - otherwise: discovery (PRM → authorization server metadata), a client id (pre-registered, Client ID
 *   Metadata Document, stored or dynamically registered registration), the grant (authorization code with PKCE
 *   S256, `resource` and RFC 9207 `iss` validation; or client credentials, JWT bearer, an ID-JAG exchange),
 *   and the tokens are stored for the server;
 * - scopes: the challenge's, else the metadata's `scopes_supported`, else none; step-up adds the challenged
 *   scopes to every scope requested before, and is not attempted when that adds nothing; at most
 *   `maxAttempts` flows per request.
 *
 * Failures reject the request with an `AuthorizationError` or `OAuthError` (as the `cause` of the transport's
 * error); nothing is stored unless a step fully succeeded. Tokens, secrets and codes never appear in errors or
 * logs.
 */
import type { JsonObject } from '../../protocol/types.js';
import type { FetchLike, HttpClientAuthEvents } from '../../transports/http/client-fetch.js';
import { AuthorizationError, OAuthError } from '../errors.js';
import { randomToken } from '../encoding.js';
import { isLoopbackHost, type AuthHttpOptions } from '../http.js';
import { createPkce } from '../pkce.js';
import type { Jwk } from '../jose/keys.js';
import { authChallengeOf, type BearerChallenge } from '../www-authenticate.js';
import { DpopKey, DpopNonces } from './dpop.js';
import { discover, type Discovered } from './discovery.js';
import {
  forgetClient,
  obtainClient,
  type ClientMetadataOptions,
  type PreRegisteredClient,
  type RegisteredClient,
} from './registration.js';
import { MemoryAuthStore, type AuthStore } from './store.js';
import {
  fixedAuthMethod,
  requestToken,
  type ClientCredentials,
  type TokenResponse,
} from './token-endpoint.js';

/**
 * What every non-interactive grant is bound to: the authorization server(s) its credentials belong to. A flow
 * whose discovery ends at any other issuer is refused before a credential or assertion leaves this process —
 * otherwise a malicious MCP server could name its own authorization server and collect them.
 */
export interface BoundGrant {
  /**
   * Issuer identifier(s) of the authorization servers these credentials are for, compared exactly; or a
   * predicate deciding (for a test harness whose authorization server lives on an ephemeral loopback port).
   */
  issuer: string | readonly string[] | ((issuer: string) => boolean);
}

/** Client credentials grant (RFC 6749 §4.4): the client acts on its own behalf. */
export interface ClientCredentialsGrant extends BoundGrant {
  type: 'client_credentials';
  credentials: ClientCredentials;
}

/** JWT bearer grant (RFC 7523 §2.1), e.g. workload identity federation: a JWT from another issuer. */
export interface JwtBearerGrant extends BoundGrant {
  type: 'jwt_bearer';
  /** The assertion, or a function returning a fresh one. */
  assertion: string | (() => string | Promise<string>);
  /** Client authentication at the token endpoint, if the server wants one. */
  credentials?: ClientCredentials;
}

/**
 * Enterprise-managed authorization: the identity provider exchanges the user's ID token for an ID-JAG
 * (RFC 8693 token exchange), which the authorization server takes as a JWT bearer grant.
 */
export interface IdJagGrant extends BoundGrant {
  type: 'id_jag';
  /** The identity provider's token endpoint. */
  idpTokenEndpoint: string;
  /** The user's ID token at the identity provider, or a function returning it. */
  idToken: string | (() => string | Promise<string>);
  /** Client authentication at the identity provider, if needed. */
  idpCredentials?: ClientCredentials;
  /** Client authentication at the authorization server. */
  credentials: ClientCredentials;
}

export type NonInteractiveGrant = ClientCredentialsGrant | JwtBearerGrant | IdJagGrant;

export interface OAuthClientOptions extends AuthHttpOptions, ClientMetadataOptions {
  /**
   * The user-facing step of the authorization code grant: receives the authorization URL, returns the URL the
   * authorization server redirected back to (`redirectUri` with `code`, `state`, `iss`). A CLI uses
   * `LoopbackRedirect`; a host with its own UI opens a browser and captures the redirect.
   */
  authorize?: (authorizationUrl: URL) => Promise<string | URL>;
  /** The redirect URI of this client; required for the authorization code grant. */
  redirectUri?: string;
  /** This client's metadata document URL (https, with a path), used where servers support it. */
  clientMetadataUrl?: string;
  /** Credentials registered beforehand, each for the authorization server (issuer) that issued them. */
  clients?: readonly PreRegisteredClient[];
  /** A non-interactive grant instead of the authorization code grant. */
  grant?: NonInteractiveGrant;
  /** Where registrations and tokens live. Default: in memory. */
  store?: AuthStore;
  /** Ask for `offline_access` (a refresh token) when the authorization server lists it. Default true. */
  offlineAccess?: boolean;
  /**
   * DPoP-bound tokens (RFC 9449), when the authorization server supports ES256 proofs: `true` always, `false`
   * never. Default: when the MCP server's challenge uses the `DPoP` scheme.
   */
  dpop?: boolean;
  /**
   * Let the flows of a non-loopback MCP server reach loopback, private and link-local addresses (an
   * authorization server on the same private network). Default false.
   */
  allowPrivateNetworks?: boolean;
  /** Authorization flows at most per HTTP request (401, then step-ups). Default 3. */
  maxAttempts?: number;
  /** Progress messages (never secrets). */
  logger?: { debug?(message: string): void; warn?(message: string): void };
}

/** What is stored per MCP server. */
interface TokenRecord {
  access_token: string;
  refresh_token?: string;
  /** Milliseconds since the epoch. */
  expires_at?: number;
  /** Scopes the server said it granted, when it said. */
  scope?: string;
  /** Every scope requested so far for this server (the step-up union). */
  requested: string[];
  issuer: string;
  resource: string;
  /** The private DPoP key a DPoP-bound token (and its refresh token) is bound to. */
  dpop_jwk?: Jwk;
}

/** The DPoP key of the tokens being obtained, and where server nonces are kept. */
type DpopBinding = { key: DpopKey; nonces: DpopNonces } | undefined;

interface Failure {
  status: 401 | 403;
  challenge: (BearerChallenge & { scheme: 'bearer' | 'dpop' }) | undefined;
  sentToken: string | undefined;
  protocolVersion: string | undefined;
}

/** The store key of a server's tokens: its URL without query or fragment. */
function serverKey(url: URL): string {
  return `${url.origin}${url.pathname}`;
}

function tokensKey(server: string): string {
  return `tokens ${server}`;
}

/** The issuers a grant names (none for a predicate). */
function issuersOf(grant: NonInteractiveGrant): readonly string[] {
  const { issuer } = grant;
  return typeof issuer === 'string' ? [issuer] : typeof issuer === 'function' ? [] : issuer;
}

function grantTrusts(grant: NonInteractiveGrant, issuer: string): boolean {
  return typeof grant.issuer === 'function'
    ? grant.issuer(issuer) === true
    : issuersOf(grant).includes(issuer);
}

function union(...lists: readonly (readonly string[] | undefined)[]): string[] {
  return [...new Set(lists.flatMap((list) => list ?? []))];
}

function headerValue(headers: RequestInit['headers'], name: string): string | undefined {
  if (headers === undefined) return undefined;
  return new Headers(headers).get(name) ?? undefined;
}

export class OAuthClient {
  readonly #options: OAuthClientOptions;
  readonly #store: AuthStore;
  readonly #flows = new Map<string, Promise<void>>();
  readonly #nonces = new DpopNonces();
  readonly #dpopKeys = new Map<string, DpopKey>();
  /** Non-interactive grants that the server refused: not attempted again for that server. */
  readonly #refused = new Map<string, Error>();

  constructor(options: OAuthClientOptions = {}) {
    if (!options.grant && options.redirectUri !== undefined) {
      try {
        new URL(options.redirectUri);
      } catch {
        throw new TypeError('OAuthClient: redirectUri must be an absolute URL');
      }
    }
    if (options.grant) {
      const issuer: unknown = options.grant.issuer;
      const issuers = typeof issuer === 'string' ? [issuer] : Array.isArray(issuer) ? issuer : [];
      const valid =
        typeof issuer === 'function' ||
        (issuers.length > 0 && issuers.every((i) => typeof i === 'string' && i !== ''));
      if (!valid) {
        throw new TypeError(
          'OAuthClient: a grant needs `issuer`, the authorization server(s) it is bound to',
        );
      }
    }
    if (options.clientMetadataUrl !== undefined) {
      const url = new URL(options.clientMetadataUrl);
      if (url.protocol !== 'https:' || url.pathname === '/') {
        throw new TypeError('OAuthClient: clientMetadataUrl must be an https URL with a path');
      }
    }
    this.#options = options;
    this.#store = options.store ?? new MemoryAuthStore();
  }

  /** The store in use. */
  get store(): AuthStore {
    return this.#store;
  }

  /**
   * Wraps `fetch` for the MCP server at `serverUrl` (what the HTTP client transports call with an `auth`
   * option): every request to it carries its token, whatever path it goes to (HTTP+SSE posts elsewhere).
   */
  wrapFetch(inner: FetchLike, serverUrl: URL, events?: HttpClientAuthEvents): FetchLike {
    const server = new URL(serverUrl);
    return (url, init) => this.#send(inner, server, url, init, events);
  }

  /** The access token stored for an MCP server, if any. */
  async accessToken(serverUrl: string | URL): Promise<string | undefined> {
    return (await this.#record(serverKey(new URL(serverUrl))))?.access_token;
  }

  /** Forgets the tokens stored for an MCP server (a logout). */
  async forget(serverUrl: string | URL): Promise<void> {
    const server = serverKey(new URL(serverUrl));
    this.#refused.delete(server);
    await this.#store.delete(tokensKey(server));
  }

  async #record(server: string): Promise<TokenRecord | undefined> {
    const value = await this.#store.get(tokensKey(server));
    if (!value || typeof value.access_token !== 'string' || typeof value.issuer !== 'string')
      return undefined;
    return value as unknown as TokenRecord;
  }

  async #send(
    inner: FetchLike,
    serverUrl: URL,
    url: URL,
    init: RequestInit,
    events: HttpClientAuthEvents | undefined,
  ): Promise<Response> {
    // Credentials go to the server's own origin only (an HTTP+SSE `endpoint` event could name another one).
    if (url.origin !== serverUrl.origin) return inner(url, init);
    const server = serverKey(serverUrl);
    const protocolVersion = headerValue(init.headers, 'mcp-protocol-version');
    const max = this.#options.maxAttempts ?? 3;
    let nonceRetries = 0;
    for (let attempts = 0; ; attempts++) {
      const record = await this.#record(server);
      const token = record?.access_token;
      const headers = new Headers(init.headers);
      const dpop = record?.dpop_jwk === undefined ? undefined : this.#dpopKey(record.dpop_jwk);
      if (token !== undefined && dpop) {
        // A DPoP-bound token: the DPoP scheme and a fresh proof for this very request (RFC 9449 §7).
        headers.set('authorization', `DPoP ${token}`);
        headers.set(
          'dpop',
          dpop.proof(init.method ?? 'GET', url, { accessToken: token, nonce: this.#nonces.get(url) }),
        );
      } else if (token !== undefined) {
        headers.set('authorization', `Bearer ${token}`);
      }
      const response = await inner(url, { ...init, headers });
      const freshNonce = dpop !== undefined && this.#nonces.learn(url, response);
      if (response.status !== 401 && response.status !== 403) return response;
      const challenge = authChallengeOf(response.headers.get('www-authenticate'));
      if (freshNonce && challenge?.error === 'use_dpop_nonce' && nonceRetries < 2) {
        // The server wants its nonce in the proof (RFC 9449 §9): not an authorization failure.
        nonceRetries++;
        attempts--;
        response.body?.cancel().catch(() => {});
        continue;
      }
      if (response.status === 403 && challenge?.error !== 'insufficient_scope') return response;
      if (attempts >= max) {
        this.#options.logger?.warn?.(`authorization: giving up on ${server} after ${attempts} attempts`);
        return response;
      }
      const failure: Failure = { status: response.status, challenge, sentToken: token, protocolVersion };
      if (response.status === 403 && !(await this.#stepUpHelps(server, challenge))) {
        this.#options.logger?.warn?.(
          `authorization: ${server} asks for scopes already requested (${(challenge?.scopes ?? []).join(' ')}); not authorizing again`,
        );
        return response;
      }
      response.body?.cancel().catch(() => {});
      await this.#authorizeOnce(server, serverUrl, failure, init.signal ?? undefined);
      events?.authorized?.();
    }
  }

  /** The DPoP key stored with a token (imported once). */
  #dpopKey(jwk: Jwk): DpopKey {
    const id = `${String(jwk.x)}.${String(jwk.y)}`;
    let key = this.#dpopKeys.get(id);
    if (!key) {
      key = DpopKey.fromJwk(jwk);
      this.#dpopKeys.set(id, key);
    }
    return key;
  }

  /** A step-up is worth it only if it asks for a scope not requested before. */
  async #stepUpHelps(server: string, challenge: BearerChallenge | undefined): Promise<boolean> {
    const requested = new Set((await this.#record(server))?.requested ?? []);
    return (challenge?.scopes ?? []).some((scope) => !requested.has(scope));
  }

  /** One flow per server at a time: concurrent failures wait for the running one and then retry. */
  async #authorizeOnce(
    server: string,
    url: URL,
    failure: Failure,
    signal: AbortSignal | undefined,
  ): Promise<void> {
    let flow = this.#flows.get(server);
    if (!flow) {
      flow = this.#flow(server, url, failure).finally(() => this.#flows.delete(server));
      this.#flows.set(server, flow);
    } else if ((await this.#record(server))?.access_token !== failure.sentToken) {
      // Another request's flow already produced a new token: retry with it.
      return;
    }
    if (!signal) return flow;
    // The request may be given up on; the flow goes on for the others.
    await new Promise<void>((resolve, reject) => {
      if (signal.aborted) return reject(signal.reason);
      const onAbort = () => reject(signal.reason);
      signal.addEventListener('abort', onAbort, { once: true });
      flow.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
    });
  }

  #debug(message: string): void {
    this.#options.logger?.debug?.(`authorization: ${message}`);
  }

  async #flow(server: string, url: URL, failure: Failure): Promise<void> {
    const sticky = this.#refused.get(server);
    if (sticky) throw sticky;
    const previous = await this.#record(server);
    const http = this.#http(url);
    const grant = this.#options.grant;
    const preferredIssuers = [
      ...(this.#options.clients ?? []).map((c) => c.issuer),
      ...(grant ? issuersOf(grant) : []),
    ];
    this.#debug(`${failure.status} from ${server}; discovering`);
    const discovered = await discover(url, failure.challenge?.resourceMetadata, {
      ...http,
      ...(failure.protocolVersion !== undefined && { protocolVersion: failure.protocolVersion }),
      preferredIssuers,
    });
    this.#debug(`authorization server ${discovered.issuer}, resource ${discovered.resource}`);
    const algorithms = discovered.metadata?.dpop_signing_alg_values_supported;
    const wantsDpop = this.#options.dpop ?? failure.challenge?.scheme === 'dpop';
    const dpop: DpopBinding =
      wantsDpop && Array.isArray(algorithms) && algorithms.includes('ES256')
        ? { key: DpopKey.generate(), nonces: this.#nonces }
        : undefined;

    // A 401 for the token we hold: its refresh token, at the server that issued it, comes first.
    if (
      failure.status === 401 &&
      previous?.refresh_token !== undefined &&
      previous.issuer === discovered.issuer &&
      previous.access_token === failure.sentToken &&
      !this.#options.grant
    ) {
      try {
        await this.#refresh(server, previous, discovered, failure.protocolVersion);
        return;
      } catch (error) {
        if (!(error instanceof OAuthError)) throw error;
        this.#debug(`refresh refused (${error.error}); authorizing again`);
        await this.#store.delete(tokensKey(server));
      }
    }

    // Scopes carried over only from the same authorization server.
    const carried = previous?.issuer === discovered.issuer ? previous.requested : [];
    const challenged = failure.challenge?.scopes;
    const base =
      challenged !== undefined && challenged.length > 0
        ? challenged
        : discovered.resourceMetadata?.scopes_supported;
    const requested = union(carried, base);

    if (grant && !grantTrusts(grant, discovered.issuer)) {
      const refusal = new AuthorizationError(
        'untrusted-issuer',
        `The server ${server} names the authorization server ${JSON.stringify(discovered.issuer.slice(0, 200))}, which the ${grant.type} credentials are not bound to; nothing was sent`,
      );
      this.#refused.set(server, refusal);
      throw refusal;
    }
    try {
      const tokens = grant
        ? await this.#nonInteractive(grant, discovered, requested, failure.protocolVersion, dpop)
        : await this.#authorizationCode(discovered, requested, failure.protocolVersion, dpop);
      await this.#save(server, discovered, tokens, requested, dpop);
    } catch (error) {
      if (grant && error instanceof OAuthError) this.#refused.set(server, error);
      throw error;
    }
  }

  /**
   * The HTTP options of a flow for the MCP server at `server`. Unless the server is itself on loopback (local
   * development) or `allowPrivateNetworks` is set, no request of the flow may reach a loopback, private or
   * link-local address: the server names the URLs, and must not aim this process at its neighbours.
   */
  #http(server: URL | string): AuthHttpOptions {
    const http: AuthHttpOptions = {};
    const local = isLoopbackHost(new URL(server).hostname);
    if ((!local && this.#options.allowPrivateNetworks !== true) || this.#options.blockPrivateNetworks)
      http.blockPrivateNetworks = true;
    if (this.#options.lookup) http.lookup = this.#options.lookup;
    if (this.#options.fetch) http.fetch = this.#options.fetch;
    if (this.#options.timeoutMs !== undefined) http.timeoutMs = this.#options.timeoutMs;
    if (this.#options.allowHttp !== undefined) http.allowHttp = this.#options.allowHttp;
    return http;
  }

  async #save(
    server: string,
    discovered: Discovered,
    tokens: TokenResponse,
    requested: string[],
    dpop: DpopBinding,
  ): Promise<void> {
    const record: TokenRecord = {
      access_token: tokens.access_token,
      requested,
      issuer: discovered.issuer,
      resource: discovered.resource,
    };
    if (dpop && tokens.token_type.toLowerCase() === 'dpop') record.dpop_jwk = dpop.key.toJwk();
    if (tokens.refresh_token !== undefined) record.refresh_token = tokens.refresh_token;
    if (tokens.expires_in !== undefined) record.expires_at = Date.now() + tokens.expires_in * 1000;
    if (tokens.scope !== undefined) record.scope = tokens.scope;
    await this.#store.set(tokensKey(server), record as unknown as JsonObject);
    this.#debug(`tokens stored for ${server}${record.refresh_token ? ' (with a refresh token)' : ''}`);
  }

  async #refresh(
    server: string,
    previous: TokenRecord,
    discovered: Discovered,
    protocolVersion: string | undefined,
  ): Promise<void> {
    const client = await this.#client(discovered, protocolVersion);
    // A DPoP-bound refresh token is used with the key it is bound to (RFC 9449 §5).
    const dpop: DpopBinding =
      previous.dpop_jwk === undefined
        ? undefined
        : { key: this.#dpopKey(previous.dpop_jwk), nonces: this.#nonces };
    const tokens = await requestToken(
      {
        endpoint: discovered.tokenEndpoint,
        form: {
          grant_type: 'refresh_token',
          refresh_token: previous.refresh_token,
          resource: discovered.resource,
        },
        credentials: client.credentials,
        method: client.method,
        issuer: discovered.issuer,
        ...(dpop && { dpop }),
      },
      this.#http(discovered.resource),
    );
    // Rotation: a new refresh token replaces the old; without one, the old stays valid (OAuth 2.1 §4.3.1).
    const next: TokenResponse = { ...tokens };
    if (next.refresh_token === undefined && previous.refresh_token !== undefined)
      next.refresh_token = previous.refresh_token;
    await this.#save(server, discovered, next, previous.requested, dpop);
    this.#debug(`refreshed the tokens of ${server}`);
  }

  #grantTypes(discovered: Discovered): string[] {
    const types = ['authorization_code', 'refresh_token'];
    const supported = discovered.metadata?.grant_types_supported;
    return supported ? types.filter((t) => t === 'authorization_code' || supported.includes(t)) : types;
  }

  async #client(discovered: Discovered, protocolVersion: string | undefined): Promise<RegisteredClient> {
    const redirectUri = this.#options.redirectUri;
    if (redirectUri === undefined) {
      throw new AuthorizationError('interaction', 'The authorization code grant needs a redirectUri');
    }
    return obtainClient({
      discovered,
      redirectUri,
      grantTypes: this.#grantTypes(discovered),
      preRegistered: this.#options.clients ?? [],
      clientMetadataUrl: this.#options.clientMetadataUrl,
      metadata: this.#options,
      store: this.#store,
      http: this.#http(discovered.resource),
      ...(protocolVersion !== undefined && { protocolVersion }),
    });
  }

  async #authorizationCode(
    discovered: Discovered,
    requested: string[],
    protocolVersion: string | undefined,
    dpop: DpopBinding,
  ): Promise<TokenResponse> {
    const authorize = this.#options.authorize;
    if (!authorize)
      throw new AuthorizationError(
        'interaction',
        'No `authorize` handler: cannot run the authorization code grant',
      );
    const { metadata } = discovered;
    if (!discovered.authorizationEndpoint) {
      throw new AuthorizationError(
        'discovery',
        'The authorization server metadata has no authorization_endpoint',
      );
    }
    if (metadata && !(metadata.code_challenge_methods_supported ?? []).includes('S256')) {
      throw new AuthorizationError(
        'pkce',
        'The authorization server does not advertise PKCE with S256; refusing to proceed',
      );
    }
    const scopes = [...requested];
    if (
      this.#options.offlineAccess !== false &&
      metadata?.scopes_supported?.includes('offline_access') &&
      !scopes.includes('offline_access')
    ) {
      scopes.push('offline_access');
    }
    const scope = scopes.length > 0 ? scopes.join(' ') : undefined;
    const client = await this.#client(discovered, protocolVersion);
    this.#debug(`client ${client.source} at ${discovered.issuer}`);

    const pkce = createPkce();
    const state = randomToken(32);
    const redirectUri = this.#options.redirectUri!;
    const target = new URL(discovered.authorizationEndpoint);
    const params: Record<string, string | undefined> = {
      response_type: 'code',
      client_id: client.credentials.clientId,
      redirect_uri: redirectUri,
      scope,
      state,
      code_challenge: pkce.challenge,
      code_challenge_method: pkce.method,
      resource: discovered.resource,
    };
    for (const [name, value] of Object.entries(params))
      if (value !== undefined) target.searchParams.set(name, value);

    let returned: URL;
    try {
      returned = new URL(await authorize(target));
    } catch (error) {
      throw new AuthorizationError('interaction', 'The authorization step did not complete', {
        cause: error,
      });
    }
    const code = this.#readAuthorizationResponse(returned, redirectUri, state, discovered);
    return requestToken(
      {
        endpoint: discovered.tokenEndpoint,
        form: {
          grant_type: 'authorization_code',
          code,
          redirect_uri: redirectUri,
          code_verifier: pkce.verifier,
          resource: discovered.resource,
        },
        credentials: client.credentials,
        method: client.method,
        issuer: discovered.issuer,
        ...(dpop && { dpop }),
      },
      this.#http(discovered.resource),
    ).catch(async (error: unknown) => {
      // A stored registration the server no longer knows: forget it, so that the next flow registers again.
      if (error instanceof OAuthError && error.error === 'invalid_client' && client.source === 'stored') {
        await forgetClient(this.#store, discovered.issuer);
      }
      throw error;
    });
  }

  /**
   * Validates the redirect (RFC 6749 §4.1.2, RFC 9207 §2.4, MCP "Authorization Response Validation") and
   * returns the code. The order matters: nothing of an error response is trusted before `state` and `iss` pass.
   */
  #readAuthorizationResponse(
    returned: URL,
    redirectUri: string,
    state: string,
    discovered: Discovered,
  ): string {
    const expected = new URL(redirectUri);
    if (returned.origin !== expected.origin || returned.pathname !== expected.pathname) {
      throw new AuthorizationError(
        'interaction',
        'The authorization response did not come back to the redirect URI',
      );
    }
    const params = returned.searchParams;
    const states = params.getAll('state');
    if (states.length !== 1 || states[0] !== state) {
      throw new AuthorizationError(
        'state-mismatch',
        'The authorization response does not carry our state; discarded',
      );
    }
    const issuers = params.getAll('iss');
    const advertised = discovered.metadata?.authorization_response_iss_parameter_supported === true;
    if (issuers.length > 1)
      throw new AuthorizationError('iss-mismatch', 'The authorization response carries several iss values');
    if (issuers.length === 0) {
      if (advertised) {
        throw new AuthorizationError(
          'iss-mismatch',
          'The authorization server advertises the iss parameter but its response has none; discarded (RFC 9207)',
        );
      }
    } else if (issuers[0] !== discovered.issuer) {
      throw new AuthorizationError(
        'iss-mismatch',
        `The authorization response comes from issuer ${JSON.stringify(issuers[0]!.slice(0, 200))}, not ${JSON.stringify(discovered.issuer)}; discarded (RFC 9207)`,
      );
    }
    const error = params.get('error');
    if (error !== null) {
      throw new OAuthError(error.slice(0, 100), params.get('error_description')?.slice(0, 500) ?? undefined);
    }
    const codes = params.getAll('code');
    if (codes.length !== 1 || codes[0] === '') {
      throw new AuthorizationError('invalid-response', 'The authorization response has no single code');
    }
    return codes[0]!;
  }

  async #nonInteractive(
    grant: NonInteractiveGrant,
    discovered: Discovered,
    requested: string[],
    protocolVersion: string | undefined,
    dpop: DpopBinding,
  ): Promise<TokenResponse> {
    const scope = requested.length > 0 ? requested.join(' ') : undefined;
    const headers: Record<string, string> = {};
    if (protocolVersion !== undefined) headers['mcp-protocol-version'] = protocolVersion;
    const http = this.#http(discovered.resource);
    switch (grant.type) {
      case 'client_credentials':
        return requestToken(
          {
            endpoint: discovered.tokenEndpoint,
            form: { grant_type: 'client_credentials', scope, resource: discovered.resource },
            credentials: grant.credentials,
            method: fixedAuthMethod(grant.credentials),
            issuer: discovered.issuer,
            headers,
            ...(dpop && { dpop }),
          },
          http,
        );
      case 'jwt_bearer': {
        const assertion = typeof grant.assertion === 'string' ? grant.assertion : await grant.assertion();
        return requestToken(
          {
            endpoint: discovered.tokenEndpoint,
            form: {
              grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer',
              assertion,
              scope,
              resource: discovered.resource,
            },
            credentials: grant.credentials,
            method: grant.credentials ? fixedAuthMethod(grant.credentials) : 'none',
            issuer: discovered.issuer,
            headers,
            ...(dpop && { dpop }),
          },
          http,
        );
      }
      case 'id_jag': {
        const idToken = typeof grant.idToken === 'string' ? grant.idToken : await grant.idToken();
        const idpEndpoint = new URL(grant.idpTokenEndpoint);
        const exchanged = await requestToken(
          {
            endpoint: idpEndpoint,
            form: {
              grant_type: 'urn:ietf:params:oauth:grant-type:token-exchange',
              requested_token_type: 'urn:ietf:params:oauth:token-type:id-jag',
              subject_token: idToken,
              subject_token_type: 'urn:ietf:params:oauth:token-type:id_token',
              audience: discovered.issuer,
              resource: discovered.resource,
              scope,
            },
            credentials: grant.idpCredentials,
            method: grant.idpCredentials ? fixedAuthMethod(grant.idpCredentials) : 'none',
            issuer: idpEndpoint.origin,
            tokenTypes: 'any',
          },
          http,
        );
        if (exchanged.issued_token_type !== 'urn:ietf:params:oauth:token-type:id-jag') {
          throw new AuthorizationError('invalid-response', 'The identity provider did not issue an ID-JAG');
        }
        return requestToken(
          {
            endpoint: discovered.tokenEndpoint,
            form: {
              grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer',
              assertion: exchanged.access_token,
              scope,
              resource: discovered.resource,
            },
            credentials: grant.credentials,
            method: fixedAuthMethod(grant.credentials),
            issuer: discovered.issuer,
            headers,
            ...(dpop && { dpop }),
          },
          http,
        );
      }
    }
  }
}
