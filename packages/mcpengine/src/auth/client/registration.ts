/**
 * Obtaining a client id for an authorization server, in the priority order of 2025-11-25 and 2026-07-28:
 * pre-registered credentials (bound to their issuer), a Client ID Metadata Document URL when the server
 * supports them, a registration stored earlier for the same issuer, then Dynamic Client Registration
 * (RFC 7591, with `application_type`). Registrations are stored per issuer and never presented to another one.
 */
import type { JsonObject } from '../../protocol/types.js';
import { AuthorizationError, OAuthError } from '../errors.js';
import { authRequest, type AuthHttpOptions } from '../http.js';
import type { Discovered } from './discovery.js';
import type { AuthStore } from './store.js';
import { chooseAuthMethod, type ClientAuthMethod, type ClientCredentials } from './token-endpoint.js';

/** Pre-registered credentials, for one authorization server. */
export interface PreRegisteredClient extends ClientCredentials {
  /** The issuer identifier of the authorization server that issued them. */
  issuer: string;
}

/** What this client says about itself (DCR body, and what its CIMD document should contain). */
export interface ClientMetadataOptions {
  clientName?: string;
  clientUri?: string;
  softwareId?: string;
  softwareVersion?: string;
  /** OIDC `application_type`; default `native` for loopback or custom-scheme redirect URIs, else `web`. */
  applicationType?: 'native' | 'web';
}

export interface RegisteredClient {
  readonly credentials: ClientCredentials;
  readonly method: ClientAuthMethod;
  /** How it was obtained. */
  readonly source: 'pre-registered' | 'metadata-document' | 'stored' | 'registered';
}

const METHODS: readonly ClientAuthMethod[] = [
  'none',
  'client_secret_basic',
  'client_secret_post',
  'private_key_jwt',
];

export function applicationTypeFor(redirectUri: string): 'native' | 'web' {
  try {
    const url = new URL(redirectUri);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'native';
    const host = url.hostname;
    return host === 'localhost' || host === '127.0.0.1' || host === '[::1]' ? 'native' : 'web';
  } catch {
    return 'native';
  }
}

function storedKey(issuer: string): string {
  return `client ${issuer}`;
}

/** The method to ask for at registration: `none` when the server takes public clients, else a secret. */
function registrationMethod(supported: readonly string[] | undefined): ClientAuthMethod {
  if (supported === undefined || supported.includes('none')) return 'none';
  if (supported.includes('client_secret_basic')) return 'client_secret_basic';
  if (supported.includes('client_secret_post')) return 'client_secret_post';
  return 'none';
}

export interface RegistrationContext {
  discovered: Discovered;
  redirectUri: string;
  grantTypes: readonly string[];
  preRegistered: readonly PreRegisteredClient[];
  clientMetadataUrl: string | undefined;
  metadata: ClientMetadataOptions;
  store: AuthStore;
  http: AuthHttpOptions;
  protocolVersion?: string;
}

export async function obtainClient(context: RegistrationContext): Promise<RegisteredClient> {
  const { discovered } = context;
  const supported = discovered.metadata?.token_endpoint_auth_methods_supported;
  const own = context.preRegistered.find((client) => client.issuer === discovered.issuer);
  if (own) return { credentials: own, method: chooseAuthMethod(own, supported), source: 'pre-registered' };

  if (
    context.clientMetadataUrl !== undefined &&
    discovered.metadata?.client_id_metadata_document_supported === true
  ) {
    const credentials: ClientCredentials = { clientId: context.clientMetadataUrl };
    return { credentials, method: 'none', source: 'metadata-document' };
  }

  const stored = await context.store.get(storedKey(discovered.issuer));
  if (
    stored &&
    typeof stored.client_id === 'string' &&
    Array.isArray(stored.redirect_uris) &&
    stored.redirect_uris.includes(context.redirectUri)
  ) {
    const credentials: ClientCredentials = { clientId: stored.client_id };
    if (typeof stored.client_secret === 'string') credentials.clientSecret = stored.client_secret;
    const method = METHODS.includes(stored.token_endpoint_auth_method as ClientAuthMethod)
      ? (stored.token_endpoint_auth_method as ClientAuthMethod)
      : chooseAuthMethod(credentials, supported);
    return { credentials, method, source: 'stored' };
  }

  if (discovered.registrationEndpoint) return register(context, discovered.registrationEndpoint);

  const elsewhere = context.preRegistered.map((c) => c.issuer);
  throw new AuthorizationError(
    'registration',
    elsewhere.length > 0
      ? `The configured client credentials belong to ${elsewhere.join(', ')}, but the MCP server now uses ${discovered.issuer}, which offers neither registration nor client metadata documents`
      : `No client id for ${discovered.issuer}: it offers neither registration nor client metadata documents, and no credentials were configured for it`,
  );
}

