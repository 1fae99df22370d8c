/**
 * The development authorization server's clients: pre-registered ones, dynamically registered ones (RFC 7591)
 * and Client ID Metadata Documents (fetched from their https URL, validated, cached).
 */
import {
  AuthorizationError,
  authRequest,
  isLoopbackHost,
  isPrivateAddress,
  jsonObjectOf,
  randomToken,
  type AuthHttpOptions,
  type ClientAuthMethod,
  type Jwk,
} from 'mcpengine/auth';

export interface DevClient {
  client_id: string;
  /** Confidential clients only. */
  client_secret?: string;
  redirect_uris: string[];
  /** Default: `client_secret_basic` with a secret, `none` without. */
  token_endpoint_auth_method?: ClientAuthMethod;
  /** Default: `authorization_code` and `refresh_token` (plus `client_credentials` for confidential clients). */
  grant_types?: string[];
  client_name?: string;
  /** Scopes the client may get; default any the server supports. */
  scope?: string;
  /** `private_key_jwt`: the client's public keys. */
  jwks?: { keys: Jwk[] };
  jwks_uri?: string;
  application_type?: 'native' | 'web';
}

/** A client as the server uses it: defaults applied. */
export interface KnownClient extends DevClient {
  token_endpoint_auth_method: ClientAuthMethod;
  grant_types: string[];
  /** How the server learned about it. */
  source: 'configured' | 'registered' | 'metadata-document';
}

export class RegistrationError extends Error {
  override name = 'RegistrationError';
  constructor(
    readonly error: 'invalid_redirect_uri' | 'invalid_client_metadata',
    message: string,
  ) {
    super(message);
  }
}

const METHODS: readonly ClientAuthMethod[] = [
  'none',
  'client_secret_basic',
  'client_secret_post',
  'private_key_jwt',
];
const GRANTS = ['authorization_code', 'refresh_token', 'client_credentials'];

/** A redirect URI this server accepts: https, http on a loopback host, or a private-use scheme (RFC 8252). */
export function redirectUriProblem(uri: unknown): string | undefined {
  if (typeof uri !== 'string' || uri.length > 2048) return 'must be a string';
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return 'must be an absolute URI';
  }
  if (url.hash !== '') return 'must not have a fragment';
  if (url.protocol === 'https:') return undefined;
  if (url.protocol === 'http:')
    return isLoopbackHost(url.hostname) ? undefined : 'http is allowed for loopback hosts only';
  if (/^(javascript|data|file|vbscript):$/i.test(url.protocol)) return 'uses a forbidden scheme';
  return url.protocol.includes('.')
    ? undefined
    : 'private-use schemes must be reverse domain names (RFC 8252 §7.1)';
}

/**
 * Whether `presented` matches one of `registered` exactly, except that for loopback IP literals the port may
 * differ (RFC 8252 §7.3: native clients get an ephemeral port).
 */
export function redirectUriMatches(presented: string, registered: readonly string[]): boolean {
  if (registered.includes(presented)) return true;
  let url: URL;
  try {
    url = new URL(presented);
  } catch {
    return false;
  }
  if (url.protocol !== 'http:' || (url.hostname !== '127.0.0.1' && url.hostname !== '[::1]')) return false;
  return registered.some((candidate) => {
    try {
      const reg = new URL(candidate);
      return (
        reg.protocol === 'http:' &&
        reg.hostname === url.hostname &&
        reg.pathname === url.pathname &&
        reg.search === url.search
      );
    } catch {
      return false;
    }
  });
}

function withDefaults(client: DevClient, source: KnownClient['source']): KnownClient {
  const method =
    client.token_endpoint_auth_method ??
    (client.client_secret !== undefined ? 'client_secret_basic' : 'none');
  const confidential = method !== 'none';
  return {
    ...client,
    token_endpoint_auth_method: method,
    grant_types: client.grant_types ?? (confidential ? [...GRANTS] : ['authorization_code', 'refresh_token']),
    source,
  };
}

