/**
 * mcpengine/server — build an MCP server once, serve it over any transport, in both eras.
 *
 * Public: the server, its connection and serving handle, the request context, middleware and extension types,
 * feature configuration types, task stores, errors. The protocol core, the legacy session and the per-request
 * controls are engine internals (reached by the transports through src/internal/, which no entry point exports).
 */
export { McpServer, type FeatureHandle, type ServerOptions } from './server.js';
export { ServerConnection, type ConnectionOptions } from './connection.js';
export {
  RequestContext,
  type AuthInfo,
  type Caller,
  type ClientIdentity,
  type InputOptions,
  type RequestTransport,
} from './context.js';
export type { ServerDefinition } from './definition.js';
export { exitWhenClosed, type ExitWhenClosedOptions, type Serving } from './serving.js';
export type {
  ExtensionCapabilityContext,
  ListenGate,
  ServerExtension,
  ToolCallGate,
  ToolListMeta,
} from './extension.js';
export type { Call as ExtensionCall, MethodHandler, Outcome } from './dispatch.js';
export type {
  CallResult,
  Middleware,
  Next,
  NotificationCall,
  RequestCall,
  ServerCall,
  TraceContext,
} from './middleware.js';
export { text } from './features/content.js';
export type { ToolConfig, ToolHandler, ToolReturn, CompiledTool } from './features/tools.js';
export type {
  ResourceConfig,
  ResourceTemplateConfig,
  ResourceReturn,
  TemplateVariables,
  CacheHint,
} from './features/resources.js';
export type { PromptConfig, PromptArgumentConfig } from './features/prompts.js';
export type { Completer, CompletionRequest } from './features/completion.js';
export {
  MemoryTaskStore,
  TaskLimitError,
  TASKS_EXTENSION,
  type MemoryTaskStoreOptions,
  type TaskOptions,
  type TaskPage,
  type TaskRecord,
  type TaskStore,
  type ToolTaskOptions,
  type TasksExtension,
} from './tasks/index.js';
export { ProtocolError, ErrorCode } from '../protocol/errors.js';
export type { Outbox } from '../rpc/outbox.js';
