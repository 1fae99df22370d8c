/**
 * The README's first example: a server with one tool, on stdio, in every revision and both eras.
 *
 *   node examples/dist/weather-server.js
 */
import { exitWhenClosed, McpServer } from 'mcpengine/server';
import { serveStdio } from 'mcpengine/stdio';

const server = new McpServer({ name: 'weather', version: '1.0.0' });

server.addTool<{ city: string }>({
  name: 'get_weather',
  description: 'Current weather for a city',
  inputSchema: {
    type: 'object',
    properties: { city: { type: 'string' } },
    required: ['city'],
    additionalProperties: false,
  },
  annotations: { readOnlyHint: true },
  handler: async ({ city }, ctx) => {
    ctx.progress(1, 2, 'Looking up');
    return `Sunny in ${city}`;
  },
});

server.addTool({
  name: 'choose_city',
  description: 'Asks the user which city they mean, then answers',
  inputSchema: { type: 'object' },
  handler: async (_args, ctx) => {
    const answer = await ctx.elicit(
      {
        message: 'Which city?',
        requestedSchema: { type: 'object', properties: { city: { type: 'string' } } },
      },
      { key: 'city' },
    );
    return `You chose ${answer.content?.city}`;
  },
});

exitWhenClosed(await serveStdio(server)); // every revision, both eras, on one stdio stream
