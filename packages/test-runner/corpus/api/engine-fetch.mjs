// A weather server on MCPEngine that calls its upstream API with fetch (key in a header and the query string).
import { McpServer } from 'mcpengine/server';
import { serveStdio } from 'mcpengine/stdio';

const server = new McpServer({ name: 'weather-fetch', version: '1.0.0' });
server.addTool({
  name: 'weather',
  description: 'The weather in a city, from the upstream API',
  inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  handler: async ({ city }) => {
    const url = `${process.env.API_BASE}/weather?city=${encodeURIComponent(city)}&appid=${process.env.API_KEY}`;
    const response = await globalThis.fetch(url, {
      headers: { authorization: `Bearer ${process.env.API_KEY}` },
    });
    const body = await response.json();
    return `${body.city}: ${body.sky}`;
  },
});
await serveStdio(server);
