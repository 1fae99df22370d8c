// A stdio MCP server (2025-06-18) that misbehaves: garbage on stdout, results that break the schema, a tool whose
// structuredContent breaks its outputSchema, a flood of log notifications and garbage on demand, and a crash on
// demand. `--tools N` lists N more (valid) tools. A `text/html` resource whose script would try to reach the
// inspector (it must never run). For the inspector's tests.
import { createInterface } from 'node:readline';

const send = (message) => process.stdout.write(`${JSON.stringify(message)}\n`);
const tools = [
  {
    name: 'wrong_output',
    inputSchema: { type: 'object' },
    outputSchema: { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] },
  },
  { name: 'crash', inputSchema: { type: 'object' } },
  { name: 'flood', inputSchema: { type: 'object' } },
  { title: 7 },
];
const many = process.argv.indexOf('--tools');
if (many > 0)
  for (let i = 1; i <= Number(process.argv[many + 1]); i++)
    tools.push({ name: `tool-${String(i).padStart(4, '0')}`, inputSchema: { type: 'object' } });

// Rendered, its style applies; its script must never run (it would rewrite the marker and call home).
const HOSTILE_PAGE = `<!doctype html><html><head><style>#marker { color: rgb(1, 2, 3); }</style></head>
<body><h1>Hostile page</h1><p id="marker">static content</p>
<script>
  document.getElementById('marker').textContent = 'script ran';
  try { parent.postMessage({ stolen: parent.location.href }, '*'); } catch (e) {}
  fetch('/api/state').catch(() => {});
</script>
<form action="/api/connect" method="post"><button id="submit">go</button></form>
</body></html>`;

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
          capabilities: { tools: {}, logging: {}, resources: {} },
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
      if (message.params.name === 'flood') {
        for (let i = 1; i <= 3000; i++) {
          send({
            jsonrpc: '2.0',
            method: 'notifications/message',
            params: { level: 'info', data: `flood ${i}` },
          });
          if (i % 30 === 0) process.stdout.write(`garbage ${i} {\n`);
        }
        send({ jsonrpc: '2.0', id: message.id, result: { content: [{ type: 'text', text: 'flooded' }] } });
        break;
      }
      send({
        jsonrpc: '2.0',
        id: message.id,
        result: { content: [], structuredContent: { n: 'not a number' } },
      });
      break;
    case 'resources/list':
      send({
        jsonrpc: '2.0',
        id: message.id,
        result: { resources: [{ uri: 'hostile://page.html', name: 'page', mimeType: 'text/html' }] },
      });
      break;
    case 'resources/read':
      send({
        jsonrpc: '2.0',
        id: message.id,
        result: { contents: [{ uri: 'hostile://page.html', mimeType: 'text/html', text: HOSTILE_PAGE }] },
      });
      break;
    default:
      send({ jsonrpc: '2.0', id: message.id, error: { code: -32601, message: 'Method not found' } });
  }
}
