/**
 * The README's client example: starts the weather server, lists its tools, calls them (answering the server's
 * question), and closes.
 *
 *   node examples/dist/weather-client.js
 */
import { Client } from 'mcpengine/client';
import { StdioClientTransport } from 'mcpengine/stdio';

const mcpClient = new Client({
  name: 'my-app',
  version: '1.0.0',
  handlers: { elicitation: async () => ({ action: 'accept', content: { city: 'Oslo' } }) },
});
const server = new URL('./weather-server.js', import.meta.url).pathname;
const client = await mcpClient.connect(
  new StdioClientTransport({ command: process.execPath, args: [server] }),
); // probes the era
for await (const tool of client.tools()) console.log(tool.name);
const result = await client.callTool({ name: 'get_weather', arguments: { city: 'Oslo' } });
console.log(result.content[0]?.type === 'text' ? result.content[0].text : result.content);
const chosen = await client.callTool({ name: 'choose_city', arguments: {} });
console.log(chosen.content[0]?.type === 'text' ? chosen.content[0].text : chosen.content);
await client.close();
