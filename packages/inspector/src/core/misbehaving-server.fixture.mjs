// A stdio MCP server (2025-06-18) that misbehaves: garbage on stdout, results that break the schema, a tool whose
// structuredContent breaks its outputSchema, and a crash on demand. For the inspector's tests.
import { createInterface } from 'node:readline';

const send = (message) => process.stdout.write(`${JSON.stringify(message)}\n`);
const tools = [
  {
    name: 'wrong_output',
    inputSchema: { type: 'object' },
    outputSchema: { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] },
  },
  { name: 'crash', inputSchema: { type: 'object' } },
  { title: 7 },
];

for await (const line of createInterface({ input: process.stdin })) {
  const message = JSON.parse(line);
  if (message.id === undefined) continue;
  switch (message.method) {
    case 'initialize':
      send({
        jsonrpc: '2.0',
        id: message.id,
        result: {
          protocolVersion: '2025-06-18',
          capabilities: { tools: {} },
          serverInfo: { name: 'misbehaving', version: '1' },
        },
      });
      break;
    case 'tools/list':
      process.stdout.write('this line is not JSON\n');
      send({ jsonrpc: '2.0', id: message.id, result: { tools } });
      break;
    case 'tools/call':
      if (message.params.name === 'crash') process.exit(3);
      send({
        jsonrpc: '2.0',
        id: message.id,
        result: { content: [], structuredContent: { n: 'not a number' } },
      });
      break;
    default:
      send({ jsonrpc: '2.0', id: message.id, error: { code: -32601, message: 'Method not found' } });
  }
}
