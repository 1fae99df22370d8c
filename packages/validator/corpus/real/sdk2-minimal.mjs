// A minimal server on the official TypeScript SDK 2.x (`@modelcontextprotocol/server`, a root devDependency),
// written the way its documentation shows: a factory that builds an `McpServer` with one read-only tool (a zod
// input schema), one prompt and one resource, served on stdio with `serveStdio(factory)`. Nothing here is
// broken on purpose: the validator's findings on it are the SDK's (docs/validator/sdk2-minimal.md).
import { McpServer } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { z } from 'zod';

function createServer() {
  const server = new McpServer({ name: 'sdk2-minimal', version: '1.0.0' });
  server.registerTool(
    'greet',
    {
      description: 'Greets someone by name.',
      inputSchema: z.object({ name: z.string().describe('who to greet') }),
      annotations: { readOnlyHint: true },
    },
    async ({ name }) => ({ content: [{ type: 'text', text: `Hello, ${name}!` }] }),
  );
  server.registerPrompt(
    'welcome',
    { description: 'A welcome message.', argsSchema: z.object({ topic: z.string() }) },
    ({ topic }) => ({
      messages: [{ role: 'user', content: { type: 'text', text: `Welcome to ${topic}.` } }],
    }),
  );
  server.registerResource(
    'readme',
    'memo://readme',
    { description: 'A short text.', mimeType: 'text/plain' },
    async (uri) => ({ contents: [{ uri: uri.href, mimeType: 'text/plain', text: 'Read me.' }] }),
  );
  return server;
}

serveStdio(createServer);