function stringList(value: unknown, what: string, max = 20): string[] | undefined {
  if (value === undefined) return undefined;
  if (
    !Array.isArray(value) ||
    value.length > max ||
    value.some((v) => typeof v !== 'string' || v.length > 2048)
  ) {
    throw new RegistrationError('invalid_client_metadata', `${what} must be an array of strings`);
  }
  return value as string[];
}

/** Where this server may fetch from on a client's word (metadata documents, `jwks_uri`). */
export interface FetchPolicy extends AuthHttpOptions {
  /** Let client-supplied URLs reach loopback, private and link-local addresses (local tests). Default false. */
  allowPrivateNetworks?: boolean;
}

/** Client ID Metadata Documents: on (default) or off, where they may be fetched from. */
export type CimdPolicy = FetchPolicy & {
  enabled?: boolean;
  /**
   * Development mode: also accept client ids on a loopback host (`http://127.0.0.1:<port>/…`, `localhost`,
   * `[::1]`), over http or https, e.g. a local inspector or test client hosting its own document. The spec
   * requires https client ids; this only ever opens loopback hosts, never other private addresses. Default false.
   */
  loopbackDocuments?: boolean;
};

/** The HTTP options of a fetch on a client's word: private targets blocked unless opted in. */
export function clientFetchOptions(policy: FetchPolicy): AuthHttpOptions {
  const { allowPrivateNetworks, ...http } = policy;
  return { allowHttp: false, ...http, blockPrivateNetworks: allowPrivateNetworks !== true };
}

/**
 * Checks a client's `jwks_uri` when it registers, so that a bad one is refused then rather than fetched
 * later: an absolute https URL (http only where allowed), no credentials or fragment, not on a local or
 * private address unless allowed. Names that resolve to private addresses are caught when fetching.
 */
function jwksUriProblem(value: string, policy: FetchPolicy): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'is not an absolute URL';
  }
  const httpAllowed =
    policy.allowHttp === true || (policy.allowHttp === 'loopback' && isLoopbackHost(url.hostname));
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && httpAllowed)) return 'must use https';
  if (url.username !== '' || url.password !== '' || url.hash !== '')
    return 'must not carry credentials or a fragment';
  if (
    policy.allowPrivateNetworks !== true &&
    (isLoopbackHost(url.hostname) || isPrivateAddress(url.hostname))
  )
    return 'is on a local or private network';
  return undefined;
}

