/**
 * HTTP answers that carry a JSON-RPC error, and the status codes of each era.
 */
import { ErrorCode, type ErrorObject } from '../../protocol/errors.js';
import type { RequestId } from '../../protocol/types.js';

/**
 * Transport refusals (busy, forbidden, unknown session) use the standard Invalid Request code; the HTTP status
 * carries the precise meaning. We do not use -32000…-32019: 2026-07-28 asks new implementations not to, and
 * its readers must not assume a meaning for them.
 */
export const TRANSPORT_ERROR = ErrorCode.InvalidRequest;
/** An unknown or terminated session (HTTP 404). */
export const SESSION_NOT_FOUND = ErrorCode.InvalidRequest;

/**
 * A JSON-RPC error as an HTTP response. `id` is the request's id when it could be read, `null` when the
 * message was a request whose id could not be read, and `undefined` (no `id` member) for rejections of a whole
 * HTTP request or of a notification, as the transport specs allow.
 */
export function errorResponse(
  status: number,
  id: RequestId | null | undefined,
  error: ErrorObject,
  headers: Record<string, string> = {},
): Response {
  const body =
    id === undefined
      ? `{"jsonrpc":"2.0","error":${JSON.stringify(error)}}`
      : `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"error":${JSON.stringify(error)}}`;
  return new Response(body, { status, headers: { 'content-type': 'application/json', ...headers } });
}

export function jsonResponse(status: number, json: string, headers: Record<string, string> = {}): Response {
  return new Response(json, { status, headers: { 'content-type': 'application/json', ...headers } });
}

export function emptyResponse(status: number, headers: Record<string, string> = {}): Response {
  return new Response(null, { status, headers });
}

/**
 * 2026-07-28: the statuses the spec assigns (-32601 → 404; malformed, capability, header and version errors →
 * 400), 500 for internal errors, 200 for any other JSON-RPC error, which is an answer like any result.
 */
export function modernStatus(code: number | undefined): number {
  switch (code) {
    case undefined:
      return 200;
    case ErrorCode.MethodNotFound:
      return 404;
    case ErrorCode.ParseError:
    case ErrorCode.InvalidRequest:
    case ErrorCode.InvalidParams:
    case ErrorCode.HeaderMismatch:
    case ErrorCode.MissingRequiredClientCapability:
    case ErrorCode.UnsupportedProtocolVersion:
      return 400;
    case ErrorCode.InternalError:
      return 500;
    default:
      return 200;
  }
}

/**
 * Legacy Streamable HTTP: a JSON-RPC error to a well-formed request is an answer (200), so that clients surface
 * the error itself; only transport-level problems use 4xx.
 */
export function legacyStatus(_code: number | undefined): number {
  return 200;
}
