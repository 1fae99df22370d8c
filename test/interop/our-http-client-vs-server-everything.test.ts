/**
 * Our Client over our HTTP client transports, against real servers:
 *
 * - `@modelcontextprotocol/server-everything` (the official SDK's reference server) in `streamableHttp` mode,
 *   driven through every tool, resource and prompt, and in `sse` mode (the 2024-11-05 HTTP+SSE fallback);
 * - our own everything server behind our own HTTP server, in both eras and over HTTP+SSE.
 *
 * Every message our client sends is validated against the official schema (WireTap, client side).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WireTap, tapTransport } from '@mcpengine/oracle';
import { Client, type ClientHandlers, type ClientSession } from 'mcpengine/client';
import { createHttpTransport, serveHttp, type HttpClientTransport, type HttpServing } from 'mcpengine/http';
import type { CallToolResult, JsonObject } from 'mcpengine/protocol';
import { createEverythingServer } from '@mcpengine/server-everything';
import { freePort } from '../free-port.js';

const require = createRequire(import.meta.url);
const SERVER_EVERYTHING = require.resolve('@modelcontextprotocol/server-everything/dist/index.js');

/** Starts server-everything in `mode` and resolves once it listens. */
async function startServerEverything(
  mode: 'streamableHttp' | 'sse',
): Promise<{ port: number; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(process.execPath, [SERVER_EVERYTHING, mode], {
    env: { ...process.env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (/listening on port|running on port/i.test(output)) resolve();
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`server-everything exited with ${code}: ${output}`)));
  });
  return { port, child };
}

async function stop(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  await exited;
}

/** The tools server-everything always registers (some only once the client is initialized). */
const BASE_TOOLS = [
  'echo',
  'get-annotated-message',
  'get-env',
  'get-resource-links',
  'get-resource-reference',
  'get-roots-list',
  'get-structured-content',
  'get-sum',
  'get-tiny-image',
  'gzip-file-as-resource',
  'simulate-research-query',
  'toggle-simulated-logging',
  'toggle-subscriber-updates',
  'trigger-elicitation-request',
  'trigger-long-running-operation',
  'trigger-sampling-request',
];
/** Registered only for clients that declare task-augmented sampling / elicitation (2025-11-25 tasks). */
const CONDITIONAL_TOOLS = ['trigger-sampling-request-async', 'trigger-elicitation-request-async'];

const ROOTS = [{ uri: 'file:///workspace/project', name: 'project' }];

function handlers(seen: { elicitations: JsonObject[]; samplings: JsonObject[] }): ClientHandlers {
  return {
    elicitation: (params) => {
      seen.elicitations.push(params as unknown as JsonObject);
      return {
        action: 'accept',
        content: {
          name: 'Ada Lovelace',
          check: true,
          email: 'ada@example.com',
          integer: 7,
          untitledSingleSelectEnum: 'Joey',
        },
      };
    },
    sampling: (params) => {
      seen.samplings.push(params as unknown as JsonObject);
      return {
        role: 'assistant',
        content: { type: 'text', text: 'sampled by the test' },
        model: 'test-model',
        stopReason: 'endTurn',
      };
    },
    roots: () => ROOTS,
  };
}

function texts(result: CallToolResult): string {
  return result.content.map((block) => (block.type === 'text' ? block.text : `[${block.type}]`)).join('\n');
}

interface Connection {
  client: ClientSession;
  transport: HttpClientTransport;
  tap: WireTap;
  seen: { elicitations: JsonObject[]; samplings: JsonObject[] };
}

/** Every POST as `method status`, for tests that check the exchange itself. */
type Exchanges = string[];

async function connect(
  url: string,
  connectOptions: Parameters<Client['connect']>[1] = {},
  exchanges?: Exchanges,
): Promise<Connection> {
  const seen = { elicitations: [] as JsonObject[], samplings: [] as JsonObject[] };
  const mcpClient = new Client({ name: 'mcpengine-interop', version: '0.1.0', handlers: handlers(seen) });
  const transport = createHttpTransport(url, {
    logger: { warn: (message) => console.warn(message) },
    fetch: async (input, init) => {
      const response = await fetch(input, init);
      if (exchanges && init.method === 'POST') {
        exchanges.push(`${(JSON.parse(String(init.body)) as { method?: string }).method} ${response.status}`);
      }
      return response;
    },
  });
  const tap = new WireTap({ validate: ['client'] });
  const client = await mcpClient.connect(tapTransport(transport, tap, 'client'), connectOptions);
  return { client, transport, tap, seen };
}

