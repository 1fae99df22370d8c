/**
 * MCPEngine under test, written the way its documentation shows: one McpServer, JSON Schema inputs, served on
 * stdio with `serveStdio` or on Streamable HTTP with the engine's HTTP handler.
 *
 *   node engine.js stdio | http [--catalog]
 */
import { createEngineServer } from './engine-server.js';
import { installHeapProbe, serverArgs } from './probe.js';

installHeapProbe();
const { transport, catalog } = serverArgs(process.argv.slice(2));
const server = createEngineServer(catalog);

// Each transport's modules are loaded only when it is used, as in a server written for that transport alone.
if (transport === 'stdio') {
  const { serveStdio } = await import('mcpengine/stdio');
  await serveStdio(server);
} else {
  const { serveEngineHttp } = await import('./engine-http.js');
  await serveEngineHttp(server);
}
