// The same weather server on the official TypeScript SDK, calling its upstream with node:http.
import { request } from 'node:http';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const server = new McpServer({ name: 'weather-http', version: '1.0.0' });
server.tool(
  'weather',
  'The weather in a city, from the upstream API',
  { city: z.string() },
  async ({ city }) => {
    const body = await new Promise((resolve, reject) => {
      const req = request(
        `${process.env.API_BASE}/weather?city=${encodeURIComponent(city)}`,
        {
          method: 'POST',
          headers: { 'x-api-key': process.env.API_KEY, 'content-type': 'application/json' },
        },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (chunk) => (text += chunk));
          res.on('end', () => resolve(JSON.parse(text)));
        },
      );
      req.on('error', reject);
      req.end(JSON.stringify({ city, token: process.env.API_KEY }));
    });
    return { content: [{ type: 'text', text: `${body.city}: ${body.sky}` }] };
  },
);
await server.connect(new StdioServerTransport());
