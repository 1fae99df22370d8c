import { afterEach, describe, expect, it } from 'vitest';
import { McpServer } from '../server/index.js';
import { assertAllTapsClean, connect } from '../test/harness.js';
import { createTestServer } from '../test/fixture-server.js';
import { createMemoryTransportPair } from '../transports/memory/index.js';
import { Client } from './index.js';
import { RemoteError, RequestAbortedError } from '../protocol/errors.js';

afterEach(() => assertAllTapsClean());

const handlers = {
  elicitation: () => ({ action: 'accept' as const, content: { name: 'Grace' } }),
  sampling: () => ({
    role: 'assistant' as const,
    content: { type: 'text' as const, text: 'sampled' },
    model: 'm',
  }),
  roots: () => [{ uri: 'file:///work', name: 'work' }],
};

describe('connecting', () => {
  it('probes server/discover and stays modern with a dual-era server', async () => {
    const { client } = await connect(createTestServer());
    expect(client.era).toBe('modern');
    expect(client.revision).toBe('2026-07-28');
    expect(client.serverInfo).toEqual({ name: 'test-server', version: '1.2.3' });
    expect(client.supportedVersions).toContain('2025-11-25');
  });

  it('falls back to initialize when the server is legacy-only', async () => {
    const server = createTestServer({ revisions: ['2025-06-18', '2025-11-25'] });
    const { client } = await connect(server);
    expect(client.era).toBe('legacy');
    expect(client.revision).toBe('2025-11-25');
    expect(client.instructions).toBe('Test server');
  });

  it('pins a revision when asked', async () => {
    for (const revision of ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25', '2026-07-28'] as const) {
      const { client } = await connect(createTestServer(), {}, { revision });
      expect(client.revision).toBe(revision);
      const tools = await client.listAllTools();
      expect(tools.map((t) => t.name)).toContain('add');
      await client.close();
    }
  });

  it('fails clearly when the server has nothing in common', async () => {
    const server = createTestServer({ revisions: ['2026-07-28'] });
    const [a, b] = createMemoryTransportPair();
    await server.connect(b);
    const client = new Client({ name: 'c', version: '1' });
    await expect(client.connect(a, { revisions: ['2025-06-18'] })).rejects.toThrow();
  });
});

