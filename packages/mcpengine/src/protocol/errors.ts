/**
 * JSON-RPC and MCP error codes, and the one error type that crosses the wire.
 *
 * Only a `ProtocolError` becomes a JSON-RPC error response. Any other exception thrown by user code is either
 * turned into a tool execution error (`isError: true`) or, outside tools, into -32603 with a generic message, so
 * that internal details never leak to a peer by accident.
 */
export const ErrorCode = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  /** Legacy revisions (≤ 2025-11-25) only: resource not found. 2026-07-28 uses -32602 and forbids -32002. */
  ResourceNotFound: -32002,
  /** 2025-11-25 only: URL mode elicitation is required. */
  UrlElicitationRequired: -32042,
  /** 2026-07-28: an HTTP header disagrees with the body. */
  HeaderMismatch: -32020,
  /** 2026-07-28: the request needs a client capability the client did not declare. */
  MissingRequiredClientCapability: -32021,
  /** 2026-07-28: the protocol version in `_meta` is not supported. */
  UnsupportedProtocolVersion: -32022,
} as const;
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

export interface ErrorObject {
  code: number;
  message: string;
  data?: unknown;
}

/** An error meant for the peer: it is sent as a JSON-RPC error response with exactly this code and data. */
export class ProtocolError extends Error {
  readonly code: number;
  readonly data: unknown;

  constructor(code: number, message: string, data?: unknown) {
    super(message);
    this.name = 'ProtocolError';
    this.code = code;
    this.data = data;
  }

  toErrorObject(): ErrorObject {
    return this.data === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, data: this.data };
  }

  static invalidParams(message: string, data?: unknown): ProtocolError {
    return new ProtocolError(ErrorCode.InvalidParams, message, data);
  }

  static invalidRequest(message: string, data?: unknown): ProtocolError {
    return new ProtocolError(ErrorCode.InvalidRequest, message, data);
  }

  static methodNotFound(method: string): ProtocolError {
    return new ProtocolError(ErrorCode.MethodNotFound, `Method not found: ${method}`);
  }

  static internal(message = 'Internal error'): ProtocolError {
    return new ProtocolError(ErrorCode.InternalError, message);
  }
}

/**
 * Raised on the client side when the peer answered with a JSON-RPC error. Kept distinct from `ProtocolError`
 * so a client never mistakes a local failure (timeout, closed transport) for a peer's answer.
 */
export class RemoteError extends Error {
  readonly code: number;
  readonly data: unknown;

  constructor(error: ErrorObject) {
    super(error.message);
    this.name = 'RemoteError';
    this.code = error.code;
    this.data = error.data;
  }
}

/** A request that did not complete locally: timed out, was cancelled, or its connection closed. */
export class RequestAbortedError extends Error {
  readonly reason: 'timeout' | 'cancelled' | 'closed';

  constructor(reason: 'timeout' | 'cancelled' | 'closed', message: string) {
    super(message);
    this.name = 'RequestAbortedError';
    this.reason = reason;
  }
}
