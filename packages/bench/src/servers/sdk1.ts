/**
 * The official TypeScript SDK 1.x (`@modelcontextprotocol/sdk`) under test, written the way its documentation
 * shows: `McpServer.registerTool` with a zod schema; `StdioServerTransport` on stdio; on HTTP the stateful
 * Streamable HTTP pattern of its server guide (one transport and one server per session, kept in a map by
 * session id), on node:http with the parsed body passed to `handleRequest` as `express.json()` would.
 *
 *   node sdk1.js stdio | http [--catalog]
 */
import { randomUUID } from 'node:crypto';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
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
  const { StdioServerTransport } = await import('@modelcontextprotocol/sdk/server/stdio.js');
  await createServer().connect(new StdioServerTransport());
} else {
  const { StreamableHTTPServerTransport } =
    await import('@modelcontextprotocol/sdk/server/streamableHttp.js');
  const { isInitializeRequest } = await import('@modelcontextprotocol/sdk/types.js');
  const { listen, readBody } = await import('./http-util.js');
  const sessions = new Map<string, InstanceType<typeof StreamableHTTPServerTransport>>();
  await listen(async (req, res) => {
    if (req.method !== 'POST') {
      const sessionId = req.headers['mcp-session-id'];
      const existing = typeof sessionId === 'string' ? sessions.get(sessionId) : undefined;
      if (!existing) {
        res.writeHead(400).end();
        return;
      }
      await existing.handleRequest(req, res);
      return;
    }
    const body: unknown = JSON.parse(await readBody(req));
    const sessionId = req.headers['mcp-session-id'];
    let session = typeof sessionId === 'string' ? sessions.get(sessionId) : undefined;
    if (!session && sessionId === undefined && isInitializeRequest(body)) {
      const created = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => {
          sessions.set(id, created);
        },
      });
      created.onclose = () => {
        if (created.sessionId) sessions.delete(created.sessionId);
      };
      await createServer().connect(created);
      session = created;
    }
    if (!session) {
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          jsonrpc: '2.0',
          id: null,
          error: { code: -32000, message: 'Bad Request: No valid session ID provided' },
        }),
      );
      return;
    }
    await session.handleRequest(req, res, body);
  });
}
