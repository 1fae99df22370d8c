/**
 * The HTTP ceiling: a raw node:http JSON echo. It reads the body, parses it, and answers the request's id with
 * a prepared result; no validation, no headers checked, no sessions. It is what node:http itself costs.
 *
 *   node raw-http.js [--catalog]
 */
import {
  CATALOG_TOOLS,
  catalogDescription,
  catalogJsonSchema,
  catalogToolName,
  ECHO_DESCRIPTION,
  ECHO_EXPECTED,
  ECHO_INPUT_SCHEMA,
  SERVER_INFO,
} from './fixtures.js';
import { listen, readBody } from './http-util.js';
import { installHeapProbe } from './probe.js';

installHeapProbe();
const catalog = process.argv.includes('--catalog');

const tools: unknown[] = [{ name: 'echo', description: ECHO_DESCRIPTION, inputSchema: ECHO_INPUT_SCHEMA }];
if (catalog) {
  for (let i = 0; i < CATALOG_TOOLS; i++) {
    tools.push({
      name: catalogToolName(i),
      description: catalogDescription(i),
      inputSchema: catalogJsonSchema(i),
    });
  }
}

const results: Record<string, string> = {
  initialize: JSON.stringify({
    protocolVersion: '2025-11-25',
    capabilities: { tools: {} },
    serverInfo: SERVER_INFO,
  }),
  'tools/list': JSON.stringify({ tools }),
  'tools/call': JSON.stringify({ content: [{ type: 'text', text: ECHO_EXPECTED }] }),
};

await listen(async (req, res) => {
  const message = JSON.parse(await readBody(req)) as { id?: unknown; method?: string };
  if (message.id === undefined) {
    res.writeHead(202).end();
    return;
  }
  const body = `{"jsonrpc":"2.0","id":${JSON.stringify(message.id)},"result":${results[message.method ?? ''] ?? '{}'}}`;
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
});
