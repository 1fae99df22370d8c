/**
 * Errors of the authorization module. None of them ever carries a token, a secret or an authorization code.
 */

/** An OAuth error response (RFC 6749 §5.2, RFC 7591 §3.2.2, RFC 6750 §3.1) from an authorization server. */
export class OAuthError extends Error {
  override name = 'OAuthError';
  constructor(
    /** The `error` code (`invalid_grant`, `invalid_client`...). */
    readonly error: string,
    readonly errorDescription: string | undefined,
    /** The HTTP status, when the error came in an HTTP response. */
    readonly status?: number,
  ) {
    super(`${error}${errorDescription ? `: ${errorDescription}` : ''}`);
  }
}

export type AuthorizationFailure =
  /** No usable protected resource or authorization server metadata. */
  | 'discovery'
  /** The protected resource metadata names another resource. */
  | 'resource-mismatch'
  /** Metadata whose `issuer` differs from the issuer it was looked up for. */
  | 'issuer-mismatch'
  /** An `iss` in the authorization response that is missing, or not the recorded issuer (RFC 9207). */
  | 'iss-mismatch'
  /** The authorization response's `state` is missing or not ours. */
  | 'state-mismatch'
  /** A plain-HTTP URL outside loopback, a redirect to another origin, or a redirect where none is allowed. */
  | 'insecure'
  /** A response that is malformed, of the wrong type, or too large. */
  | 'invalid-response'
  /** The authorization server does not support PKCE with S256. */
  | 'pkce'
  /** No way to obtain a client id for this authorization server. */
  | 'registration'
  /** The authorization step itself failed (no redirect handler, the user declined, a timeout). */
  | 'interaction'
  /** Authorization was attempted as often as allowed for this request. */
  | 'retry-limit'
  /** The server names an authorization server its non-interactive credentials are not bound to. */
  | 'untrusted-issuer'
  /** A target that is loopback, private or link-local (or not on the MCP server's origin) where that is refused. */
  | 'blocked-target';

/** The client-side flow refused to go on. */
export class AuthorizationError extends Error {
  override name = 'AuthorizationError';
  constructor(
    readonly reason: AuthorizationFailure,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
