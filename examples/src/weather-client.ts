/**
 * The README's client example: starts the weather server, lists its tools, calls them (answering the server's
 * question), and closes.
 *
 *   node examples/dist/weather-client.js
 */
import { Client } from 'mcpengine/client';
import { StdioClientTransport } from 'mcpengine/stdio';

const client = new Client({
  name: 'my-app',
  version: '1.0.0',
  handlers: { elicitation: async () => ({ action: 'accept', content: { city: 'Oslo' } }) },
});
const server = new URL('./weather-server.js', import.meta.url).pathname;
// One client, any number of sessions; connect() probes the era and returns the session.
const session = await client.connect(new StdioClientTransport({ command: process.execPath, args: [server] }));
for await (const tool of session.tools()) console.log(tool.name);
const result = await session.callTool({ name: 'get_weather', arguments: { city: 'Oslo' } });
console.log(result.content[0]?.type === 'text' ? result.content[0].text : result.content);
const chosen = await session.callTool({ name: 'choose_city', arguments: {} });
console.log(chosen.content[0]?.type === 'text' ? chosen.content[0].text : chosen.content);
await session.close();
