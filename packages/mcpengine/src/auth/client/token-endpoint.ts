/**
 * Talking to a token endpoint (RFC 6749 §3.2): client authentication (`client_secret_basic`,
 * `client_secret_post`, `none`, and `private_key_jwt` from RFC 7523 §2.2), the form POST, and strict reading of
 * the token response or the error response.
 */
import type { KeyObject } from 'node:crypto';
import { OAuthError, AuthorizationError } from '../errors.js';
import { basicCredentials, formEncode } from '../encoding.js';
import { authRequest, type AuthHttpOptions } from '../http.js';
import { defaultAlgorithm, importPrivateKey, type Jwk, type JwsAlgorithm } from '../jose/keys.js';
import { newJwtId, signJwt } from '../jose/jwt.js';
import type { DpopKey, DpopNonces } from './dpop.js';

export type ClientAuthMethod = 'none' | 'client_secret_basic' | 'client_secret_post' | 'private_key_jwt';

/** What a client authenticates with at a token endpoint. */
export interface ClientCredentials {
  clientId: string;
  clientSecret?: string;
  /** For `private_key_jwt`: the private key (KeyObject, PEM or JWK) signing the client assertion. */
  privateKey?: KeyObject | string | Jwk;
  /** The assertion's algorithm. Default: the key's natural one (ES256 for a P-256 key...). */
  signingAlgorithm?: JwsAlgorithm;
  /** `kid` header of the assertion. */
  keyId?: string;
  /** Force a method; by default it is chosen from what the server supports and what the credentials allow. */
  authMethod?: ClientAuthMethod;
}

export interface TokenResponse {
  access_token: string;
  token_type: string;
  expires_in?: number;
  refresh_token?: string;
  scope?: string;
  issued_token_type?: string;
  [member: string]: unknown;
}

/**
 * The method to use: the forced one; else, from the server's list (RFC 8414 default: `client_secret_basic`),
 * `private_key_jwt` for a key, Basic then Post for a secret, `none` for a public client.
 */
export function chooseAuthMethod(
  credentials: ClientCredentials,
  supported: readonly string[] | undefined,
): ClientAuthMethod {
  if (credentials.authMethod) return credentials.authMethod;
  const offered = supported ?? ['client_secret_basic'];
  if (credentials.privateKey !== undefined) return 'private_key_jwt';
  if (credentials.clientSecret !== undefined) {
    if (offered.includes('client_secret_basic')) return 'client_secret_basic';
    if (offered.includes('client_secret_post')) return 'client_secret_post';
    // Never `none` for a secret: metadata does not get to downgrade an authenticated client.
    return 'client_secret_basic';
  }
  return 'none';
}

/**
 * The method for credentials given with a non-interactive grant: the forced one, else what the credentials
 * allow (`private_key_jwt` for a key, `client_secret_basic` for a secret). The authorization server's metadata
 * has no say: a server the MCP server pointed us to must not choose how a secret travels.
 */
export function fixedAuthMethod(credentials: ClientCredentials): ClientAuthMethod {
  if (credentials.authMethod) return credentials.authMethod;
  if (credentials.privateKey !== undefined) return 'private_key_jwt';
  if (credentials.clientSecret !== undefined) return 'client_secret_basic';
  return 'none';
}

/** A `private_key_jwt` client assertion for `audience` (the authorization server's issuer). */
export function clientAssertion(credentials: ClientCredentials, audience: string, lifetimeSec = 60): string {
  if (credentials.privateKey === undefined) {
    throw new AuthorizationError('registration', 'private_key_jwt needs a private key');
  }
  const key = importPrivateKey(credentials.privateKey);
  const now = Math.floor(Date.now() / 1000);
  return signJwt(
    {
      iss: credentials.clientId,
      sub: credentials.clientId,
      aud: audience,
      jti: newJwtId(),
      iat: now,
      exp: now + lifetimeSec,
    },
    key,
    {
      alg: credentials.signingAlgorithm ?? defaultAlgorithm(key),
      typ: 'JWT',
      ...(credentials.keyId !== undefined && { kid: credentials.keyId }),
    },
  );
}

/** Adds client authentication to a token request's headers and form. */
export function applyClientAuth(
  method: ClientAuthMethod,
  credentials: ClientCredentials,
  audience: string,
  headers: Record<string, string>,
  form: Record<string, string | undefined>,
): void {
  switch (method) {
    case 'client_secret_basic':
      if (credentials.clientSecret === undefined) {
        throw new AuthorizationError('registration', 'client_secret_basic needs a client secret');
      }
      headers.authorization = basicCredentials(credentials.clientId, credentials.clientSecret);
      return;
    case 'client_secret_post':
      if (credentials.clientSecret === undefined) {
        throw new AuthorizationError('registration', 'client_secret_post needs a client secret');
      }
      form.client_id = credentials.clientId;
      form.client_secret = credentials.clientSecret;
      return;
    case 'private_key_jwt':
      form.client_id = credentials.clientId;
      form.client_assertion_type = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';
      form.client_assertion = clientAssertion(credentials, audience);
      return;
    case 'none':
      form.client_id = credentials.clientId;
      return;
  }
}

