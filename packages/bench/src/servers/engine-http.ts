/**
 * MCPEngine on Streamable HTTP, the way its documentation shows: `serveHttp(server, { port })` (node:http with
 * the engine's handler, secure defaults). The only option changed is the session cap, raised above the
 * idle-sessions scenario's count (the default, 1000, would refuse the last sessions with 503).
 */
import { serveHttp } from 'mcpengine/http';
import type { McpServer } from 'mcpengine/server';
import { announcePort } from './probe.js';

export async function serveEngineHttp(server: McpServer): Promise<void> {
  const serving = await serveHttp(server, { port: 0, sessions: { max: 100_000 } });
  announcePort(serving.port);
}
