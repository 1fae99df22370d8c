/**
 * Why an HTTP client transport could not get a response for a request. These are local failures: they reach
 * the owner through `TransportHandlers.requestFailed`, never as JSON-RPC errors, so that a client never
 * mistakes them for the server's answer.
 */
import { ErrorCode } from '../../protocol/errors.js';
import type { RequestId } from '../../protocol/types.js';
import type { TransportHandlers } from '../transport.js';

/** The server answered with an HTTP error status and no JSON-RPC answer to the request. */
export class HttpError extends Error {
  readonly status: number;
  readonly statusText: string;
  /** The start of the response body (at most 1 000 characters), for diagnostics. */
  readonly body: string;

  constructor(what: string, status: number, statusText: string, body: string) {
    const detail = body.length > 0 ? `: ${body}` : '';
    super(`${what} was answered HTTP ${status}${statusText ? ` ${statusText}` : ''}${detail}`);
    this.name = 'HttpError';
    this.status = status;
    this.statusText = statusText;
    this.body = body;
  }
}

/**
 * The server no longer knows the session (HTTP 404 to a request carrying `Mcp-Session-Id`), and the request
 * could not be sent again in a new session.
 */
export class SessionExpiredError extends Error {
  readonly sessionId: string;

  constructor(sessionId: string, detail: string) {
    super(`The server ended MCP session ${JSON.stringify(sessionId)}: ${detail}`);
    this.name = 'SessionExpiredError';
    this.sessionId = sessionId;
  }
}

export type HttpTransportFailure =
  /** fetch() rejected: connection refused, reset, DNS... */
  | 'network'
  /** No response headers within `timeoutMs`. */
  | 'timeout'
  /** A body or an SSE event larger than `maxMessageBytes`. */
  | 'too-large'
  /** A 2xx answer that cannot carry the response: wrong Content-Type, invalid JSON, no body. */
  | 'invalid-response'
  /** The SSE stream ended before the response, and could not be resumed. */
  | 'stream-ended';

/** Any other reason the response cannot arrive. */
export class HttpTransportError extends Error {
  readonly reason: HttpTransportFailure;

  constructor(reason: HttpTransportFailure, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'HttpTransportError';
    this.reason = reason;
  }
}

/**
 * Tells the owner that request `id` will get no response. Owners without `requestFailed` get a JSON-RPC
 * error response instead (code -32603, `data.transportError` naming the failure), so they never wait forever.
 */
export function reportRequestFailure(handlers: TransportHandlers, id: RequestId, error: Error): void {
  if (handlers.requestFailed) {
    handlers.requestFailed(id, error);
    return;
  }
  handlers.message(
    JSON.stringify({
      jsonrpc: '2.0',
      id,
      error: { code: ErrorCode.InternalError, message: error.message, data: { transportError: error.name } },
    }),
  );
}