async function register(context: RegistrationContext, endpoint: URL): Promise<RegisteredClient> {
  const { discovered, metadata } = context;
  const requested = registrationMethod(discovered.metadata?.token_endpoint_auth_methods_supported);
  // No `scope` member: it would limit the registration to today's scopes and make later step-up impossible at
  // servers that enforce it (RFC 7591 §2).
  const body: JsonObject = {
    client_name: metadata.clientName ?? 'MCPEngine client',
    redirect_uris: [context.redirectUri],
    grant_types: [...context.grantTypes],
    response_types: ['code'],
    token_endpoint_auth_method: requested,
    application_type: metadata.applicationType ?? applicationTypeFor(context.redirectUri),
  };
  if (metadata.clientUri !== undefined) body.client_uri = metadata.clientUri;
  if (metadata.softwareId !== undefined) body.software_id = metadata.softwareId;
  if (metadata.softwareVersion !== undefined) body.software_version = metadata.softwareVersion;
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
  if (context.protocolVersion) headers['mcp-protocol-version'] = context.protocolVersion;
  const response = await authRequest(
    endpoint,
    { method: 'POST', headers, body: JSON.stringify(body) },
    'client registration response',
    {
      maxBytes: 64 * 1024,
      ...context.http,
    },
  );
  let answer: Record<string, unknown> | undefined;
  try {
    const parsed: unknown = JSON.parse(response.text);
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed))
      answer = parsed as Record<string, unknown>;
  } catch {
    answer = undefined;
  }
  if (response.status !== 201 && response.status !== 200) {
    if (answer && typeof answer.error === 'string') {
      throw new OAuthError(
        answer.error.slice(0, 100),
        typeof answer.error_description === 'string' ? answer.error_description.slice(0, 500) : undefined,
        response.status,
      );
    }
    throw new AuthorizationError('registration', `Client registration was answered HTTP ${response.status}`);
  }
  if (
    !answer ||
    typeof answer.client_id !== 'string' ||
    answer.client_id.length === 0 ||
    answer.client_id.length > 2048
  ) {
    throw new AuthorizationError('invalid-response', 'The client registration response has no client_id');
  }
  if (
    answer.client_secret !== undefined &&
    (typeof answer.client_secret !== 'string' || answer.client_secret.length > 4096)
  ) {
    throw new AuthorizationError(
      'invalid-response',
      'The client registration response has an invalid client_secret',
    );
  }
  const answered = answer.token_endpoint_auth_method;
  if (answered !== undefined && !METHODS.includes(answered as ClientAuthMethod)) {
    throw new AuthorizationError(
      'registration',
      `The server registered an unsupported token endpoint auth method`,
    );
  }
  const method = (answered as ClientAuthMethod | undefined) ?? requested;
  const credentials: ClientCredentials = { clientId: answer.client_id };
  if (typeof answer.client_secret === 'string') credentials.clientSecret = answer.client_secret;
  if (
    (method === 'client_secret_basic' || method === 'client_secret_post') &&
    credentials.clientSecret === undefined
  ) {
    throw new AuthorizationError(
      'invalid-response',
      `The server registered ${method} but issued no client_secret`,
    );
  }
  const record: JsonObject = {
    issuer: discovered.issuer,
    client_id: credentials.clientId,
    redirect_uris: [context.redirectUri],
    token_endpoint_auth_method: method,
  };
  if (credentials.clientSecret !== undefined) record.client_secret = credentials.clientSecret;
  await context.store.set(storedKey(discovered.issuer), record);
  return { credentials, method, source: 'registered' };
}

/** Forgets the registration stored for an issuer (the server no longer knows the client). */
export async function forgetClient(store: AuthStore, issuer: string): Promise<void> {
  await store.delete(storedKey(issuer));
}