const TOKEN_CHARS = /^[\x21-\x7E]+$/;

/**
 * Parses a token endpoint's answer: the token response, or throws OAuthError / AuthorizationError. `tokenTypes`
 * are the accepted `token_type` values, lower case (`'any'` for token exchange, which issues other types).
 */
export function readTokenResponse(
  status: number,
  contentType: string | null,
  text: string,
  tokenTypes: readonly string[] | 'any' = ['bearer'],
): TokenResponse {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  const object =
    typeof body === 'object' && body !== null && !Array.isArray(body)
      ? (body as Record<string, unknown>)
      : undefined;
  if (status !== 200) {
    if (object && typeof object.error === 'string') {
      const description =
        typeof object.error_description === 'string' ? object.error_description.slice(0, 500) : undefined;
      throw new OAuthError(object.error.slice(0, 100), description, status);
    }
    throw new AuthorizationError('invalid-response', `The token endpoint answered HTTP ${status}`);
  }
  if (!object || !/^application\/json\b/i.test(contentType ?? '')) {
    throw new AuthorizationError('invalid-response', 'The token response is not a JSON object');
  }
  const { access_token, token_type, expires_in, refresh_token, scope } = object;
  if (
    typeof access_token !== 'string' ||
    access_token.length === 0 ||
    access_token.length > 16 * 1024 ||
    !TOKEN_CHARS.test(access_token)
  ) {
    throw new AuthorizationError('invalid-response', 'The token response has no usable access_token');
  }
  if (typeof token_type !== 'string')
    throw new AuthorizationError('invalid-response', 'The token response has no token_type');
  if (tokenTypes !== 'any' && !tokenTypes.includes(token_type.toLowerCase())) {
    throw new AuthorizationError(
      'invalid-response',
      `Unsupported token_type ${JSON.stringify(token_type.slice(0, 40))}`,
    );
  }
  if (expires_in !== undefined && (typeof expires_in !== 'number' || !(expires_in >= 0))) {
    throw new AuthorizationError('invalid-response', 'The token response has an invalid expires_in');
  }
  if (
    refresh_token !== undefined &&
    (typeof refresh_token !== 'string' || refresh_token.length === 0 || refresh_token.length > 16 * 1024)
  ) {
    throw new AuthorizationError('invalid-response', 'The token response has an invalid refresh_token');
  }
  if (scope !== undefined && typeof scope !== 'string') {
    throw new AuthorizationError('invalid-response', 'The token response has an invalid scope');
  }
  return object as TokenResponse;
}

export interface TokenRequest {
  endpoint: URL;
  /** The grant's own fields (`grant_type`, `code`...). */
  form: Record<string, string | undefined>;
  credentials: ClientCredentials | undefined;
  method: ClientAuthMethod;
  /** The authorization server's issuer: the audience of client assertions. */
  issuer: string;
  /** Accepted `token_type`s, lower case. Default `bearer`, plus `dpop` with `dpop`. */
  tokenTypes?: readonly string[] | 'any';
  /** Prove possession of this DPoP key (RFC 9449 §5), with the server's nonce when it asks for one. */
  dpop?: { key: DpopKey; nonces: DpopNonces };
  /** Extra headers (MCP-Protocol-Version...). */
  headers?: Record<string, string>;
}

/** POSTs a token request and reads the answer (once more with a DPoP nonce, if the server asks for one). */
export async function requestToken(request: TokenRequest, http: AuthHttpOptions): Promise<TokenResponse> {
  const tokenTypes = request.tokenTypes ?? (request.dpop ? ['bearer', 'dpop'] : ['bearer']);
  for (let attempt = 0; ; attempt++) {
    const headers: Record<string, string> = {
      ...request.headers,
      'content-type': 'application/x-www-form-urlencoded',
      accept: 'application/json',
    };
    const form = { ...request.form };
    // Fresh client authentication per attempt: an assertion's jti must not repeat.
    if (request.credentials)
      applyClientAuth(request.method, request.credentials, request.issuer, headers, form);
    const dpop = request.dpop;
    if (dpop)
      headers.dpop = dpop.key.proof('POST', request.endpoint, { nonce: dpop.nonces.get(request.endpoint) });
    const response = await authRequest(
      request.endpoint,
      { method: 'POST', headers, body: formEncode(form) },
      'token endpoint',
      { maxBytes: 64 * 1024, ...http },
    );
    const fresh = dpop?.nonces.learn(request.endpoint, response) ?? false;
    if (attempt === 0 && fresh && response.status === 400 && /"use_dpop_nonce"/.test(response.text)) continue;
    return readTokenResponse(
      response.status,
      response.headers.get('content-type'),
      response.text,
      tokenTypes,
    );
  }
}