/** Validates client metadata (RFC 7591 §2), for registration or from a metadata document. */
function validateMetadata(
  body: Record<string, unknown>,
  supportedMethods: readonly string[],
  fromDocument: boolean,
  policy: FetchPolicy = {},
): DevClient {
  const redirectUris = stringList(body.redirect_uris, 'redirect_uris') ?? [];
  for (const uri of redirectUris) {
    const problem = redirectUriProblem(uri);
    if (problem)
      throw new RegistrationError(
        'invalid_redirect_uri',
        `redirect_uri ${JSON.stringify(uri.slice(0, 100))} ${problem}`,
      );
  }
  const method = body.token_endpoint_auth_method ?? (fromDocument ? 'none' : 'client_secret_basic');
  if (
    typeof method !== 'string' ||
    !METHODS.includes(method as ClientAuthMethod) ||
    !supportedMethods.includes(method)
  ) {
    throw new RegistrationError(
      'invalid_client_metadata',
      `token_endpoint_auth_method ${JSON.stringify(method)} is not supported`,
    );
  }
  if (fromDocument && (method === 'client_secret_basic' || method === 'client_secret_post')) {
    throw new RegistrationError(
      'invalid_client_metadata',
      'A client metadata document cannot use a shared secret',
    );
  }
  const grantTypes = stringList(body.grant_types, 'grant_types') ?? ['authorization_code'];
  const unknown = grantTypes.filter((g) => !GRANTS.includes(g));
  if (unknown.length > 0)
    throw new RegistrationError('invalid_client_metadata', `Unsupported grant_types: ${unknown.join(', ')}`);
  if (grantTypes.includes('authorization_code') && redirectUris.length === 0) {
    throw new RegistrationError('invalid_redirect_uri', 'The authorization code grant needs redirect_uris');
  }
  if (grantTypes.includes('client_credentials') && method === 'none') {
    throw new RegistrationError(
      'invalid_client_metadata',
      'client_credentials needs an authenticated client',
    );
  }
  const responseTypes = stringList(body.response_types, 'response_types');
  if (responseTypes && responseTypes.some((t) => t !== 'code')) {
    throw new RegistrationError('invalid_client_metadata', 'Only the "code" response type is supported');
  }
  const applicationType = body.application_type;
  if (applicationType !== undefined && applicationType !== 'native' && applicationType !== 'web') {
    throw new RegistrationError('invalid_client_metadata', 'application_type must be "native" or "web"');
  }
  const client: DevClient = {
    client_id: '',
    redirect_uris: redirectUris,
    token_endpoint_auth_method: method as ClientAuthMethod,
    grant_types: grantTypes,
  };
  if (applicationType !== undefined) client.application_type = applicationType;
  if (typeof body.client_name === 'string') client.client_name = body.client_name.slice(0, 200);
  if (typeof body.scope === 'string') client.scope = body.scope.slice(0, 2048);
  if (method === 'private_key_jwt') {
    const jwks = body.jwks as { keys?: unknown } | undefined;
    if (jwks !== undefined && (typeof jwks !== 'object' || jwks === null || !Array.isArray(jwks.keys))) {
      throw new RegistrationError('invalid_client_metadata', 'jwks must be a JWK Set');
    }
    if (jwks) client.jwks = { keys: jwks.keys as Jwk[] };
    if (body.jwks_uri !== undefined) {
      const problem =
        typeof body.jwks_uri === 'string' ? jwksUriProblem(body.jwks_uri, policy) : 'must be a string';
      if (problem) throw new RegistrationError('invalid_client_metadata', `jwks_uri ${problem}`);
      client.jwks_uri = body.jwks_uri as string;
    }
    if (!client.jwks && !client.jwks_uri)
      throw new RegistrationError('invalid_client_metadata', 'private_key_jwt needs jwks or jwks_uri');
  }
  return client;
}

export interface ClientRegistryOptions {
  clients?: readonly DevClient[];
  supportedMethods: readonly string[];
  /** Fetching metadata documents. Default: https only, 5 s, 16 KiB. */
  cimd?: CimdPolicy;
  /** Dynamic registrations held at once. Default 10,000. */
  maxClients?: number;
  /** How long a dynamic registration lives (pre-registered clients never expire). Default 24 hours. */
  registrationTtlMs?: number;
  /** The clock (tests). */
  now?: () => number;
}

const DEFAULT_REGISTRATION_TTL_MS = 24 * 60 * 60_000;

/** Is this client id a metadata document URL (https with a path)? */
export function isMetadataDocumentId(clientId: string): boolean {
  try {
    const url = new URL(clientId);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.pathname !== '/' && url.hash === '';
  } catch {
    return false;
  }
}

export class ClientRegistry {
  readonly #clients = new Map<string, KnownClient>();
  readonly #documents = new Map<string, { client: KnownClient; until: number }>();
  /** Dynamic registrations by client id, with the time each expires (oldest first: a Map keeps order). */
  readonly #registeredUntil = new Map<string, number>();
  readonly #options: ClientRegistryOptions;
  readonly #now: () => number;

  constructor(options: ClientRegistryOptions) {
    this.#options = options;
    this.#now = options.now ?? Date.now;
    for (const client of options.clients ?? []) this.add(client);
  }

  /** Adds a pre-registered client. */
  add(client: DevClient): KnownClient {
    for (const uri of client.redirect_uris) {
      const problem = redirectUriProblem(uri);
      if (problem) throw new TypeError(`Client ${client.client_id}: redirect_uri ${uri} ${problem}`);
    }
    const known = withDefaults(client, 'configured');
    this.#clients.set(client.client_id, known);
    return known;
  }

