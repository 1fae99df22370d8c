/**
 * Client-side discovery: from an MCP server's 401/403 to the authorization server to use.
 *
 * 1. Protected Resource Metadata (RFC 9728): the `resource_metadata` URL of the challenge (on the server's own
 *    origin), else the path-based
 *    well-known URL, else the root one. Its `resource` must stand for the server (same origin, path prefix) and
 *    is kept verbatim: it is the RFC 8707 `resource` the client sends.
 * 2. Authorization Server Metadata: RFC 8414 and OpenID Connect discovery URLs in the order of 2025-11-25 and
 *    2026-07-28; the document's `issuer` must be the issuer it was looked up for.
 * 3. Without any protected resource metadata (a 2025-03-26 server): the authorization server is the MCP
 *    server's origin, with its RFC 8414 metadata or, failing that, the default `/authorize`, `/token` and
 *    `/register` endpoints.
 */
import { AuthorizationError } from '../errors.js';
import { authRequest, checkUrl, jsonObjectOf, type AuthHttpOptions } from '../http.js';
import {
  authorizationServerMetadataCandidates,
  protectedResourceMetadataCandidates,
  resourceCovers,
  validateAuthorizationServerMetadata,
  validateProtectedResourceMetadata,
  type AuthorizationServerMetadata,
  type ProtectedResourceMetadata,
} from '../metadata.js';

export interface Discovered {
  /** The MCP server's metadata; undefined for a 2025-03-26 server without it. */
  readonly resourceMetadata: ProtectedResourceMetadata | undefined;
  /** The `resource` parameter to send: the metadata's `resource` verbatim, else the server URL. */
  readonly resource: string;
  /** The authorization server's issuer identifier (the key of everything stored for it). */
  readonly issuer: string;
  /** Its metadata; undefined when the 2025-03-26 default endpoints are used. */
  readonly metadata: AuthorizationServerMetadata | undefined;
  readonly authorizationEndpoint: URL | undefined;
  readonly tokenEndpoint: URL;
  readonly registrationEndpoint: URL | undefined;
}

export interface DiscoveryOptions extends AuthHttpOptions {
  /** Sent as `MCP-Protocol-Version` on discovery requests (a SHOULD of 2025-03-26). */
  protocolVersion?: string;
  /** Prefer this issuer when the metadata lists several (pre-registered credentials). */
  preferredIssuers?: readonly string[];
}

function headers(options: DiscoveryOptions): Record<string, string> {
  const out: Record<string, string> = { accept: 'application/json' };
  if (options.protocolVersion) out['mcp-protocol-version'] = options.protocolVersion;
  return out;
}

/**
 * A challenge's `resource_metadata` must be on the MCP server's own origin: the metadata describes that server,
 * and any other origin would let a server make this client fetch URLs of its choosing.
 */
function sameOrigin(url: URL, serverUrl: URL): URL {
  if (url.origin !== serverUrl.origin) {
    throw new AuthorizationError(
      'blocked-target',
      `The resource_metadata URL of the challenge is on ${url.origin}, not on the MCP server's origin ${serverUrl.origin}; refused`,
    );
  }
  return url;
}

/**
 * The protected resource metadata for `serverUrl`, or undefined when no well-known location has it. A
 * `resource_metadata` URL from the challenge must work: it is not silently replaced by guesses.
 */
export async function discoverResourceMetadata(
  serverUrl: URL,
  resourceMetadataUrl: string | undefined,
  options: DiscoveryOptions,
): Promise<ProtectedResourceMetadata | undefined> {
  const fromChallenge = resourceMetadataUrl !== undefined;
  const candidates = fromChallenge
    ? [sameOrigin(checkUrl(resourceMetadataUrl, 'resource metadata URL', options.allowHttp), serverUrl)]
    : protectedResourceMetadataCandidates(serverUrl);
  for (const candidate of candidates) {
    const response = await authRequest(
      candidate,
      { method: 'GET', headers: headers(options) },
      'protected resource metadata',
      {
        maxBytes: 64 * 1024,
        ...options,
      },
    );
    if (response.status !== 200) {
      if (fromChallenge) {
        throw new AuthorizationError(
          'discovery',
          `The protected resource metadata at ${candidate.href} answered HTTP ${response.status}`,
        );
      }
      continue;
    }
    const metadata = validateProtectedResourceMetadata(jsonObjectOf(response, 'protected resource metadata'));
    if (!resourceCovers(metadata.resource, serverUrl)) {
      throw new AuthorizationError(
        'resource-mismatch',
        `The protected resource metadata is for ${JSON.stringify(metadata.resource.slice(0, 200))}, not for the MCP server ${serverUrl.origin}${serverUrl.pathname}; refused`,
      );
    }
    return metadata;
  }
  return undefined;
}

