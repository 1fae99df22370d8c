/** A small server with one of everything, for engine tests. */
import { McpServer, type ServerOptions } from '../server/index.js';

export function createTestServer(options: Partial<ServerOptions> = {}): McpServer {
  const server = new McpServer({
    name: 'test-server',
    version: '1.2.3',
    instructions: 'Test server',
    ...options,
  });
  server.addTool<{ a: number; b: number }>({
    name: 'add',
    description: 'Adds two numbers',
    inputSchema: {
      type: 'object',
      properties: { a: { type: 'number' }, b: { type: 'number' } },
      required: ['a', 'b'],
      additionalProperties: false,
    },
    outputSchema: { type: 'object', properties: { sum: { type: 'number' } }, required: ['sum'] },
    handler: ({ a, b }) => ({
      content: [{ type: 'text', text: String(a + b) }],
      structuredContent: { sum: a + b },
    }),
  });
  server.addTool({
    name: 'fail',
    description: 'Throws',
    handler: () => {
      throw new Error('boom');
    },
  });
  server.addTool({
    name: 'audio',
    description: 'Returns audio and a resource link',
    handler: () => ({
      content: [
        { type: 'audio', data: 'AAAA', mimeType: 'audio/wav' },
        { type: 'resource_link', uri: 'test://doc', name: 'doc' },
      ],
    }),
  });
  server.addTool({
    name: 'slow',
    description: 'Waits until cancelled or 2 s',
    handler: (_args, ctx) =>
      new Promise((resolve) => {
        const timer = setTimeout(() => resolve('finished'), 2_000);
        ctx.signal.addEventListener('abort', () => {
          clearTimeout(timer);
          resolve('aborted');
        });
      }),
  });
  server.addTool({
    name: 'progress',
    description: 'Reports progress',
    handler: async (_args, ctx) => {
      ctx.progress(1, 3, 'one');
      ctx.progress(1, 3, 'repeat is dropped');
      ctx.progress(2, 3);
      ctx.progress(3, 3);
      ctx.log('info', { step: 'done' }, 'progress-tool');
      ctx.log('debug', 'debug detail');
      return 'ok';
    },
  });
  server.addTool({
    name: 'ask',
    description: 'Asks the user for a name',
    handler: async (_args, ctx) => {
      const answer = await ctx.elicit(
        {
          message: 'Name?',
          requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
        },
        { key: 'name' },
      );
      return `Hello ${String(answer.content?.name ?? answer.action)}`;
    },
  });
  server.addResource({ uri: 'test://doc', name: 'doc', mimeType: 'text/plain', read: () => 'document text' });
  server.addResourceTemplate({
    uriTemplate: 'test://items/{id}',
    name: 'item',
    mimeType: 'application/json',
    read: (uri, { id }) => JSON.stringify({ id }),
    complete: { id: ({ value }) => ['alpha', 'beta', 'gamma'].filter((v) => v.startsWith(value)) },
  });
  server.addPrompt({
    name: 'greet',
    description: 'Greets someone',
    arguments: [
      {
        name: 'who',
        required: true,
        complete: ({ value }) => Array.from({ length: 150 }, (_, i) => `${value}${i}`),
      },
    ],
    get: ({ who }) => ({ messages: [{ role: 'user', content: { type: 'text', text: `Hello ${who}` } }] }),
  });
  return server;
}

/** Adds `toggled`, and `toggle`, which disables or enables it (a list change on demand). */
export function addToggledTool(server: McpServer): void {
  const toggled = server.addTool({ name: 'toggled', description: 'Comes and goes', handler: () => 'x' });
  server.addTool({
    name: 'toggle',
    description: 'Toggles the toggled tool',
    handler: () => {
      if (toggled.enabled) toggled.disable();
      else toggled.enable();
      return 'toggled';
    },
  });
}
