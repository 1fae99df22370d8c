/**
 * An MCP server as an OAuth 2.1 resource server: `ProtectedResource` serves its Protected Resource Metadata
 * (RFC 9728) at the path-based and root well-known URLs, authenticates every HTTP request by its bearer token
 * (the `Authorization` header only), answers 401 with a `WWW-Authenticate` challenge naming the metadata and
 * scopes, and 403 `insufficient_scope` for a tool, resource or prompt whose `requiredScopes` the token lacks
 * (step-up authorization).
 *
 * Plug it into the HTTP handler:
 *
 * ```ts
 * const protectedResource = new ProtectedResource({ resource, authorizationServers: [issuer], verifier });
 * await serveHttp(server, { port: 3000, ...protectedResource.httpOptions(server) });
 * ```
 *
 * Tokens are never passed through: the engine never forwards the `Authorization` header anywhere, and `ctx.auth.token`
 * is for this server only. A server that calls upstream APIs obtains its own tokens for them.
 */
import type { JsonObject } from '../protocol/types.js';
import type { AuthInfo } from '../server/context.js';
import { coreOf, grantsScopes } from '../internal/server.js';
import type { McpServer } from '../server/server.js';
import type { McpHttpHandlerOptions } from '../transports/http/server-options.js';
import { DpopProofVerifier } from './dpop-proof.js';
import { JwksUnavailableError } from './jwks.js';
import { PRM_WELL_KNOWN, protectedResourceMetadataUrl, type ProtectedResourceMetadata } from './metadata.js';
import { InvalidTokenError, type TokenBinding, type TokenVerifier } from './verifier.js';
import { buildBearerChallenge } from './www-authenticate.js';

export interface ProtectedResourceOptions {
  /**
   * This server's canonical URI (RFC 8707 §2, the `resource` of its metadata): the MCP endpoint URL as clients
   * use it, e.g. `https://mcp.example.com/mcp`. Tokens must name it in their audience.
   */
  resource: string;
  /** Issuer identifiers of the authorization servers whose tokens are accepted (at least one). */
  authorizationServers: readonly string[];
  verifier: TokenVerifier;
  /** Scopes clients should ask for (`scopes_supported`); the minimal set for basic use. */
  scopesSupported?: readonly string[];
  /** Scopes every request needs, whatever it calls. Named in the 401 challenge. */
  requiredScopes?: readonly string[];
  /**
   * Scope hierarchy: a granted scope implies these (transitively), e.g. `{ 'files:write': ['files:read'] }`.
   * Applied to `AuthInfo.scopes`, so that `requiredScopes` and `visible` filters see implied scopes too.
   */
  impliedScopes?: Readonly<Record<string, readonly string[]>>;
  /**
   * Let requests without a token through, as anonymous callers (items with `requiredScopes` stay hidden, and
   * calling one is answered 401). Default false: every request needs a valid token.
   */
  allowAnonymous?: boolean;
  /** `resource_name` and other members to add to the metadata document. */
  metadata?: Readonly<Record<string, unknown>>;
  /** The metadata URL to advertise, when it is served elsewhere. Default: the path-based well-known URL. */
  resourceMetadataUrl?: string;
  /**
   * DPoP (RFC 9449): requests with `Authorization: DPoP <token>` and a `DPoP` proof are accepted when the proof
   * verifies for this request and the token is bound to its key. Default: on, with `DpopProofVerifier`'s
   * defaults; `false` answers such requests 401.
   */
  dpop?: boolean | DpopProofVerifier;
  /** Receives failures of the verifier that are not the token's fault (answered 503). */
  onError?: (error: unknown) => void;
}

const JSON_HEADERS = { 'content-type': 'application/json', 'cache-control': 'no-store' };

function oauthError(status: number, error: string, description: string, challenge?: string): Response {
  const headers: Record<string, string> = { ...JSON_HEADERS };
  if (challenge) headers['www-authenticate'] = challenge;
  return new Response(JSON.stringify({ error, error_description: description }), { status, headers });
}

