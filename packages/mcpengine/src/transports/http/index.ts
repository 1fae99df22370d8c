/**
 * mcpengine/http — MCP over HTTP.
 *
 * Server: `createMcpHttpHandler` turns an `McpServer` into a web-standard `(Request) => Promise<Response>`
 * handler serving Streamable HTTP in both eras (sessions for 2025-03-26 … 2025-11-25, stateless 2026-07-28) and,
 * on request, the 2024-11-05 HTTP+SSE transport. `toNodeHandler` adapts it to Node's `http`; `serveHttp` runs it
 * on a port with secure defaults.
 */
export { createMcpHttpHandler, type HttpHandlerStats, type McpHttpHandler } from './server-handler.js';
export type { McpHttpHandlerOptions, SessionOptions } from './server-options.js';
export {
  serveHttp,
  toNodeHandler,
  type HttpServing,
  type NodeHandlerOptions,
  type NodeRequestListener,
  type ServeHttpOptions,
} from './node.js';
export {
  MemoryEventStore,
  type EventStore,
  type MemoryEventStoreOptions,
  type StoredEvent,
} from './event-store.js';
export { LOOPBACK_HOSTS } from './security.js';
export type { MessageBus, SharedSessionRecord, SharedSessionStore, SharedState } from './shared.js';
export type { CorsOptions } from './cors.js';

// Client side (client-*.ts) exports follow.
export * from './client.js';
