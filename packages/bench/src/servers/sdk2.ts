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
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import {
  CATALOG_TOOLS,
  catalogDescription,
  catalogToolName,
  catalogZodSchema,
  ECHO_DESCRIPTION,
  echoText,
  echoZodSchema,
  SERVER_INFO,
} from './fixtures.js';
import { listen } from './http-util.js';
import { nodeAdapterFor } from './sdk2-node.js';
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

if (transport === 'stdio') {
  serveStdio(createServer);
} else {
  const handler = createMcpHandler(createServer);
  const { toNodeHandler, source } = await nodeAdapterFor();
  process.stderr.write(`sdk2: node adapter from ${source}\n`);
  const node = toNodeHandler(handler);
  await listen((req, res) => void node(req, res));
}
