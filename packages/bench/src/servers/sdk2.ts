/**
 * The official TypeScript SDK 2.x server (`@modelcontextprotocol/server`) under test, written the way its
 * documentation shows: a factory that builds an `McpServer` (zod schemas, `registerTool`); `serveStdio(factory)`
 * on stdio; `createMcpHandler(factory)` on HTTP (a fresh server per request, both eras), mounted on node:http
 * with `toNodeHandler` from `@modelcontextprotocol/node`. The schemas are built once, outside the factory, which
 * is the cheapest way to use it.
 *
 *   node sdk2.js stdio | http [--catalog]
 */
import { createMcpHandler, McpServer } from '@modelcontextprotocol/server';
import {
  CATALOG_TOOLS,
  catalogDescription,
  catalogToolName,
  ECHO_DESCRIPTION,
  echoText,
  SERVER_INFO,
} from './fixtures.js';
import { catalogZodSchema, echoZodSchema } from './fixtures-zod.js';
import { installHeapProbe, serverArgs } from './probe.js';

installHeapProbe();
const { transport, catalog } = serverArgs(process.argv.slice(2));

const echoSchema = echoZodSchema();
const catalogSchemas = catalog ? Array.from({ length: CATALOG_TOOLS }, (_, i) => catalogZodSchema(i)) : [];

function createServer(): McpServer {
  const server = new McpServer(SERVER_INFO);
  server.registerTool('echo', { description: ECHO_DESCRIPTION, inputSchema: echoSchema }, async (args) => ({
    content: [{ type: 'text', text: echoText(args) }],
  }));
  catalogSchemas.forEach((schema, i) => {
    server.registerTool(
      catalogToolName(i),
      { description: catalogDescription(i), inputSchema: schema },
      async () => ({
        content: [{ type: 'text', text: 'no entries' }],
      }),
    );
  });
  return server;
}

// Each transport's modules are loaded only when it is used, as in a server written for that transport alone.
if (transport === 'stdio') {
  const { serveStdio } = await import('@modelcontextprotocol/server/stdio');
  serveStdio(createServer);
} else {
  const { listen } = await import('./http-util.js');
  const { nodeAdapterFor } = await import('./sdk2-node.js');
  const handler = createMcpHandler(createServer);
  const { toNodeHandler, source } = await nodeAdapterFor();
  process.stderr.write(`sdk2: node adapter from ${source}\n`);
  const node = toNodeHandler(handler);
  await listen((req, res) => void node(req, res));
}
