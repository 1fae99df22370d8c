/**
 * mcpengine/client — a client for every MCP revision: probes the era, handles multi-round-trip input, caches.
 * A `Client` is configuration and handlers; `client.connect(transport)` opens a `ClientSession`.
 */
export { Client } from './client.js';
export type { ClientSession } from './session.js';
export { withMeta } from './middleware.js';
export type {
  CallOptions,
  ClientCall,
  ClientHandlerContext,
  ClientHandlers,
  ClientMiddleware,
  ClientNext,
  ClientOptions,
  ConnectOptions,
  NotificationHandler,
  Subscription,
} from './types.js';
export {
  ClientTasks,
  ToolTask,
  type ClientTaskOptions,
  type TaskCallOptions,
  type TaskState,
  type TaskWaitOptions,
} from './tasks.js';
export { RemoteError, RequestAbortedError } from '../protocol/errors.js';
export type { Progress, RequestOptions } from '../rpc/outgoing.js';