  /** RFC 7591 registration: validates the metadata and issues the credentials. */
  register(body: Record<string, unknown>): KnownClient {
    this.#dropExpiredRegistrations();
    if (this.#registeredUntil.size >= (this.#options.maxClients ?? 10_000)) {
      throw new RegistrationError('invalid_client_metadata', 'Too many clients are registered');
    }
    const validated = validateMetadata(body, this.#options.supportedMethods, false, this.#options.cimd);
    validated.client_id = randomToken(16);
    if (
      validated.token_endpoint_auth_method === 'client_secret_basic' ||
      validated.token_endpoint_auth_method === 'client_secret_post'
    ) {
      validated.client_secret = randomToken(32);
    }
    const known = withDefaults(validated, 'registered');
    this.#clients.set(known.client_id, known);
    this.#registeredUntil.set(
      known.client_id,
      this.#now() + (this.#options.registrationTtlMs ?? DEFAULT_REGISTRATION_TTL_MS),
    );
    return known;
  }

  /** Registrations live a fixed time, so unattended registration cannot grow memory without end. */
  #dropExpiredRegistrations(): void {
    const now = this.#now();
    for (const [clientId, until] of this.#registeredUntil) {
      if (until > now) break; // in order of registration, and every registration lives the same time
      this.#registeredUntil.delete(clientId);
      this.#clients.delete(clientId);
    }
  }

  /** A client by id: registered, configured, or behind a metadata document URL (fetched when needed). */
  async find(clientId: string): Promise<KnownClient | undefined> {
    this.#dropExpiredRegistrations();
    const known = this.#clients.get(clientId);
    if (known) return known;
    if (this.#options.cimd?.enabled === false || !isMetadataDocumentId(clientId)) return undefined;
    const cached = this.#documents.get(clientId);
    if (cached && cached.until > Date.now()) return cached.client;
    const client = await this.#fetchDocument(clientId);
    if (this.#documents.size >= 1000) this.#documents.delete(this.#documents.keys().next().value!);
    this.#documents.set(clientId, { client, until: Date.now() + 5 * 60_000 });
    return client;
  }

  async #fetchDocument(clientId: string): Promise<KnownClient> {
    const url = new URL(clientId);
    const policy = this.#options.cimd ?? {};
    const { loopbackDocuments, enabled: _enabled, ...fetchPolicy } = policy;
    // Development mode: a document on a loopback host may be fetched over http (and only there).
    const loopback = loopbackDocuments === true && isLoopbackHost(url.hostname);
    let document: Record<string, unknown>;
    try {
      const response = await authRequest(
        url,
        { method: 'GET', headers: { accept: 'application/json' } },
        'client metadata document',
        {
          timeoutMs: 5_000,
          maxBytes: 16 * 1024,
          ...clientFetchOptions(fetchPolicy),
          ...(loopback ? { allowHttp: 'loopback' as const, blockPrivateNetworks: false } : {}),
        },
      );
      if (response.status !== 200) throw new Error(`HTTP ${response.status}`);
      document = jsonObjectOf(response, 'client metadata document');
    } catch (error) {
      const reason =
        error instanceof AuthorizationError || error instanceof Error ? error.message : String(error);
      throw new RegistrationError(
        'invalid_client_metadata',
        `The client metadata document could not be fetched: ${reason}`,
      );
    }
    if (document.client_id !== clientId) {
      throw new RegistrationError(
        'invalid_client_metadata',
        'The client metadata document names another client_id',
      );
    }
    if (typeof document.client_name !== 'string' || !Array.isArray(document.redirect_uris)) {
      throw new RegistrationError(
        'invalid_client_metadata',
        'The client metadata document needs client_name and redirect_uris',
      );
    }
    const validated = validateMetadata(document, this.#options.supportedMethods, true, this.#options.cimd);
    validated.client_id = clientId;
    return withDefaults(validated, 'metadata-document');
  }
}
