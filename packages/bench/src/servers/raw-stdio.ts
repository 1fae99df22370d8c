/**
 * The stdio ceiling: a minimal hand-written newline-delimited JSON-RPC server. It parses each request and
 * answers with a prepared result, without validation, schemas or any protocol machinery. Nothing written in
 * JavaScript on this transport can be much faster.
 */
import { installHeapProbe } from './probe.js';
import { ECHO_DESCRIPTION, ECHO_EXPECTED, ECHO_INPUT_SCHEMA, SERVER_INFO } from './fixtures.js';

installHeapProbe();

const results: Record<string, string> = {
  initialize: JSON.stringify({
    protocolVersion: '2025-11-25',
    capabilities: { tools: {} },
    serverInfo: SERVER_INFO,
  }),
  'tools/list': JSON.stringify({
    tools: [{ name: 'echo', description: ECHO_DESCRIPTION, inputSchema: ECHO_INPUT_SCHEMA }],
  }),
  'tools/call': JSON.stringify({ content: [{ type: 'text', text: ECHO_EXPECTED }] }),
  ping: '{}',
};

let tail = '';

process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk: string) => {
  const text = tail + chunk;
  let out = '';
  let start = 0;
  for (let end = text.indexOf('\n'); end !== -1; end = text.indexOf('\n', start)) {
    const line = text.slice(start, end);
    start = end + 1;
    if (line.length === 0) continue;
    const message = JSON.parse(line) as { id?: unknown; method?: string };
    if (message.id === undefined) continue;
    const result = results[message.method ?? ''] ?? '{}';
    out += `{"jsonrpc":"2.0","id":${JSON.stringify(message.id)},"result":${result}}\n`;
  }
  tail = text.slice(start);
  // One write per chunk read: the responses to a burst of requests leave together.
  if (out !== '') process.stdout.write(out);
});
process.stdin.on('end', () => process.exit(0));
