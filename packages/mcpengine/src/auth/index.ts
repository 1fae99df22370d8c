/**
 * mcpengine/auth — OAuth 2.1 for MCP over HTTP.
 *
 * Resource server (an MCP server that needs tokens): `ProtectedResource` with a `TokenVerifier` —
 * `JwtVerifier` (JWT access tokens against the authorization server's JWKS) or `IntrospectionVerifier`
 * (RFC 7662). Tools, resources and prompts take `requiredScopes`.
 *
 * Client: `OAuthClient`, given to the HTTP client transports as `auth`; `LoopbackRedirect` for CLIs;
 * `MemoryAuthStore` / `FileAuthStore` for what it keeps.
 *
 * Building blocks for authorization servers and custom flows (bounded metadata fetches, Basic credentials,
 * client assertions, well-known paths) are exported too; the development authorization server built on them is
 * the `@mcpengine/dev-auth` package.
 */
export { AuthorizationError, OAuthError, type AuthorizationFailure } from './errors.js';
export {
  authRequest,
  isLoopbackHost,
  isPrivateAddress,
  jsonObjectOf,
  type AuthHttpOptions,
  type AuthResponse,
} from './http.js';
export { basicCredentials, parseBasicCredentials, randomToken } from './encoding.js';
export {
  authorizationServerMetadataCandidates,
  protectedResourceMetadataCandidates,
  protectedResourceMetadataUrl,
  resourceCovers,
  OAUTH_WELL_KNOWN,
  OIDC_WELL_KNOWN,
  PRM_WELL_KNOWN,
  type AuthorizationServerMetadata,
  type ProtectedResourceMetadata,
} from './metadata.js';
export {
  bearerChallengeOf,
  buildBearerChallenge,
  parseWwwAuthenticate,
  type BearerChallenge,
  type Challenge,
} from './www-authenticate.js';
export { createPkce, s256, verifyPkce, type Pkce } from './pkce.js';

// Resource server
export {
  InvalidTokenError,
  sameResource,
  scopesOfClaims,
  type TokenBinding,
  type TokenVerifier,
} from './verifier.js';
export { DpopProofVerifier, InvalidDpopProofError, type DpopProofOptions } from './dpop-proof.js';
export { JwtVerifier, type JwtVerifierOptions } from './jwt-verifier.js';
export { JwksUnavailableError, RemoteJwks, type RemoteJwksOptions } from './jwks.js';
export { IntrospectionVerifier, type IntrospectionVerifierOptions } from './introspection.js';
export { ProtectedResource, requiredScopesOf, type ProtectedResourceOptions } from './resource-server.js';

// JOSE
export {
  decodeJwt,
  signJwt,
  verifyJwt,
  validateClaims,
  JwtError,
  type ClaimValidation,
  type DecodedJwt,
  type JwtClaims,
  type JwtErrorCode,
  type JwtHeader,
  type SignJwtOptions,
  type VerifyJwtOptions,
} from './jose/jwt.js';
export {
  defaultAlgorithm,
  exportPublicJwk,
  importPrivateKey,
  importPublicJwk,
  jwkThumbprint,
  JWS_ALGORITHMS,
  KeyError,
  type Jwk,
  type JwsAlgorithm,
} from './jose/keys.js';

// Client
export {
  OAuthClient,
  type ClientCredentialsGrant,
  type IdJagGrant,
  type JwtBearerGrant,
  type NonInteractiveGrant,
  type OAuthClientOptions,
} from './client/oauth-client.js';
export {
  clientAssertion,
  type ClientAuthMethod,
  type ClientCredentials,
  type TokenResponse,
} from './client/token-endpoint.js';
export type { ClientMetadataOptions, PreRegisteredClient } from './client/registration.js';
export { FileAuthStore, MemoryAuthStore, type AuthStore } from './client/store.js';
export { LoopbackRedirect, type LoopbackRedirectOptions } from './client/loopback.js';
