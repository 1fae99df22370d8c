/**
 * The metadata documents of OAuth discovery: Protected Resource Metadata (RFC 9728) and Authorization Server
 * Metadata (RFC 8414, and OpenID Connect Discovery 1.0), their well-known URLs, and validation of what a
 * client receives.
 */
import { AuthorizationError } from './errors.js';

/** RFC 9728 §2. Only the members MCP uses are typed; the rest pass through. */
export interface ProtectedResourceMetadata {
  resource: string;
  authorization_servers?: string[];
  scopes_supported?: string[];
  bearer_methods_supported?: string[];
  resource_name?: string;
  resource_documentation?: string;
  [member: string]: unknown;
}

/** RFC 8414 §2 (plus the MCP-relevant extensions). */
export interface AuthorizationServerMetadata {
  issuer: string;
  authorization_endpoint?: string;
  token_endpoint?: string;
  registration_endpoint?: string;
  jwks_uri?: string;
  introspection_endpoint?: string;
  revocation_endpoint?: string;
  scopes_supported?: string[];
  response_types_supported?: string[];
  grant_types_supported?: string[];
  token_endpoint_auth_methods_supported?: string[];
  token_endpoint_auth_signing_alg_values_supported?: string[];
  code_challenge_methods_supported?: string[];
  client_id_metadata_document_supported?: boolean;
  authorization_response_iss_parameter_supported?: boolean;
  /** RFC 9449 §5.1. */
  dpop_signing_alg_values_supported?: string[];
  [member: string]: unknown;
}

export const PRM_WELL_KNOWN = '/.well-known/oauth-protected-resource';
export const OAUTH_WELL_KNOWN = '/.well-known/oauth-authorization-server';
export const OIDC_WELL_KNOWN = '/.well-known/openid-configuration';

/** A URL's path without the trailing slash, `''` for the root. */
function pathOf(url: URL): string {
  return url.pathname === '/' ? '' : url.pathname.replace(/\/$/, '');
}

/** RFC 9728 §3.1: the well-known URL for a resource, path inserted after the well-known prefix. */
export function protectedResourceMetadataUrl(resource: string | URL): URL {
  const url = new URL(resource);
  return new URL(`${url.origin}${PRM_WELL_KNOWN}${pathOf(url)}`);
}

/**
 * Where to look for a resource's metadata when the challenge does not say: path-based first, then the root
 * (the order of MCP 2025-06-18 onwards). A resource at the root has only the root URL.
 */
export function protectedResourceMetadataCandidates(serverUrl: string | URL): URL[] {
  const url = new URL(serverUrl);
  const root = new URL(`${url.origin}${PRM_WELL_KNOWN}`);
  const pathBased = protectedResourceMetadataUrl(url);
  return pathBased.href === root.href ? [root] : [pathBased, root];
}

/**
 * The discovery URLs for an issuer, in the order MCP 2025-11-25 and 2026-07-28 require: RFC 8414 with path
 * insertion, OIDC with path insertion, OIDC path appending; without a path: RFC 8414, then OIDC.
 */
export function authorizationServerMetadataCandidates(issuer: string | URL): URL[] {
  const url = new URL(issuer);
  const path = pathOf(url);
  if (path === '')
    return [new URL(`${url.origin}${OAUTH_WELL_KNOWN}`), new URL(`${url.origin}${OIDC_WELL_KNOWN}`)];
  return [
    new URL(`${url.origin}${OAUTH_WELL_KNOWN}${path}`),
    new URL(`${url.origin}${OIDC_WELL_KNOWN}${path}`),
    new URL(`${url.origin}${path}${OIDC_WELL_KNOWN}`),
  ];
}

function stringArray(value: unknown, what: string, max = 256): string[] | undefined {
  if (value === undefined) return undefined;
  if (
    !Array.isArray(value) ||
    value.length > max ||
    value.some((v) => typeof v !== 'string' || v.length > 2048)
  ) {
    throw new AuthorizationError('invalid-response', `${what} must be an array of strings`);
  }
  return value as string[];
}

function optionalString(value: unknown, what: string): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value.length === 0 || value.length > 2048) {
    throw new AuthorizationError('invalid-response', `${what} must be a non-empty string`);
  }
  return value;
}

/** Checks the shape of a protected resource metadata document (RFC 9728 §2 and MCP's requirements). */
export function validateProtectedResourceMetadata(value: Record<string, unknown>): ProtectedResourceMetadata {
  const resource = optionalString(value.resource, 'The protected resource metadata "resource"');
  if (resource === undefined) {
    throw new AuthorizationError('invalid-response', 'The protected resource metadata has no "resource"');
  }
  const servers = stringArray(value.authorization_servers, 'authorization_servers', 32);
  if (servers === undefined || servers.length === 0) {
    throw new AuthorizationError(
      'discovery',
      'The protected resource metadata names no authorization server ("authorization_servers")',
    );
  }
  stringArray(value.scopes_supported, 'scopes_supported');
  stringArray(value.bearer_methods_supported, 'bearer_methods_supported');
  return value as ProtectedResourceMetadata;
}

/**
 * Checks an authorization server metadata document: `issuer` must be identical (simple string comparison) to
 * the issuer it was looked up for (RFC 8414 §3.3, OIDC Discovery §4.3), endpoints must be strings.
 */
export function validateAuthorizationServerMetadata(
  value: Record<string, unknown>,
  expectedIssuer: string,
): AuthorizationServerMetadata {
  if (value.issuer !== expectedIssuer) {
    throw new AuthorizationError(
      'issuer-mismatch',
      `The authorization server metadata names issuer ${JSON.stringify(String(value.issuer).slice(0, 200))}, not ${JSON.stringify(expectedIssuer)}; refused`,
    );
  }
  for (const member of [
    'authorization_endpoint',
    'token_endpoint',
    'registration_endpoint',
    'jwks_uri',
    'introspection_endpoint',
    'revocation_endpoint',
  ]) {
    optionalString(value[member], member);
  }
  for (const member of [
    'scopes_supported',
    'response_types_supported',
    'grant_types_supported',
    'token_endpoint_auth_methods_supported',
    'token_endpoint_auth_signing_alg_values_supported',
    'code_challenge_methods_supported',
    'dpop_signing_alg_values_supported',
  ]) {
    stringArray(value[member], member);
  }
  for (const member of [
    'client_id_metadata_document_supported',
    'authorization_response_iss_parameter_supported',
  ]) {
    if (value[member] !== undefined && typeof value[member] !== 'boolean') {
      throw new AuthorizationError('invalid-response', `${member} must be a boolean`);
    }
  }
  return value as AuthorizationServerMetadata;
}

/**
 * Whether the protected resource metadata's `resource` may stand for the MCP server at `serverUrl`: same
 * origin, and its path a prefix of the server's path at a segment boundary (so `https://h` and `https://h/mcp`
 * both stand for `https://h/mcp`, `https://h/m` does not). Scheme and host compare case-insensitively (URL
 * parsing), the resource string itself is never rewritten.
 */
export function resourceCovers(resource: string, serverUrl: string | URL): boolean {
  let claimed: URL;
  let server: URL;
  try {
    claimed = new URL(resource);
    server = new URL(serverUrl);
  } catch {
    return false;
  }
  if (claimed.hash !== '' || claimed.search !== '' || claimed.username !== '' || claimed.password !== '')
    return false;
  if (claimed.origin !== server.origin) return false;
  const prefix = claimed.pathname.endsWith('/') ? claimed.pathname : `${claimed.pathname}/`;
  const path = server.pathname.endsWith('/') ? server.pathname : `${server.pathname}/`;
  return path.startsWith(prefix);
}