/** The scopes a request needs, from the `requiredScopes` of what it names. */
export function requiredScopesOf(
  server: McpServer,
  method: string,
  params: JsonObject | undefined,
): readonly string[] | undefined {
  const definition = coreOf(server).definition;
  const name = typeof params?.name === 'string' ? params.name : undefined;
  const uri = typeof params?.uri === 'string' ? params.uri : undefined;
  const resourceScopes = (target: string | undefined) => {
    if (target === undefined) return undefined;
    const resource = definition.resourcesByUri.get(target);
    if (resource) return resource.config.requiredScopes;
    return definition.templates.find((t) => t.template.match(target))?.config.requiredScopes;
  };
  switch (method) {
    case 'tools/call':
      return name === undefined ? undefined : definition.toolsByName.get(name)?.requiredScopes;
    case 'prompts/get':
      return name === undefined ? undefined : definition.promptsByName.get(name)?.config.requiredScopes;
    case 'resources/read':
    case 'resources/subscribe':
      return resourceScopes(uri);
    case 'completion/complete': {
      const ref = params?.ref as JsonObject | undefined;
      if (ref?.type === 'ref/prompt' && typeof ref.name === 'string') {
        return definition.promptsByName.get(ref.name)?.config.requiredScopes;
      }
      if (ref?.type === 'ref/resource' && typeof ref.uri === 'string') {
        const uriTemplate = ref.uri;
        return definition.templates.find((t) => t.uriTemplate === uriTemplate)?.config.requiredScopes;
      }
      return undefined;
    }
    default:
      return undefined;
  }
}

export class ProtectedResource {
  /** The Protected Resource Metadata document served. */
  readonly metadata: ProtectedResourceMetadata;
  /** Where the metadata is advertised (`resource_metadata` in challenges). */
  readonly metadataUrl: string;
  readonly #options: ProtectedResourceOptions;
  readonly #json: string;
  /** Paths the metadata is served at: path-based, and the root. */
  readonly #paths: ReadonlySet<string>;
  readonly #dpop: DpopProofVerifier | undefined;

  constructor(options: ProtectedResourceOptions) {
    let resource: URL;
    try {
      resource = new URL(options.resource);
    } catch {
      throw new TypeError('ProtectedResource: `resource` must be an absolute URL');
    }
    if (resource.hash !== '') throw new TypeError('ProtectedResource: `resource` must not have a fragment');
    if (options.authorizationServers.length === 0) {
      throw new TypeError('ProtectedResource: name at least one authorization server');
    }
    this.#options = options;
    this.#dpop =
      options.dpop === false
        ? undefined
        : options.dpop instanceof DpopProofVerifier
          ? options.dpop
          : new DpopProofVerifier();
    const metadata: ProtectedResourceMetadata = {
      ...options.metadata,
      resource: options.resource,
      authorization_servers: [...options.authorizationServers],
      bearer_methods_supported: ['header'],
    };
    if (options.scopesSupported !== undefined) metadata.scopes_supported = [...options.scopesSupported];
    this.metadata = Object.freeze(metadata);
    this.#json = JSON.stringify(metadata);
    const pathBased = protectedResourceMetadataUrl(options.resource);
    this.metadataUrl = options.resourceMetadataUrl ?? pathBased.href;
    this.#paths = new Set([pathBased.pathname, PRM_WELL_KNOWN]);
  }

  /** The options for `createMcpHttpHandler` / `serveHttp`: authentication, per-request scopes, the metadata. */
  httpOptions(server: McpServer): Pick<McpHttpHandlerOptions, 'authenticate' | 'authorize' | 'routes'> {
    return {
      authenticate: (request) => this.authenticate(request),
      authorize: (message, auth) => this.authorize(server, message.method, message.params, auth),
      routes: (request, url) => this.metadataResponse(request, url),
    };
  }

