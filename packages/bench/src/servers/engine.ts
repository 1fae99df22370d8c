/**
 * MCPEngine under test, written the way its documentation shows: one McpServer, JSON Schema inputs, served on
 * stdio with `serveStdio` or on Streamable HTTP with the engine's HTTP handler.
 *
 *   node engine.js stdio | http [--catalog]
 */
import { McpServer } from 'mcpengine/server';
import {
  CATALOG_TOOLS,
  catalogDescription,
  catalogJsonSchema,
  catalogToolName,
  ECHO_DESCRIPTION,
  ECHO_INPUT_SCHEMA,
  echoText,
  SERVER_INFO,
  type EchoArgs,
} from './fixtures.js';
import { installHeapProbe, serverArgs } from './probe.js';

installHeapProbe();
const { transport, catalog } = serverArgs(process.argv.slice(2));

const server = new McpServer(SERVER_INFO);
server.addTool<EchoArgs>({
  name: 'echo',
  description: ECHO_DESCRIPTION,
  inputSchema: ECHO_INPUT_SCHEMA,
  handler: (args) => echoText(args),
});
if (catalog) {
  for (let i = 0; i < CATALOG_TOOLS; i++) {
    server.addTool({
      name: catalogToolName(i),
      description: catalogDescription(i),
      inputSchema: catalogJsonSchema(i),
      handler: () => 'no entries',
    });
  }
}

// Each transport's modules are loaded only when it is used, as in a server written for that transport alone.
if (transport === 'stdio') {
  const { serveStdio } = await import('mcpengine/stdio');
  await serveStdio(server);
} else {
  const { serveEngineHttp } = await import('./engine-http.js');
  await serveEngineHttp(server);
}