describe('our HTTP client vs @modelcontextprotocol/server-everything (Streamable HTTP)', () => {
  let child: ChildProcess | undefined;
  let c: Connection;

  beforeAll(async () => {
    const started = await startServerEverything('streamableHttp');
    child = started.child;
    c = await connect(`http://127.0.0.1:${started.port}/mcp`);
  });

  afterAll(async () => {
    await c?.client.close();
    await stop(child);
  });

  it('falls back from the modern probe to a legacy session over Streamable HTTP', () => {
    expect(c.transport.mode).toBe('streamable-http');
    expect([c.client.era, c.client.revision]).toEqual(['legacy', '2025-11-25']);
    expect(c.transport.streamable.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(c.client.serverInfo?.name).toBe('mcp-servers/everything');
  });

  it('lists the tools the server offers', async () => {
    const names = (await c.client.listAllTools()).map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(BASE_TOOLS));
    expect(
      names.filter((name) => !BASE_TOOLS.includes(name)).every((name) => CONDITIONAL_TOOLS.includes(name)),
    ).toBe(true);
  });

  const call = (name: string, args: JsonObject = {}) => c.client.callTool({ name, arguments: args });

  it('echo, get-sum, get-env', async () => {
    expect(texts(await call('echo', { message: 'héllo 世界' }))).toBe('Echo: héllo 世界');
    expect(texts(await call('get-sum', { a: 2, b: 40 }))).toContain('42');
    expect((await call('get-env')).isError).not.toBe(true);
  });

  it('get-annotated-message and get-tiny-image return annotated and image content', async () => {
    const annotated = await call('get-annotated-message', { messageType: 'error', includeImage: true });
    expect(annotated.content.map((block) => block.type)).toEqual(['text', 'image']);
    const image = await call('get-tiny-image');
    const png = image.content.find((block) => block.type === 'image');
    expect(png).toMatchObject({ type: 'image', mimeType: 'image/png' });
  });

  it('get-resource-links, get-resource-reference and get-structured-content', async () => {
    const links = await call('get-resource-links', { count: 2 });
    expect(links.content.filter((block) => block.type === 'resource_link')).toHaveLength(2);
    const text = await call('get-resource-reference', { resourceType: 'Text', resourceId: 1 });
    expect(text.content.some((block) => block.type === 'resource')).toBe(true);
    const blob = await call('get-resource-reference', { resourceType: 'Blob', resourceId: 2 });
    expect(blob.content.some((block) => block.type === 'resource')).toBe(true);
    const weather = await call('get-structured-content', { location: 'Chicago' });
    expect(weather.structuredContent).toMatchObject({
      temperature: expect.any(Number),
      conditions: expect.any(String),
    });
  });

  it('gzip-file-as-resource, as an embedded resource and as a link', async () => {
    const data = `data:text/plain;base64,${Buffer.from('hello').toString('base64')}`;
    const embedded = await call('gzip-file-as-resource', { name: 'hello.gz', data, outputType: 'resource' });
    expect(embedded.content[0]).toMatchObject({
      type: 'resource',
      resource: { mimeType: 'application/gzip' },
    });
    const link = await call('gzip-file-as-resource', { name: 'hello2.gz', data, outputType: 'resourceLink' });
    expect(link.content.some((block) => block.type === 'resource_link')).toBe(true);
  });

  it('trigger-long-running-operation streams progress on the request stream', async () => {
    const progress: number[] = [];
    const result = await c.client.callTool(
      { name: 'trigger-long-running-operation', arguments: { duration: 0.2, steps: 3 } },
      { onProgress: (update) => progress.push(update.progress) },
    );
    expect(texts(result)).toContain('Long running operation completed');
    expect(progress).toEqual([1, 2, 3]);
  });

  it('server→client requests over the request stream: roots, elicitation, sampling', async () => {
    expect(texts(await call('get-roots-list'))).toContain('file:///workspace/project');
    const elicited = await call('trigger-elicitation-request');
    expect(texts(elicited)).toContain('User provided the requested information');
    expect(c.seen.elicitations).toHaveLength(1);
    const sampled = await call('trigger-sampling-request', { prompt: 'Say hi', maxTokens: 10 });
    expect(texts(sampled)).toContain('sampled by the test');
    expect(c.seen.samplings).toHaveLength(1);
  });

  it('the task-augmented tools registered for the capabilities the client declares', async () => {
    const names = (await c.client.listAllTools()).map((tool) => tool.name);
    for (const name of CONDITIONAL_TOOLS.filter((tool) => names.includes(tool))) {
      const result = await call(name, name.includes('sampling') ? { prompt: 'Say hi' } : {});
      expect(result.isError, `${name}: ${texts(result)}`).not.toBe(true);
    }
  }, 30_000);

  it('toggle-simulated-logging and toggle-subscriber-updates, on and off', async () => {
    for (const name of ['toggle-simulated-logging', 'toggle-subscriber-updates']) {
      const on = await call(name);
      const off = await call(name);
      expect([on.isError, off.isError]).toEqual([undefined, undefined]);
      expect(texts(on)).not.toBe(texts(off));
    }
  });

  it('simulate-research-query runs only as a task: create, poll, fetch the result', async () => {
    const refused = await call('simulate-research-query', { topic: 'MCP' });
    expect(refused.isError).toBe(true);
    const created = await c.client.request('tools/call', {
      name: 'simulate-research-query',
      arguments: { topic: 'MCP' },
      task: { ttl: 60_000 },
    });
    const task = created.task as { taskId: string; pollInterval?: number };
    let status = '';
    while (status !== 'completed') {
      await new Promise((resolve) => setTimeout(resolve, 200));
      status = String((await c.client.request('tasks/get', { taskId: task.taskId })).status);
      expect(status).toMatch(/^(working|completed)$/);
    }
    const result = (await c.client.request('tasks/result', {
      taskId: task.taskId,
    })) as unknown as CallToolResult;
    expect(texts(result)).toContain('# Research Report: MCP');
  }, 20_000);

  it('reads every resource and both templates', async () => {
    const resources = await c.client.listResources();
    expect(resources.resources.length).toBeGreaterThan(0);
    for (const resource of resources.resources) {
      const read = await c.client.readResource({ uri: resource.uri });
      expect(read.contents[0]?.uri).toBe(resource.uri);
    }
    const templates = (await c.client.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate);
    expect(templates).toEqual([
      'demo://resource/dynamic/text/{resourceId}',
      'demo://resource/dynamic/blob/{resourceId}',
    ]);
    const text = await c.client.readResource({ uri: 'demo://resource/dynamic/text/3' });
    expect(text.contents[0]).toMatchObject({ uri: 'demo://resource/dynamic/text/3', mimeType: 'text/plain' });
    const blob = await c.client.readResource({ uri: 'demo://resource/dynamic/blob/3' });
    expect(blob.contents[0]).toHaveProperty('blob');
    await c.client.subscribeResource('demo://resource/dynamic/text/3');
    await c.client.unsubscribeResource('demo://resource/dynamic/text/3');
  });

  it('gets every prompt, with completions for the completable one', async () => {
    const simple = await c.client.getPrompt({ name: 'simple-prompt' });
    expect(simple.messages.length).toBeGreaterThan(0);
    const args = await c.client.getPrompt({ name: 'args-prompt', arguments: { city: 'Paris', state: 'TX' } });
    expect(JSON.stringify(args.messages)).toContain('Paris');
    const departments = await c.client.complete({
      ref: { type: 'ref/prompt', name: 'completable-prompt' },
      argument: { name: 'department', value: '' },
    });
    expect(departments.completion.values).toContain('Engineering');
    const members = await c.client.complete({
      ref: { type: 'ref/prompt', name: 'completable-prompt' },
      argument: { name: 'name', value: '' },
      context: { arguments: { department: 'Engineering' } },
    });
    expect(members.completion.values.length).toBeGreaterThan(0);
    const team = await c.client.getPrompt({
      name: 'completable-prompt',
      arguments: { department: 'Engineering', name: members.completion.values[0]! },
    });
    expect(JSON.stringify(team.messages)).toContain('Engineering');
    const embedded = await c.client.getPrompt({
      name: 'resource-prompt',
      arguments: { resourceType: 'Text', resourceId: '1' },
    });
    expect(embedded.messages.some((m) => m.content.type === 'resource')).toBe(true);
  });

  it('ping and logging/setLevel', async () => {
    await c.client.ping();
    await c.client.setLogLevel('debug');
  });

  it('sent only schema-valid messages', () => {
    expect(c.tap.violations).toEqual([]);
  });
});