  /** Serves the metadata document (GET, HEAD, CORS preflight) at its well-known paths; undefined elsewhere. */
  metadataResponse(request: Request, url: URL = new URL(request.url)): Response | undefined {
    if (!this.#paths.has(url.pathname)) return undefined;
    const cors = {
      'access-control-allow-origin': '*',
      'access-control-allow-methods': 'GET, HEAD, OPTIONS',
      'access-control-allow-headers': 'mcp-protocol-version',
    };
    if (request.method === 'OPTIONS') return new Response(null, { status: 204, headers: cors });
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      return new Response(null, { status: 405, headers: { allow: 'GET, HEAD, OPTIONS' } });
    }
    return new Response(request.method === 'HEAD' ? null : this.#json, {
      status: 200,
      headers: { 'content-type': 'application/json', 'cache-control': 'max-age=300', ...cors },
    });
  }

  /** The challenge for a request without a usable token, or with an invalid one. */
  unauthorized(description?: string, scopes?: readonly string[]): Response {
    const scope = scopes ?? this.#challengeScopes();
    const challenge = buildBearerChallenge({
      resourceMetadata: this.metadataUrl,
      scope,
      ...(description !== undefined && { error: 'invalid_token', errorDescription: description }),
    });
    return oauthError(
      401,
      description === undefined ? 'unauthorized' : 'invalid_token',
      description ?? 'Authorization required',
      challenge,
    );
  }

  /** The step-up challenge: 403 `insufficient_scope` naming every scope the operation needs. */
  insufficientScope(
    scopes: readonly string[],
    description = 'The access token lacks a scope this request needs',
  ): Response {
    const challenge = buildBearerChallenge({
      error: 'insufficient_scope',
      scope: scopes,
      resourceMetadata: this.metadataUrl,
      errorDescription: description,
    });
    return oauthError(403, 'insufficient_scope', description, challenge);
  }

  #challengeScopes(): readonly string[] | undefined {
    const required = this.#options.requiredScopes;
    if (required && required.length > 0) return required;
    return this.#options.scopesSupported;
  }

  /**
   * Authenticates one HTTP request: its caller's `AuthInfo`, or the response refusing it. Only the
   * `Authorization: Bearer` header is read; a token in the query string is refused outright (400).
   */
  async authenticate(request: Request): Promise<AuthInfo | Response | undefined> {
    const url = new URL(request.url);
    if (url.searchParams.has('access_token')) {
      return oauthError(
        400,
        'invalid_request',
        'Access tokens are accepted in the Authorization header only',
      );
    }
    const header = request.headers.get('authorization');
    if (header === null) {
      return this.#options.allowAnonymous ? undefined : this.unauthorized();
    }
    const dpop = /^DPoP +([A-Za-z0-9\-._~+/]+=*) *$/i.exec(header);
    let binding: TokenBinding | undefined;
    if (dpop && this.#dpop) {
      // One proof per request: repeated DPoP headers arrive joined by a comma, which no JWT contains.
      const proof = request.headers.get('dpop');
      if (proof === null || proof.includes(','))
        return this.unauthorized('A DPoP request needs one DPoP proof');
      try {
        binding = { jkt: await this.#dpop.verify(proof, request.method, url, dpop[1]!) };
      } catch (error) {
        if (error instanceof InvalidTokenError) return this.unauthorized(error.message);
        this.#options.onError?.(error);
        return oauthError(503, 'temporarily_unavailable', 'The DPoP proof could not be checked');
      }
    }
    const match = binding ? dpop : /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i.exec(header);
    if (!match) {
      if (/^Bearer\b/i.test(header)) {
        return oauthError(
          400,
          'invalid_request',
          'The Authorization header is malformed',
          buildBearerChallenge({
            error: 'invalid_request',
            resourceMetadata: this.metadataUrl,
          }),
        );
      }
      // Another scheme (Basic, DPoP...): not one this resource accepts.
      return this.unauthorized();
    }
    let auth: AuthInfo;
    try {
      auth = await this.#options.verifier.verify(match[1]!, binding);
    } catch (error) {
      if (error instanceof InvalidTokenError) return this.unauthorized(error.message);
      this.#options.onError?.(error);
      const headers: Record<string, string> = { ...JSON_HEADERS, 'retry-after': '5' };
      const description =
        error instanceof JwksUnavailableError
          ? 'The authorization server keys are not available'
          : 'The access token could not be checked';
      return new Response(
        JSON.stringify({ error: 'temporarily_unavailable', error_description: description }),
        {
          status: 503,
          headers,
        },
      );
    }
    auth = { ...auth, scopes: this.#expand(auth.scopes) };
    const required = this.#options.requiredScopes ?? [];
    if (!grantsScopes(auth.scopes, required)) return this.insufficientScope(required);
    return auth;
  }

  /** Per-request check (the HTTP handler's `authorize` hook): the scopes of what the request names. */
  authorize(
    server: McpServer,
    method: string,
    params: JsonObject | undefined,
    auth: AuthInfo | undefined,
  ): Response | undefined {
    const needed = requiredScopesOf(server, method, params);
    if (!needed) return undefined;
    if (!auth) return this.unauthorized(undefined, union(this.#options.requiredScopes, needed));
    if (grantsScopes(auth.scopes, needed)) return undefined;
    // Granted scopes come along (the 2025-11-25 "recommended approach"), so that a client that replaces its
    // token rather than widening it keeps what it had; offline_access is no resource scope (SEP-2207).
    const granted = auth.scopes.filter((scope) => scope !== 'offline_access');
    return this.insufficientScope(union([...granted, ...(this.#options.requiredScopes ?? [])], needed));
  }

  #expand(scopes: readonly string[]): string[] {
    const implied = this.#options.impliedScopes;
    const out = new Set(scopes);
    if (!implied) return [...out];
    const queue = [...out];
    while (queue.length > 0) {
      for (const next of implied[queue.pop()!] ?? []) {
        if (!out.has(next)) {
          out.add(next);
          queue.push(next);
        }
      }
    }
    return [...out];
  }
}

function union(a: readonly string[] | undefined, b: readonly string[]): string[] {
  return [...new Set([...(a ?? []), ...b])];
}
