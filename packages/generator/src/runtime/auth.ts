/**
 * Credentials from the environment, one set of variables per security scheme of the description. A call uses
 * the first alternative of its operation's security requirement whose variables are all set. OAuth2 tokens come
 * from a variable, the client-credentials grant (cached until shortly before expiry, refreshed), or an
 * authorization-code flow with PKCE through the engine's loopback redirect listener.
 */
import {
  authRequest,
  basicCredentials,
  createPkce,
  jsonObjectOf,
  LoopbackRedirect,
  randomToken,
} from 'mcpengine/auth';
import type { ResolvedOptions } from './config.js';
import type { AuthScheme, OperationTool } from './model.js';
import type { Secrets } from './secrets.js';

/** What a scheme adds to a request. */
export interface AppliedAuth {
  readonly headers: Record<string, string>;
  readonly query: [string, string][];
  readonly cookies: [string, string][];
}

/** A call whose credentials are not configured: the message names the variables to set. */
export class MissingCredentialsError extends Error {
  override readonly name = 'MissingCredentialsError';
}

interface CachedToken {
  readonly token: string;
  readonly expiresAt: number;
  readonly refreshToken?: string;
}

/** The variables a scheme needs set before it can be used (for oauth2, one of two ways). */
export function requiredVariables(scheme: AuthScheme): string[] {
  switch (scheme.type) {
    case 'apiKey':
      return [scheme.env.key];
    case 'bearer':
      return [scheme.env.token];
    case 'basic':
      // An empty password is common (API key as user name); only the user name is required.
      return [scheme.env.username];
    case 'oauth2':
      return [scheme.env.token];
  }
}

export class Credentials {
  readonly #schemes: ReadonlyMap<string, AuthScheme>;
  readonly #options: ResolvedOptions;
  readonly #secrets: Secrets;
  readonly #tokens = new Map<string, CachedToken>();
  readonly #pending = new Map<string, Promise<CachedToken>>();

  constructor(schemes: readonly AuthScheme[], options: ResolvedOptions, secrets: Secrets) {
    this.#schemes = new Map(schemes.map((scheme) => [scheme.name, scheme]));
    this.#options = options;
    this.#secrets = secrets;
    for (const scheme of schemes) for (const name of Object.values(scheme.env)) secrets.add(this.#env(name));
  }

  #env(name: string): string | undefined {
    const value = this.#options.env[name];
    return value === undefined || value === '' ? undefined : value;
  }