describe('our HTTP client vs @modelcontextprotocol/server-everything (HTTP+SSE, 2024-11-05)', () => {
  let child: ChildProcess | undefined;
  let c: Connection;

  beforeAll(async () => {
    const started = await startServerEverything('sse');
    child = started.child;
    c = await connect(`http://127.0.0.1:${started.port}/sse`);
  });

  afterAll(async () => {
    await c?.client.close();
    await stop(child);
  });

  it('falls back to HTTP+SSE after Streamable HTTP is refused, and works', async () => {
    expect(c.transport.mode).toBe('http+sse');
    expect(c.client.era).toBe('legacy');
    expect(texts(await c.client.callTool({ name: 'echo', arguments: { message: 'over sse' } }))).toBe(
      'Echo: over sse',
    );
    const progress: number[] = [];
    await c.client.callTool(
      { name: 'trigger-long-running-operation', arguments: { duration: 0.1, steps: 2 } },
      { onProgress: (update) => progress.push(update.progress) },
    );
    expect(progress).toEqual([1, 2]);
    expect(
      texts(await c.client.callTool({ name: 'trigger-sampling-request', arguments: { prompt: 'x' } })),
    ).toContain('sampled by the test');
    expect((await c.client.listPrompts()).prompts.length).toBe(4);
    expect(c.tap.violations).toEqual([]);
  });
});