/**
 * The metadata of the authorization server `issuer`, trying each discovery URL in order. A document naming
 * another issuer is never used; if that is all there is, the error says so.
 */
export async function discoverAuthorizationServer(
  issuer: string,
  options: DiscoveryOptions,
): Promise<AuthorizationServerMetadata | undefined> {
  checkUrl(issuer, 'authorization server issuer', options.allowHttp);
  let mismatch: AuthorizationError | undefined;
  for (const candidate of authorizationServerMetadataCandidates(issuer)) {
    const response = await authRequest(
      candidate,
      { method: 'GET', headers: headers(options) },
      'authorization server metadata',
      {
        maxBytes: 256 * 1024,
        ...options,
      },
    );
    if (response.status !== 200) continue;
    try {
      return validateAuthorizationServerMetadata(
        jsonObjectOf(response, 'authorization server metadata'),
        issuer,
      );
    } catch (error) {
      if (error instanceof AuthorizationError && error.reason === 'issuer-mismatch') {
        mismatch = error;
        continue;
      }
      throw error;
    }
  }
  if (mismatch) throw mismatch;
  return undefined;
}

function endpoint(value: string | undefined, what: string, options: DiscoveryOptions): URL | undefined {
  return value === undefined ? undefined : checkUrl(value, what, options.allowHttp);
}

/** Everything a flow needs, from the server URL and the challenge's `resource_metadata`. */
export async function discover(
  serverUrl: URL,
  resourceMetadataUrl: string | undefined,
  options: DiscoveryOptions,
): Promise<Discovered> {
  const resourceMetadata = await discoverResourceMetadata(serverUrl, resourceMetadataUrl, options);
  if (resourceMetadata) {
    const servers = resourceMetadata.authorization_servers ?? [];
    const issuer = servers.find((s) => options.preferredIssuers?.includes(s)) ?? servers[0]!;
    const metadata = await discoverAuthorizationServer(issuer, options);
    if (!metadata) {
      throw new AuthorizationError('discovery', `The authorization server ${issuer} publishes no metadata`);
    }
    const tokenEndpoint = endpoint(metadata.token_endpoint, 'token endpoint', options);
    if (!tokenEndpoint)
      throw new AuthorizationError('discovery', 'The authorization server metadata has no token_endpoint');
    return {
      resourceMetadata,
      resource: resourceMetadata.resource,
      issuer,
      metadata,
      authorizationEndpoint: endpoint(metadata.authorization_endpoint, 'authorization endpoint', options),
      tokenEndpoint,
      registrationEndpoint: endpoint(metadata.registration_endpoint, 'registration endpoint', options),
    };
  }
  // 2025-03-26: the authorization base URL is the MCP server's origin.
  const issuer = serverUrl.origin;
  const resource = `${serverUrl.origin}${serverUrl.pathname}`;
  const metadata = await discoverAuthorizationServer(issuer, options);
  if (metadata) {
    const tokenEndpoint = endpoint(metadata.token_endpoint, 'token endpoint', options);
    if (!tokenEndpoint)
      throw new AuthorizationError('discovery', 'The authorization server metadata has no token_endpoint');
    return {
      resourceMetadata: undefined,
      resource,
      issuer,
      metadata,
      authorizationEndpoint: endpoint(metadata.authorization_endpoint, 'authorization endpoint', options),
      tokenEndpoint,
      registrationEndpoint: endpoint(metadata.registration_endpoint, 'registration endpoint', options),
    };
  }
  return {
    resourceMetadata: undefined,
    resource,
    issuer,
    metadata: undefined,
    authorizationEndpoint: new URL('/authorize', issuer),
    tokenEndpoint: new URL('/token', issuer),
    registrationEndpoint: new URL('/register', issuer),
  };
}
