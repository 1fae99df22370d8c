/**
 * mcpengine/client — a client for every MCP revision: probes the era, handles multi-round-trip input, caches.
 */
export {
  Client,
  type CallOptions,
  type ClientHandlerContext,
  type ClientHandlers,
  type ClientOptions,
  type ConnectOptions,
  type NotificationHandler,
  type Subscription,
} from './client.js';
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
