/**
 * What the endpoints of the HTTP handler share: the server, the resolved options, and SSE connections.
 */
import type { ServerCore } from '../../server/core.js';
import type { McpServer } from '../../server/server.js';
import type { ResolvedOptions } from './server-options.js';
import type { SessionQuota } from './session-quota.js';
import type { SseConnection } from './sse-writer.js';

export interface HttpContext {
  readonly server: McpServer;
  readonly core: ServerCore;
  readonly options: ResolvedOptions;
  /** Sessions per principal (per peer when anonymous), shared by both session transports. */
  readonly quota: SessionQuota;
  report(error: unknown, where: string): void;
  /** A new SSE connection; it receives keep-alive comments until it closes. */
  connection(): SseConnection;
}
