/**
 * mcpengine/protocol — MCP types, the revisions, JSON-RPC envelope types and error codes.
 *
 * The public surface is what code using MCP needs: message and result types, the revision names, errors.
 * The codec (message classification and serializers), the per-request `_meta` readers and the header-parameter
 * helpers are engine internals: they are reached by relative imports inside the engine and exported nowhere
 * (see "Public API" in docs/design.md).
 */
export * from './types.js';
export {
  isRevision,
  LATEST_LEGACY_REVISION,
  LATEST_REVISION,
  LEGACY_REVISIONS,
  MODERN_REVISIONS,
  REVISIONS,
  type Era,
  type Revision,
} from './revisions.js';
export { ErrorCode, ProtocolError, RemoteError, RequestAbortedError, type ErrorObject } from './errors.js';
export type {
  JsonRpcErrorResponse,
  JsonRpcMessage,
  JsonRpcNotification,
  JsonRpcRequest,
  JsonRpcResponse,
  JsonRpcResultResponse,
} from './jsonrpc.js';
export { MetaKey } from './meta.js';
export { HEADER_PARAM_KEYWORD } from './param-headers.js';