describe('our HTTP client vs our HTTP server (the everything server)', () => {
  let serving: HttpServing;

  beforeAll(async () => {
    serving = await serveHttp(createEverythingServer(), { legacySse: true });
  });

  afterAll(async () => {
    await serving?.close({ drainTimeoutMs: 100 });
  });

  it('modern era: discovers, mirrors x-mcp-header parameters, streams progress', async () => {
    const c = await connect(serving.url);
    try {
      expect([c.client.era, c.client.revision, c.transport.mode]).toEqual([
        'modern',
        '2026-07-28',
        'streamable-http',
      ]);
      const tools = (await c.client.listAllTools()).map((tool) => tool.name);
      expect(tools).toContain('test_header_echo');
      const echoed = await c.client.callTool({
        name: 'test_header_echo',
        arguments: { region: ' Zürich ', query: 'q' },
      });
      expect(texts(echoed)).toBe('Region:  Zürich ');
      const progress: number[] = [];
      const result = await c.client.callTool(
        { name: 'test_tool_with_progress', arguments: {} },
        { onProgress: (update) => progress.push(update.progress) },
      );
      expect(result.isError).not.toBe(true);
      expect(progress.length).toBeGreaterThan(0);
      const sampled = await c.client.callTool({ name: 'test_sampling', arguments: { prompt: 'hi' } });
      expect(texts(sampled)).toContain('sampled by the test');
      expect(c.tap.violations).toEqual([]);
    } finally {
      await c.client.close();
    }
  });

  it('modern era: a tools/call before any tools/list is refused (-32020), then listed and retried with the headers', async () => {
    const exchanges: Exchanges = [];
    const c = await connect(serving.url, {}, exchanges);
    try {
      const echoed = await c.client.callTool({
        name: 'test_header_echo',
        arguments: { region: 'eu-west-1' },
      });
      expect(texts(echoed)).toBe('Region: eu-west-1');
      expect(exchanges).toEqual([
        'server/discover 200',
        'tools/call 400',
        'tools/list 200',
        'tools/call 200',
      ]);
      expect(c.tap.violations).toEqual([]);
    } finally {
      await c.client.close();
    }
  });

  for (const revision of ['2025-11-25', '2025-06-18', '2025-03-26'] as const) {
    it(`legacy era ${revision}: a session, server→client requests, DELETE on close`, async () => {
      const c = await connect(serving.url, { revision });
      try {
        expect([c.client.era, c.client.revision]).toEqual(['legacy', revision]);
        expect(c.transport.streamable.sessionId).toBeDefined();
        expect(texts(await c.client.callTool({ name: 'test_simple_text', arguments: {} }))).not.toBe('');
        const sampled = await c.client.callTool({ name: 'test_sampling', arguments: { prompt: 'hi' } });
        expect(texts(sampled)).toContain('sampled by the test');
        expect(c.tap.violations).toEqual([]);
        expect(serving.handler.stats().sessions).toBe(1);
      } finally {
        await c.client.close();
      }
      // close() ends the session with DELETE.
      expect(serving.handler.stats().sessions).toBe(0);
    });
  }

  it('HTTP+SSE at the sse URL', async () => {
    const c = await connect(serving.sseUrl!, { revision: '2024-11-05' });
    try {
      expect([c.transport.mode, c.client.revision]).toEqual(['http+sse', '2024-11-05']);
      expect(texts(await c.client.callTool({ name: 'test_simple_text', arguments: {} }))).not.toBe('');
      expect(c.tap.violations).toEqual([]);
    } finally {
      await c.client.close();
    }
  });
});
