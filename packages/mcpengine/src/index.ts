/**
 * mcpengine — a spec-exact engine for the Model Context Protocol.
 *
 * The root entry re-exports the most used pieces; subpaths (`mcpengine/server`, `mcpengine/client`,
 * `mcpengine/stdio`, `mcpengine/memory`, `mcpengine/protocol`, `mcpengine/schema`) keep imports lean.
 */
export {
  exitWhenClosed,
  McpServer,
  RequestContext,
  text,
  type Middleware,
  type ServerCall,
  type ServerExtension,
  type ServerOptions,
  type Serving,
  type ToolConfig,
} from './server/index.js';
export { Client, type ClientOptions, type ClientSession } from './client/index.js';
export * from './protocol/index.js';
export type { Transport, TransportHandlers, InboundProblem } from './transports/transport.js';