describe('calls in both eras', () => {
  for (const revision of ['2025-06-18', '2026-07-28'] as const) {
    it(`lists, calls, reads and completes at ${revision}`, async () => {
      const { client } = await connect(createTestServer(), { handlers }, { revision });
      const sum = await client.callTool({ name: 'add', arguments: { a: 20, b: 22 } });
      expect(sum.structuredContent).toEqual({ sum: 42 });
      const doc = await client.readResource({ uri: 'test://doc' });
      expect(doc.contents[0]).toMatchObject({ text: 'document text' });
      const prompt = await client.getPrompt({ name: 'greet', arguments: { who: 'Lin' } });
      expect(prompt.messages[0]!.content).toEqual({ type: 'text', text: 'Hello Lin' });
      const completion = await client.complete({
        ref: { type: 'ref/resource', uri: 'test://items/{id}' },
        argument: { name: 'id', value: 'g' },
      });
      expect(completion.completion.values).toEqual(['gamma']);
      const templates = [];
      for await (const template of client.resourceTemplates()) templates.push(template.uriTemplate);
      expect(templates).toEqual(['test://items/{id}']);
      await expect(client.callTool({ name: 'missing' })).rejects.toMatchObject({ code: -32602 });
    });

    it(`answers elicitation with the same handler at ${revision}`, async () => {
      const { client } = await connect(createTestServer(), { handlers }, { revision });
      const result = await client.callTool({ name: 'ask', arguments: {} });
      expect(result.content).toEqual([{ type: 'text', text: 'Hello Grace' }]);
    });
  }

  it('reports progress and resets the timeout on progress', async () => {
    const { client } = await connect(createTestServer(), {}, { revision: '2025-11-25' });
    const seen: number[] = [];
    await client.callTool({ name: 'progress', arguments: {} }, { onProgress: (p) => seen.push(p.progress) });
    expect(seen).toEqual([1, 2, 3]);
  });

  it('times out, cancels the request on the server, and ignores the late answer', async () => {
    const server = createTestServer();
    let aborted = false;
    server.addTool({
      name: 'hang',
      description: 'never answers until cancelled',
      handler: (_a, ctx) =>
        new Promise((resolve) =>
          ctx.signal.addEventListener('abort', () => {
            aborted = true;
            resolve('late');
          }),
        ),
    });
    const { client } = await connect(server, {}, { revision: '2025-11-25' });
    await expect(client.callTool({ name: 'hang' }, { timeoutMs: 50 })).rejects.toBeInstanceOf(
      RequestAbortedError,
    );
    await new Promise((r) => setTimeout(r, 30));
    expect(aborted).toBe(true);
    await client.ping();
  });

  it('cancels through an AbortSignal in the modern era too', async () => {
    const { client } = await connect(createTestServer());
    const controller = new AbortController();
    const call = client.callTool({ name: 'slow' }, { signal: controller.signal });
    setTimeout(() => controller.abort(new Error('user gave up')), 20);
    await expect(call).rejects.toThrow(/cancelled/);
  });

  it('surfaces remote errors as RemoteError', async () => {
    const { client } = await connect(createTestServer(), {}, { revision: '2025-06-18' });
    const error = await client.readResource({ uri: 'test://missing' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RemoteError);
    expect((error as RemoteError).code).toBe(-32002);
  });
});

describe('modern caching and subscriptions', () => {
  it('serves fresh list results from cache and invalidates on list_changed', async () => {
    const server = createTestServer();
    const { client, tap } = await connect(server);
    const first = await client.listTools();
    const sub = client.listen({ toolsListChanged: true }, () => {});
    expect(await sub.acknowledged).toEqual({ toolsListChanged: true });
    const before = tap.violations.length;
    const second = await client.listTools();
    expect(second).toBe(first);
    server.addTool({ name: 'fresh', description: 'new', handler: () => 'x' });
    await new Promise((r) => setTimeout(r, 20));
    const third = await client.listTools();
    expect(third.tools.map((t) => t.name)).toContain('fresh');
    expect(tap.violations.length).toBe(before);
    sub.close();
    await sub.ended;
  });

  it('delivers subscription notifications to the right listener', async () => {
    const server = createTestServer();
    const { client } = await connect(server);
    const got: string[] = [];
    const sub = client.listen({ resourceSubscriptions: ['test://doc'] }, (method, params) =>
      got.push(`${method} ${String(params.uri)}`),
    );
    await sub.acknowledged;
    server.notifyResourceUpdated('test://doc');
    await new Promise((r) => setTimeout(r, 20));
    expect(got).toEqual(['notifications/resources/updated test://doc']);
    sub.close();
  });
});

describe('URL-mode elicitation', () => {
  for (const revision of ['2025-11-25', '2026-07-28'] as const) {
    it(`carries an elicitationId exactly where the revision defines one (${revision})`, async () => {
      const server = new McpServer({ name: 's', version: '1' });
      server.addTool({
        name: 'link_account',
        description: 'asks the user to visit a URL',
        handler: async (_args, ctx) => {
          const answer = await ctx.elicit({
            mode: 'url',
            message: 'Link your account',
            url: 'https://example.com/link',
          });
          return answer.action;
        },
      });
      const seen: unknown[] = [];
      const { client } = await connect(
        server,
        {
          capabilities: { elicitation: { form: {}, url: {} } },
          handlers: {
            elicitation: (params) => {
              seen.push(params);
              return { action: 'accept' };
            },
          },
        },
        { revision },
      );
      const result = await client.callTool({ name: 'link_account' });
      expect(result.content[0]).toEqual({ type: 'text', text: 'accept' });
      const params = seen[0] as Record<string, unknown>;
      expect(params.url).toBe('https://example.com/link');
      if (revision === '2025-11-25') expect(params.elicitationId).toMatch(/^[0-9a-f-]{36}$/);
      else expect(params.elicitationId).toBeUndefined();
    });
  }
});

describe('legacy server requests', () => {
  it('serves sampling, roots and ping for the server', async () => {
    const server = new McpServer({ name: 's', version: '1' });
    server.addTool({
      name: 'gather',
      description: 'asks the client things',
      handler: async (_args, ctx) => {
        const sample = await ctx.sample({
          messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }],
          maxTokens: 5,
        });
        const roots = await ctx.listRoots();
        return `${JSON.stringify(sample.content)} ${roots.roots[0]!.uri}`;
      },
    });
    const { client } = await connect(server, { handlers }, { revision: '2025-06-18' });
    const result = await client.callTool({ name: 'gather' });
    expect(result.content[0]).toEqual({
      type: 'text',
      text: '{"type":"text","text":"sampled"} file:///work',
    });
  });

  it('fails the tool cleanly when the client lacks the capability', async () => {
    const server = new McpServer({ name: 's', version: '1' });
    server.addTool({
      name: 'needs_roots',
      description: 'x',
      handler: async (_a, ctx) => (await ctx.listRoots()).roots.length.toString(),
    });
    const { client } = await connect(server, {}, { revision: '2025-06-18' });
    const result = await client.callTool({ name: 'needs_roots' });
    expect(result.isError).toBe(true);
    expect(result.content[0]).toMatchObject({ text: expect.stringContaining('roots') });
  });
});