  /** Whether the scheme's variables are set (oauth2: a token, or a client id and secret with a grant). */
  configured(name: string): boolean {
    const scheme = this.#schemes.get(name);
    if (scheme === undefined) return false;
    if (scheme.type !== 'oauth2') return requiredVariables(scheme).every((v) => this.#env(v) !== undefined);
    if (this.#env(scheme.env.token) !== undefined) return true;
    if (this.#env(scheme.env.clientId) === undefined) return false;
    // Client credentials needs the secret; the authorization-code flow can run with a public client.
    if (scheme.clientCredentials !== undefined && this.#env(scheme.env.clientSecret) !== undefined)
      return true;
    return scheme.authorizationCode !== undefined;
  }

  /** What to set for a scheme, as one phrase. */
  describe(name: string): string {
    const scheme = this.#schemes.get(name);
    if (scheme === undefined) return `an unknown security scheme ${name}`;
    if (scheme.type === 'oauth2')
      return `${scheme.env.token}${
        scheme.clientCredentials !== undefined
          ? ` (or ${scheme.env.clientId} and ${scheme.env.clientSecret})`
          : scheme.authorizationCode !== undefined
            ? ` (or ${scheme.env.clientId} to authorize in a browser)`
            : ''
      }`;
    return requiredVariables(scheme).join(' and ');
  }

  /** The first satisfiable alternative of an operation, or why none is. */
  alternativeFor(tool: OperationTool): readonly string[] | MissingCredentialsError {
    if (tool.security.length === 0) return [];
    for (const alternative of tool.security) {
      if (alternative.every((name) => this.configured(name))) return alternative;
    }
    const first = tool.security[0]!;
    const what = first.map((name) => this.describe(name)).join(' and ');
    const others =
      tool.security.length > 1
        ? ` (or the variables of another of its ${tool.security.length} security alternatives)`
        : '';
    return new MissingCredentialsError(`${tool.name} needs credentials: set ${what}${others}`);
  }

  async apply(alternative: readonly string[], signal: AbortSignal): Promise<AppliedAuth> {
    const applied: AppliedAuth = { headers: {}, query: [], cookies: [] };
    for (const name of alternative) {
      const scheme = this.#schemes.get(name)!;
      switch (scheme.type) {
        case 'apiKey': {
          const key = this.#env(scheme.env.key)!;
          if (scheme.in === 'header') applied.headers[scheme.param] = key;
          else if (scheme.in === 'query') applied.query.push([scheme.param, key]);
          else applied.cookies.push([scheme.param, key]);
          break;
        }
        case 'bearer':
          applied.headers['Authorization'] = `${scheme.scheme} ${this.#env(scheme.env.token)!}`;
          break;
        case 'basic': {
          const user = this.#env(scheme.env.username)!;
          const password = this.#env(scheme.env.password) ?? '';
          applied.headers['Authorization'] =
            `Basic ${Buffer.from(`${user}:${password}`, 'utf8').toString('base64')}`;
          break;
        }
        case 'oauth2':
          applied.headers['Authorization'] = `Bearer ${await this.#oauthToken(scheme, signal)}`;
          break;
      }
    }
    return applied;
  }

  /**
   * Forgets a cached OAuth access token the API refused (401), so the next call gets a new one — with the
   * refresh token when there is one (not a new authorization in the browser).
   */
  invalidate(alternative: readonly string[]): void {
    for (const name of alternative) {
      const cached = this.#tokens.get(name);
      if (cached?.refreshToken === undefined) this.#tokens.delete(name);
      else this.#tokens.set(name, { ...cached, expiresAt: 0 });
    }
  }

  async #oauthToken(scheme: Extract<AuthScheme, { type: 'oauth2' }>, signal: AbortSignal): Promise<string> {
    const fixed = this.#env(scheme.env.token);
    if (fixed !== undefined) return fixed;
    const cached = this.#tokens.get(scheme.name);
    if (cached !== undefined && cached.expiresAt > Date.now()) return cached.token;
    let pending = this.#pending.get(scheme.name);
    if (pending === undefined) {
      pending = this.#obtain(
        scheme,
        cached?.refreshToken ?? this.#env(scheme.env.refreshToken),
        signal,
      ).finally(() => this.#pending.delete(scheme.name));
      this.#pending.set(scheme.name, pending);
    }
    const token = await pending;
    this.#tokens.set(scheme.name, token);
    return token.token;
  }

  async #obtain(
    scheme: Extract<AuthScheme, { type: 'oauth2' }>,
    refreshToken: string | undefined,
    signal: AbortSignal,
  ): Promise<CachedToken> {
    const clientId = this.#env(scheme.env.clientId)!;
    const clientSecret = this.#env(scheme.env.clientSecret);
    const scopes = this.#env(scheme.env.scopes) ?? scheme.scopes.join(' ');
    const refreshUrl = scheme.authorizationCode?.tokenUrl ?? scheme.clientCredentials?.tokenUrl;
    if (refreshToken !== undefined && refreshUrl !== undefined) {
      try {
        return await this.#tokenRequest(
          refreshUrl,
          scheme.name,
          { grant_type: 'refresh_token', refresh_token: refreshToken },
          clientId,
          clientSecret,
          signal,
        );
      } catch (error) {
        this.#options.log(
          `[openapi] refreshing the ${scheme.name} token failed (${this.#secrets.redact((error as Error).message)}); authorizing again`,
        );
      }
    }
    if (clientSecret !== undefined && scheme.clientCredentials !== undefined) {
      return this.#tokenRequest(
        scheme.clientCredentials.tokenUrl,
        scheme.name,
        { grant_type: 'client_credentials', ...(scopes === '' ? {} : { scope: scopes }) },
        clientId,
        clientSecret,
        signal,
      );
    }
    if (scheme.authorizationCode === undefined)
      throw new MissingCredentialsError(
        `${scheme.name}: set ${scheme.env.token}, or ${scheme.env.clientId} and ${scheme.env.clientSecret}`,
      );
    return this.#authorizationCode(scheme, scheme.authorizationCode, clientId, clientSecret, scopes, signal);
  }

  async #authorizationCode(
    scheme: Extract<AuthScheme, { type: 'oauth2' }>,
    flow: { readonly authorizationUrl: string; readonly tokenUrl: string },
    clientId: string,
    clientSecret: string | undefined,
    scopes: string,
    signal: AbortSignal,
  ): Promise<CachedToken> {
    const loopback = await LoopbackRedirect.start({
      open:
        this.#options.openAuthorizationUrl ??
        ((url) => this.#options.log(`[openapi] ${scheme.name}: open this URL to authorize: ${url.href}`)),
    });
    try {
      const pkce = createPkce();
      const state = randomToken();
      const url = new URL(flow.authorizationUrl);
      url.searchParams.set('response_type', 'code');
      url.searchParams.set('client_id', clientId);
      url.searchParams.set('redirect_uri', loopback.redirectUri);
      url.searchParams.set('state', state);
      url.searchParams.set('code_challenge', pkce.challenge);
      url.searchParams.set('code_challenge_method', 'S256');
      if (scopes !== '') url.searchParams.set('scope', scopes);
      const redirect = await loopback.authorize(url);
      if (redirect.searchParams.get('state') !== state)
        throw new MissingCredentialsError(
          `${scheme.name}: the authorization redirect carried a different state`,
        );
      const code = redirect.searchParams.get('code');
      if (code === null)
        throw new MissingCredentialsError(
          `${scheme.name}: authorization refused (${redirect.searchParams.get('error') ?? 'no code'})`,
        );
      return await this.#tokenRequest(
        flow.tokenUrl,
        scheme.name,
        {
          grant_type: 'authorization_code',
          code,
          redirect_uri: loopback.redirectUri,
          code_verifier: pkce.verifier,
        },
        clientId,
        clientSecret,
        signal,
      );
    } finally {
      await loopback.close();
    }
  }

  async #tokenRequest(
    tokenUrl: string,
    schemeName: string,
    form: Record<string, string>,
    clientId: string,
    clientSecret: string | undefined,
    signal: AbortSignal,
  ): Promise<CachedToken> {
    const headers: Record<string, string> = {
      'content-type': 'application/x-www-form-urlencoded',
      accept: 'application/json',
    };
    const body = new URLSearchParams(form);
    if (clientSecret !== undefined) headers['authorization'] = basicCredentials(clientId, clientSecret);
    else body.set('client_id', clientId);
    const fetchImpl = this.#options.fetch;
    const response = await authRequest(
      new URL(tokenUrl),
      { method: 'POST', headers, body: body.toString(), signal },
      `${schemeName} token endpoint`,
      {
        fetch: (input, init) => fetchImpl(input, init),
        timeoutMs: this.#options.timeoutMs,
        allowHttp: 'loopback',
      },
    );
    if (response.status !== 200)
      throw new MissingCredentialsError(`${schemeName}: the token endpoint answered HTTP ${response.status}`);
    const json = jsonObjectOf(response, `${schemeName} token response`);
    const token = json['access_token'];
    if (typeof token !== 'string' || token === '')
      throw new MissingCredentialsError(`${schemeName}: the token response has no access_token`);
    this.#secrets.add(token);
    const refresh = typeof json['refresh_token'] === 'string' ? json['refresh_token'] : undefined;
    this.#secrets.add(refresh);
    const lifetime = typeof json['expires_in'] === 'number' ? json['expires_in'] : 3600;
    // Renewed 30 s (or a tenth of a short lifetime) before it expires.
    const margin = Math.min(30, lifetime / 10);
    return {
      token,
      expiresAt: Date.now() + (lifetime - margin) * 1000,
      ...(refresh === undefined ? {} : { refreshToken: refresh }),
    };
  }
}
