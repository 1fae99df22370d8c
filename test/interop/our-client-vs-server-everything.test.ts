/**
 * OUR Client and StdioClientTransport drive the official reference server, @modelcontextprotocol/server-everything
 * (built on the official SDK 1.x), over stdio: every tool it lists, every resource and template, every prompt,
 * completion, logging, subscriptions, progress and cancellation, answering its sampling, elicitation and roots
 * requests with handlers.
 *
 * The server speaks only the legacy era (2024-11-05 … 2025-11-25; it answers `server/discover` with -32601), so
 * the suite runs once with era probing ('auto') and once pinned to each legacy revision. Every message our
 * client sends is validated against the official schema of the negotiated revision.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { tapTransport, WireTap } from '@mcpengine/oracle';
import {
  Client,
  RemoteError,
  RequestAbortedError,
  type ClientOptions,
  type ClientSession,
} from 'mcpengine/client';
import type {
  ClientCapabilities,
  CreateMessageParams,
  ElicitParams,
  ElicitResult,
  Revision,
} from 'mcpengine/protocol';
import { StdioClientTransport } from 'mcpengine/stdio';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

const PACKAGE_DIR = dirname(
  createRequire(import.meta.url).resolve('@modelcontextprotocol/server-everything/package.json'),
);
const SERVER_MAIN = join(PACKAGE_DIR, 'dist', 'index.js');
const DOCS_DIR = join(PACKAGE_DIR, 'dist', 'docs');
const readDoc = (name: string) => readFileSync(join(DOCS_DIR, name), 'utf8');

const SERVER_INFO = {
  name: 'mcp-servers/everything',
  title: 'Everything Reference Server',
  version: '2.0.0',
};
const ROOTS = [{ uri: 'file:///workspace/project', name: 'Project' }];
const SAMPLING_REPLY = {
  role: 'assistant' as const,
  content: { type: 'text' as const, text: 'Hello from the test model' },
  model: 'test-model',
  stopReason: 'endTurn',
};
/** A complete, valid answer to trigger-elicitation-request's form. */
const FORM_ANSWER = {
  name: 'Ada Lovelace',
  check: true,
  firstLine: 'It was a dark and stormy night.',
  email: 'ada@example.com',
  homepage: 'https://example.com/ada',
  birthdate: '1815-12-10',
  integer: 7,
  // The official schema's ElicitResult allows integers, booleans and strings (and string arrays from 2025-11-25).
  number: 3,
  untitledSingleSelectEnum: 'Joey',
  untitledMultipleSelectEnum: ['Piano', 'Drums'],
  titledSingleSelectEnum: 'hero-3',
  titledMultipleSelectEnum: ['fish-2'],
  legacyTitledEnum: 'pet-2',
};
const ASYNC_FORM_MESSAGE = 'Please provide inputs for the following fields (async task demo):';
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const LOG_LEVELS = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'];
const LEGACY_REVISIONS = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'] as const;

type Mode = 'auto' | (typeof LEGACY_REVISIONS)[number];
type Message = Record<string, any>;

/** Records every message both ways (parsed), for assertions on the wire. */
class Recorder {
  readonly sent: Message[] = [];
  readonly received: Message[] = [];
  private waiters: { predicate: (m: Message) => boolean; resolve: (m: Message) => void }[] = [];

  inbound(text: string): void {
    const message = JSON.parse(text) as Message;
    this.received.push(message);
    for (const waiter of this.waiters.filter((w) => w.predicate(message))) {
      this.waiters.splice(this.waiters.indexOf(waiter), 1);
      waiter.resolve(message);
    }
  }

  /** The first server message from now on that matches (rejects after a generous guard timeout). */
  next(predicate: (m: Message) => boolean, timeoutMs = 5_000): Promise<Message> {
    return new Promise((resolve, reject) => {
      const waiter = {
        predicate,
        resolve: (m: Message) => {
          clearTimeout(timer);
          resolve(m);
        },
      };
      const timer = setTimeout(() => {
        this.waiters.splice(this.waiters.indexOf(waiter), 1);
        reject(new Error(`no matching message from the server within ${timeoutMs} ms`));
      }, timeoutMs);
      this.waiters.push(waiter);
    });
  }

  receivedWithMethod(method: string): Message[] {
    return this.received.filter((m) => m['method'] === method);
  }

  sentWithMethod(method: string): Message[] {
    return this.sent.filter((m) => m['method'] === method);
  }
}

interface Session {
  mode: Mode;
  client: ClientSession;
  tap: WireTap;
  wire: Recorder;
  stderr: string[];
  transport: StdioClientTransport;
  sampled: CreateMessageParams[];
  elicited: ElicitParams[];
}

/**
 * What our client declares: derived from its handlers for the older revisions; at 2025-11-25 explicitly, adding URL
 * elicitation, and (when probing, 'auto') task-augmented sampling and elicitation, which unlock the server's two
 * async tools.
 */
function capabilitiesFor(mode: Mode): ClientOptions['capabilities'] {
  if (mode !== 'auto' && mode !== '2025-11-25') return undefined;
  const caps: ClientCapabilities = {
    sampling: {},
    elicitation: { form: {}, url: {} },
    roots: { listChanged: true },
  };
  if (mode === 'auto') {
    caps.tasks = {
      list: {},
      cancel: {},
      requests: { sampling: { createMessage: {} }, elicitation: { create: {} } },
    };
  }
  return caps;
}

function answerElicitation(params: ElicitParams, mode: Mode): ElicitResult {
  if (params.mode === 'url') return { action: 'accept' };
  const properties = params.requestedSchema.properties as Record<string, { oneOf?: { const: string }[] }>;
  const interpretation = properties['interpretation']?.oneOf?.[0]?.const;
  if (interpretation !== undefined) return { action: 'accept', content: { interpretation } };
  if (params.message === ASYNC_FORM_MESSAGE) return { action: 'accept', content: { name: 'Ada Lovelace' } };
  // Multi-select answers (string arrays) exist from 2025-11-25 on; the optional fields are left out before.
  const content = Object.fromEntries(
    Object.entries(FORM_ANSWER).filter(([, value]) => !Array.isArray(value) || mode !== '2025-06-18'),
  );
  return { action: 'accept', content };
}

process.env['MCP_INTEROP_NOT_INHERITED'] = 'must not reach the server';

async function open(mode: Mode): Promise<Session> {
  const tap = new WireTap({ validate: ['client'] });
  const wire = new Recorder();
  const stderr: string[] = [];
  const sampled: CreateMessageParams[] = [];
  const elicited: ElicitParams[] = [];
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [SERVER_MAIN, 'stdio'],
    env: { MCP_INTEROP_MARKER: 'our-client' },
    onStderr: (chunk) => stderr.push(chunk),
    // The server does not exit when its stdin closes (see close()); no need to wait long before SIGTERM.
    shutdownTimeoutMs: 300,
  });
  const recording = {
    start: (handlers: Parameters<StdioClientTransport['start']>[0]) =>
      transport.start({
        ...handlers,
        message: (text) => {
          wire.inbound(text);
          handlers.message(text);
        },
      }),
    send: (text: string) => {
      wire.sent.push(JSON.parse(text) as Message);
      transport.send(text);
    },
    close: () => transport.close(),
  };
  const capabilities = capabilitiesFor(mode);
  const mcpClient = new Client({
    name: 'mcpengine-interop',
    version: '0.1.0',
    ...(capabilities && { capabilities }),
    handlers: {
      sampling: (params) => {
        sampled.push(params);
        return SAMPLING_REPLY;
      },
      elicitation: (params) => {
        elicited.push(params);
        return answerElicitation(params, mode);
      },
      roots: () => ROOTS,
    },
  });
  const client = await mcpClient.connect(
    tapTransport(recording, tap, 'client'),
    mode === 'auto' ? {} : { revision: mode },
  );
  return { mode, client, tap, wire, stderr, transport, sampled, elicited };
}

async function close(session: Session): Promise<void> {
  await session.client.close();
  session.tap.assertClean();
  // server-everything keeps running after stdin closes (its task store holds timers), so our transport
  // follows the spec's shutdown sequence to its second step: SIGTERM.
  expect(session.transport.exitStatus).toEqual({ code: null, signal: 'SIGTERM' });
  // stderr is the server's log channel; stdout carried only protocol messages (or our client would have failed).
  expect(session.stderr.join('')).toContain('Starting default (STDIO) server...');
}

function texts(result: { content?: unknown }): string[] {
  return ((result.content ?? []) as { type: string; text?: string }[])
    .filter((block) => block.type === 'text')
    .map((block) => block.text ?? '');
}

/** The tools server-everything lists for a client with our capabilities at this revision. */
function expectedTools(mode: Mode): string[] {
  const elicitation = mode !== '2025-03-26' && mode !== '2024-11-05';
  return [
    'echo',
    'get-annotated-message',
    'get-env',
    'get-resource-links',
    'get-resource-reference',
    'get-structured-content',
    'get-sum',
    'get-tiny-image',
    'gzip-file-as-resource',
    'toggle-simulated-logging',
    'toggle-subscriber-updates',
    'trigger-long-running-operation',
    'get-roots-list',
    ...(elicitation ? ['trigger-elicitation-request'] : []),
    ...(mode === 'auto' || mode === '2025-11-25' ? ['trigger-url-elicitation'] : []),
    'trigger-sampling-request',
    'simulate-research-query',
    ...(mode === 'auto' ? ['trigger-sampling-request-async', 'trigger-elicitation-request-async'] : []),
  ];
}

/** One driver per tool: calls it with arguments derived from its input schema and checks the exact outcome. */
const TOOL_DRIVERS: Record<string, (s: Session) => Promise<void>> = {
  echo: async ({ client }) => {
    const result = await client.callTool({ name: 'echo', arguments: { message: 'héllo, wörld ✓' } });
    expect(result).toEqual({ content: [{ type: 'text', text: 'Echo: héllo, wörld ✓' }] });
  },

  'get-annotated-message': async ({ client }) => {
    const error = await client.callTool({
      name: 'get-annotated-message',
      arguments: { messageType: 'error', includeImage: true },
    });
    expect(error.content[0]).toEqual({
      type: 'text',
      text: 'Error: Operation failed',
      annotations: { audience: ['user', 'assistant'], priority: 1 },
    });
    const image = error.content[1] as { type: string; mimeType: string; data: string };
    expect([image.type, image.mimeType]).toEqual(['image', 'image/png']);
    expect(Buffer.from(image.data, 'base64').subarray(0, 8)).toEqual(PNG_SIGNATURE);
    expect(
      await client.callTool({ name: 'get-annotated-message', arguments: { messageType: 'success' } }),
    ).toEqual({
      content: [
        {
          type: 'text',
          text: 'Operation completed successfully',
          annotations: { audience: ['user'], priority: 0.7 },
        },
      ],
    });
    expect(
      await client.callTool({ name: 'get-annotated-message', arguments: { messageType: 'debug' } }),
    ).toEqual({
      content: [
        {
          type: 'text',
          text: 'Debug: Cache hit ratio 0.95, latency 150ms',
          annotations: { audience: ['assistant'], priority: 0.3 },
        },
      ],
    });
  },

  'get-env': async ({ client }) => {
    const result = await client.callTool({ name: 'get-env', arguments: {} });
    const env = JSON.parse(texts(result)[0] ?? '') as Record<string, string>;
    // Our transport passes only the variables given plus a minimal safe set, never the whole environment.
    expect(env['MCP_INTEROP_MARKER']).toBe('our-client');
    expect(env['MCP_INTEROP_NOT_INHERITED']).toBeUndefined();
    expect(env['PATH']).toBe(process.env['PATH']);
  },

  'get-resource-links': async ({ client }) => {
    const result = await client.callTool({ name: 'get-resource-links', arguments: { count: 4 } });
    expect(result.content[0]).toEqual({
      type: 'text',
      text: 'Here are 4 resource links to resources available in this server:',
    });
    const links = result.content.slice(1) as { type: string; uri: string; name: string }[];
    expect(links.map((l) => [l.type, l.name, l.uri])).toEqual([
      ['resource_link', 'Blob Resource 1', 'demo://resource/dynamic/blob/1'],
      ['resource_link', 'Text Resource 2', 'demo://resource/dynamic/text/2'],
      ['resource_link', 'Blob Resource 3', 'demo://resource/dynamic/blob/3'],
      ['resource_link', 'Text Resource 4', 'demo://resource/dynamic/text/4'],
    ]);
    // Every link resolves.
    for (const link of links) {
      const read = await client.readResource({ uri: link.uri });
      expect(read.contents.map((c) => c.uri)).toEqual([link.uri]);
    }
  },

  'get-resource-reference': async ({ client }) => {
    const text = await client.callTool({
      name: 'get-resource-reference',
      arguments: { resourceType: 'Text', resourceId: 2 },
    });
    expect(texts(text)).toEqual([
      'Returning resource reference for Resource 2:',
      'You can access this resource using the URI: demo://resource/dynamic/text/2',
    ]);
    const embedded = text.content[1] as {
      type: string;
      resource: { uri: string; mimeType: string; text: string };
    };
    expect([embedded.type, embedded.resource.uri, embedded.resource.mimeType]).toEqual([
      'resource',
      'demo://resource/dynamic/text/2',
      'text/plain',
    ]);
    expect(embedded.resource.text).toMatch(/^Resource 2: This is a plaintext resource created at /);

    const blob = await client.callTool({
      name: 'get-resource-reference',
      arguments: { resourceType: 'Blob', resourceId: 3 },
    });
    const resource = (blob.content[1] as { resource: { uri: string; blob: string } }).resource;
    expect(resource.uri).toBe('demo://resource/dynamic/blob/3');
    expect(Buffer.from(resource.blob, 'base64').toString('utf8')).toMatch(
      /^Resource 3: This is a base64 blob created at /,
    );
  },

  'get-structured-content': async ({ client }) => {
    const result = await client.callTool({
      name: 'get-structured-content',
      arguments: { location: 'Chicago' },
    });
    const weather = { temperature: 36, conditions: 'Light rain / drizzle', humidity: 82 };
    expect(result).toEqual({
      content: [{ type: 'text', text: JSON.stringify(weather) }],
      structuredContent: weather,
    });
  },

  'get-sum': async ({ client }) => {
    expect(await client.callTool({ name: 'get-sum', arguments: { a: 2, b: 40 } })).toEqual({
      content: [{ type: 'text', text: 'The sum of 2 and 40 is 42.' }],
    });
  },

  'get-tiny-image': async ({ client }) => {
    const result = await client.callTool({ name: 'get-tiny-image', arguments: {} });
    expect(texts(result)).toEqual(["Here's the image you requested:", 'The image above is the MCP logo.']);
    const image = result.content[1] as { type: string; mimeType: string; data: string };
    expect([image.type, image.mimeType]).toEqual(['image', 'image/png']);
    expect(Buffer.from(image.data, 'base64').subarray(0, 8)).toEqual(PNG_SIGNATURE);
  },

  'gzip-file-as-resource': async ({ client, wire }) => {
    const original = `interop payload for ${Date.now()} ✓`;
    const data = `data:text/plain;base64,${Buffer.from(original).toString('base64')}`;
    const inline = await client.callTool({
      name: 'gzip-file-as-resource',
      arguments: { name: 'inline.txt.gz', data, outputType: 'resource' },
    });
    const embedded = (inline.content[0] as { resource: { uri: string; mimeType: string; blob: string } })
      .resource;
    expect([embedded.uri, embedded.mimeType]).toEqual([
      'demo://resource/session/inline.txt.gz',
      'application/gzip',
    ]);
    expect(gunzipSync(Buffer.from(embedded.blob, 'base64')).toString('utf8')).toBe(original);

    const listChanged = wire.next((m) => m['method'] === 'notifications/resources/list_changed');
    const linked = await client.callTool({
      name: 'gzip-file-as-resource',
      arguments: { name: 'linked.txt.gz', data },
    });
    expect(linked.content).toEqual([
      {
        type: 'resource_link',
        name: 'linked.txt.gz',
        uri: 'demo://resource/session/linked.txt.gz',
        mimeType: 'application/gzip',
      },
    ]);
    await listChanged;
    const read = await client.readResource({ uri: 'demo://resource/session/linked.txt.gz' });
    const contents = read.contents[0] as { uri: string; mimeType: string; blob: string };
    expect(gunzipSync(Buffer.from(contents.blob, 'base64')).toString('utf8')).toBe(original);
    const listed = [];
    for await (const resource of client.resources()) listed.push(resource.uri);
    expect(listed).toContain('demo://resource/session/linked.txt.gz');
  },

  'toggle-simulated-logging': async ({ client, wire }) => {
    await client.setLogLevel('debug');
    // Logging starts with one message at once (a random level), then one every 5 s.
    const first = wire.next(
      (m) => m['method'] === 'notifications/message' && m['params']?.['logger'] === undefined,
    );
    const on = await client.callTool({ name: 'toggle-simulated-logging', arguments: {} });
    expect(texts(on)[0]).toMatch(
      /^Started simulated, random-leveled logging for session undefined at a 5 second pace/,
    );
    const { params } = await first;
    expect(LOG_LEVELS).toContain(params.level);
    expect(params.data).toMatch(
      /^(Debug|Info|Notice|Warning|Error|Critical|Emergency)-level message$|^Alert level-message$/,
    );
    const off = await client.callTool({ name: 'toggle-simulated-logging', arguments: {} });
    expect(texts(off)).toEqual(['Stopped simulated logging for session undefined']);
  },

  'toggle-subscriber-updates': async ({ client, wire }) => {
    const uri = 'demo://resource/static/document/features.md';
    await client.subscribeResource(uri);
    const updated = wire.next((m) => m['method'] === 'notifications/resources/updated');
    const on = await client.callTool({ name: 'toggle-subscriber-updates', arguments: {} });
    expect(texts(on)[0]).toMatch(/^Started simulated resource updated notifications for session undefined/);
    expect((await updated)['params']).toEqual({ uri });
    const off = await client.callTool({ name: 'toggle-subscriber-updates', arguments: {} });
    expect(texts(off)).toEqual(['Stopped simulated resource updates for session undefined']);
    await client.unsubscribeResource(uri);
  },

  'trigger-long-running-operation': async ({ client }) => {
    const progress: unknown[] = [];
    const result = await client.callTool(
      { name: 'trigger-long-running-operation', arguments: { duration: 0.2, steps: 2 } },
      { onProgress: (p) => progress.push(p) },
    );
    expect(result).toEqual({
      content: [{ type: 'text', text: 'Long running operation completed. Duration: 0.2 seconds, Steps: 2.' }],
    });
    expect(progress).toEqual([
      { progress: 1, total: 2 },
      { progress: 2, total: 2 },
    ]);
  },

  'get-roots-list': async ({ client }) => {
    const result = await client.callTool({ name: 'get-roots-list', arguments: {} });
    expect(texts(result)).toEqual([
      'Current MCP Roots (1 total):\n\n1. Project\n   URI: file:///workspace/project\n\n' +
        "Note: This server demonstrates the roots protocol capability but doesn't actually access files. " +
        'The roots are provided by the MCP client and can be used by servers that need file system access.',
    ]);
  },

  'trigger-elicitation-request': async ({ client, elicited }) => {
    const before = elicited.length;
    const result = await client.callTool({ name: 'trigger-elicitation-request', arguments: {} });
    const [request] = elicited.slice(before);
    expect(request?.message).toBe('Please provide inputs for the following fields:');
    const schema = (request as { requestedSchema: { required: string[]; properties: object } })
      .requestedSchema;
    expect(schema.required).toEqual(['name']);
    expect(Object.keys(schema.properties)).toEqual(Object.keys(FORM_ANSWER));
    expect(texts(result).slice(0, 2)).toEqual([
      '✅ User provided the requested information!',
      'User inputs:\n- Name: Ada Lovelace\n- Agreed to terms: true\n- Email: ada@example.com\n' +
        '- Homepage: https://example.com/ada\n- Birthdate: 1815-12-10\n- Favorite Integer: 7\n- Favorite Number: 3',
    ]);
  },

  'trigger-url-elicitation': async ({ client, elicited }) => {
    const url = 'https://example.com/authorize';
    const before = elicited.length;
    const result = await client.callTool({
      name: 'trigger-url-elicitation',
      arguments: { url, elicitationId: 'interop-1' },
    });
    expect(elicited.slice(before)).toEqual([
      {
        mode: 'url',
        url,
        message: 'Please open the link to complete this action.',
        elicitationId: 'interop-1',
      },
    ]);
    expect(texts(result)[0]).toBe(
      `✅ User completed the URL elicitation flow.\nElicitation ID: interop-1\nURL: ${url}`,
    );

    // The error path: -32042 carrying the prerequisite URL elicitation; the retry then proceeds.
    const error = (await client
      .callTool({
        name: 'trigger-url-elicitation',
        arguments: { url, errorPath: true, elicitationId: 'interop-2' },
      })
      .catch((e: unknown) => e)) as RemoteError;
    expect(error).toBeInstanceOf(RemoteError);
    expect(error.code).toBe(-32042);
    const [required] = (error.data as { elicitations: Record<string, unknown>[] }).elicitations;
    expect([required?.['mode'], required?.['url']]).toEqual(['url', 'https://modelcontextprotocol.io']);
    const retried = await client.callTool({
      name: 'trigger-url-elicitation',
      arguments: { url, errorPath: true, elicitationId: 'interop-2' },
    });
    expect(texts(retried)[0]).toBe(
      `✅ User completed the URL elicitation flow.\nElicitation ID: interop-2\nURL: ${url}`,
    );
  },

  'trigger-sampling-request': async ({ client, sampled }) => {
    const before = sampled.length;
    const result = await client.callTool({
      name: 'trigger-sampling-request',
      arguments: { prompt: 'Say hi', maxTokens: 20 },
    });
    expect(sampled.slice(before)).toEqual([
      {
        messages: [
          {
            role: 'user',
            content: { type: 'text', text: 'Resource trigger-sampling-request context: Say hi' },
          },
        ],
        systemPrompt: 'You are a helpful test server.',
        maxTokens: 20,
        temperature: 0.7,
      },
    ]);
    const [text] = texts(result);
    expect(text?.startsWith('LLM sampling result: \n')).toBe(true);
    expect(JSON.parse(text!.slice('LLM sampling result: \n'.length))).toEqual(SAMPLING_REPLY);
  },

  'trigger-sampling-request-async': async ({ client, sampled, wire }) => {
    // The server makes a task of its sampling request; our client (the receiver) answers with a CreateTaskResult
    // at once, and serves the server's tasks/get and tasks/result.
    const before = sampled.length;
    const from = wire.sent.length;
    const result = await client.callTool({
      name: 'trigger-sampling-request-async',
      arguments: { prompt: 'Say hi', maxTokens: 20 },
    });
    expect(sampled.slice(before).map((p) => p.messages)).toEqual([
      [
        {
          role: 'user',
          content: { type: 'text', text: 'Resource trigger-sampling-request-async context: Say hi' },
        },
      ],
    ]);
    const [request] = wire.receivedWithMethod('sampling/createMessage').slice(-1);
    expect(request?.['params']['task']).toEqual({ ttl: 300_000 });
    const created = wire.sent.slice(from).find((m) => m['id'] === request?.['id']);
    const taskId = created?.['result']['task']['taskId'] as string;
    expect(created?.['result']['task']['status']).toBe('working');
    const served = wire.sent.slice(from).find((m) => m['result']?.['model'] === SAMPLING_REPLY.model);
    expect(served?.['result']).toEqual({
      ...SAMPLING_REPLY,
      _meta: { 'io.modelcontextprotocol/related-task': { taskId } },
    });
    const [text] = texts(result);
    expect(text).toMatch(/^\[COMPLETED\] Async sampling completed!\n/);
    expect(text).toContain(`Task created: ${taskId}`);
    expect(text).toContain(`"text": "${SAMPLING_REPLY.content.text}"`);
  },

  'trigger-elicitation-request-async': async ({ client, elicited }) => {
    const before = elicited.length;
    const result = await client.callTool({ name: 'trigger-elicitation-request-async', arguments: {} });
    expect(elicited.slice(before).map((p) => p.message)).toEqual([ASYNC_FORM_MESSAGE]);
    expect(texts(result).slice(0, 2)).toEqual([
      '[COMPLETED] User provided the requested information!',
      'User inputs:\n- Name: Ada Lovelace',
    ]);
  },

  'simulate-research-query': async (session) => {
    const { client, mode, elicited } = session;
    if (mode !== 'auto') {
      // taskSupport "required" without a task. Spec 2025-11-25 tasks.mdx: "Servers MUST return a -32601 (Method
      // not found) error"; this server returns a tool result with isError instead (a peer deviation).
      expect(
        await client.callTool({ name: 'simulate-research-query', arguments: { topic: 'python' } }),
      ).toEqual({
        content: [
          {
            type: 'text',
            text: "MCP error -32601: Tool simulate-research-query requires task augmentation (taskSupport: 'required')",
          },
        ],
        isError: true,
      });
      return;
    }
    // 2025-11-25 tasks through the client's generic request(): create, get, list, result (which blocks and
    // delivers the task's elicitation on the side), then get again and a refused cancel.
    const created = await client.request('tools/call', {
      name: 'simulate-research-query',
      arguments: { topic: 'python', ambiguous: true },
      task: { ttl: 60_000 },
    });
    const task = created['task'] as { taskId: string; status: string; pollInterval: number };
    expect([task.status, task.pollInterval]).toEqual(['working', 1000]);
    const polled = await client.request('tasks/get', { taskId: task.taskId });
    expect([polled['taskId'], polled['status']]).toEqual([task.taskId, 'working']);
    const listed = await client.request('tasks/list', {});
    expect((listed['tasks'] as { taskId: string }[]).map((t) => t.taskId)).toContain(task.taskId);

    const before = elicited.length;
    const result = await client.request('tasks/result', { taskId: task.taskId });
    const [question] = elicited.slice(before);
    expect(question?.message).toBe(
      `The research query "python" could have multiple interpretations. Please clarify what you're looking for:`,
    );
    expect(texts(result)[0]).toMatch(/^# Research Report: python \(programming\)\n/);
    const done = await client.request('tasks/get', { taskId: task.taskId });
    expect(done['status']).toBe('completed');
    const refused = (await client
      .request('tasks/cancel', { taskId: task.taskId })
      .catch((e: unknown) => e)) as RemoteError;
    expect([refused.code, refused.message]).toEqual([
      -32602,
      'MCP error -32602: Cannot cancel task in terminal status: completed',
    ]);
  },
};

const MODES: Mode[] = ['auto', ...LEGACY_REVISIONS];

describe.each(MODES)('our Client → server-everything (%s)', (mode) => {
  let session: Session;
  beforeAll(async () => {
    session = await open(mode);
  });
  afterAll(async () => {
    await close(session);
  });

  it('negotiates a legacy revision after its server/discover probe is refused', () => {
    const { client, wire } = session;
    const expected: Revision = mode === 'auto' ? '2025-11-25' : mode;
    expect(client.revision).toBe(expected);
    expect(client.era).toBe('legacy');
    expect(client.serverInfo).toEqual(SERVER_INFO);
    expect(client.instructions).toBe(readDoc('instructions.md'));
    expect(client.serverCapabilities).toEqual({
      tools: { listChanged: true },
      prompts: { listChanged: true },
      resources: { subscribe: true, listChanged: true },
      logging: {},
      tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } },
      completions: {},
    });
    const methods = wire.sent.slice(0, 3).map((m) => m['method']);
    if (mode === 'auto') {
      expect(methods).toEqual(['server/discover', 'initialize', 'notifications/initialized']);
      expect(wire.received[0]).toEqual({
        jsonrpc: '2.0',
        id: 1,
        error: { code: -32601, message: 'Method not found' },
      });
    } else {
      expect(methods.slice(0, 2)).toEqual(['initialize', 'notifications/initialized']);
    }
    const initialize = wire.sentWithMethod('initialize')[0];
    expect(initialize?.['params']['protocolVersion']).toBe(expected);
    // Elicitation is declared only where the revision has it.
    const declared = initialize?.['params']['capabilities'] as ClientCapabilities;
    expect(declared.elicitation !== undefined).toBe(mode !== '2025-03-26' && mode !== '2024-11-05');
  });

  it('lists exactly the tools our capabilities unlock, and the drivers cover each', async () => {
    const tools = await session.client.listAllTools();
    expect(tools.map((t) => t.name)).toEqual(expectedTools(mode));
    for (const tool of tools) {
      expect(tool.description, tool.name).toMatch(/\S/);
      expect(TOOL_DRIVERS[tool.name], tool.name).toBeDefined();
    }
  });

  for (const name of Object.keys(TOOL_DRIVERS)) {
    it(`drives ${name}`, async () => {
      const listed = (await session.client.listAllTools()).map((t) => t.name);
      if (!expectedTools(mode).includes(name)) {
        // Not offered to a client with our capabilities at this revision (checked by the listing test).
        expect(listed).not.toContain(name);
        return;
      }
      await TOOL_DRIVERS[name]!(session);
    });
  }

  it('reports an unknown tool as a tool error (the spec asks for a JSON-RPC error; a peer deviation)', async () => {
    // Spec 2025-11-25 server/tools.mdx "Error Handling": protocol errors cover "Unknown tools" (-32602).
    expect(await session.client.callTool({ name: 'no-such-tool', arguments: {} })).toEqual({
      content: [{ type: 'text', text: 'MCP error -32602: Tool no-such-tool not found' }],
      isError: true,
    });
  });

  it('reads every listed resource (paginating) and both templates', async () => {
    const listed = [];
    for await (const resource of session.client.resources()) listed.push(resource);
    const documents = listed.filter((r) => r.uri.startsWith('demo://resource/static/document/'));
    expect(documents.map((r) => r.name)).toEqual([
      'architecture.md',
      'extension.md',
      'features.md',
      'how-it-works.md',
      'instructions.md',
      'startup.md',
      'structure.md',
    ]);
    for (const resource of listed) {
      const read = await session.client.readResource({ uri: resource.uri });
      expect(read.contents).toHaveLength(1);
      const [contents] = read.contents as { uri: string; mimeType: string; text?: string }[];
      expect(contents?.uri).toBe(resource.uri);
      if (documents.includes(resource)) {
        expect(contents).toEqual({
          uri: resource.uri,
          mimeType: 'text/markdown',
          text: readDoc(resource.name),
        });
      }
    }

    const templates = [];
    for await (const template of session.client.resourceTemplates()) templates.push(template);
    expect(templates).toEqual([
      {
        name: 'Dynamic Text Resource',
        uriTemplate: 'demo://resource/dynamic/text/{resourceId}',
        mimeType: 'text/plain',
        description:
          'Plaintext dynamic resource fabricated from the {resourceId} variable, which must be an integer.',
      },
      {
        name: 'Dynamic Blob Resource',
        uriTemplate: 'demo://resource/dynamic/blob/{resourceId}',
        mimeType: 'application/octet-stream',
        description:
          'Binary (base64) dynamic resource fabricated from the {resourceId} variable, which must be an integer.',
      },
    ]);
    const text = await session.client.readResource({ uri: 'demo://resource/dynamic/text/7' });
    const [textContents] = text.contents as { uri: string; mimeType: string; text: string }[];
    expect([textContents?.uri, textContents?.mimeType]).toEqual([
      'demo://resource/dynamic/text/7',
      'text/plain',
    ]);
    expect(textContents?.text).toMatch(/^Resource 7: This is a plaintext resource created at /);
    const blob = await session.client.readResource({ uri: 'demo://resource/dynamic/blob/8' });
    const [blobContents] = blob.contents as { uri: string; blob: string }[];
    expect(blobContents?.uri).toBe('demo://resource/dynamic/blob/8');
    expect(Buffer.from(blobContents!.blob, 'base64').toString('utf8')).toMatch(
      /^Resource 8: This is a base64 blob created at /,
    );
  });

  it('gets every prompt with arguments', async () => {
    const prompts = [];
    for await (const prompt of session.client.prompts()) prompts.push(prompt.name);
    expect(prompts).toEqual(['simple-prompt', 'args-prompt', 'completable-prompt', 'resource-prompt']);

    const simple = await session.client.getPrompt({ name: 'simple-prompt' });
    expect(simple.messages).toEqual([
      { role: 'user', content: { type: 'text', text: 'This is a simple prompt without arguments.' } },
    ]);
    const args = await session.client.getPrompt({
      name: 'args-prompt',
      arguments: { city: 'Austin', state: 'Texas' },
    });
    expect(args.messages).toEqual([
      { role: 'user', content: { type: 'text', text: "What's weather in Austin, Texas?" } },
    ]);
    const optional = await session.client.getPrompt({ name: 'args-prompt', arguments: { city: 'Lyon' } });
    expect(optional.messages[0]?.content).toEqual({ type: 'text', text: "What's weather in Lyon?" });
    const team = await session.client.getPrompt({
      name: 'completable-prompt',
      arguments: { department: 'Engineering', name: 'Alice' },
    });
    expect(team.messages).toEqual([
      {
        role: 'user',
        content: { type: 'text', text: 'Please promote Alice to the head of the Engineering team.' },
      },
    ]);
    const resource = await session.client.getPrompt({
      name: 'resource-prompt',
      arguments: { resourceType: 'Text', resourceId: '3' },
    });
    expect(resource.messages[0]?.content).toEqual({
      type: 'text',
      text: 'This prompt includes the Text resource with id: 3. Please analyze the following resource:',
    });
    const embedded = resource.messages[1]?.content as {
      type: string;
      resource: { uri: string; text: string };
    };
    expect([embedded.type, embedded.resource.uri]).toEqual(['resource', 'demo://resource/dynamic/text/3']);
    expect(embedded.resource.text).toMatch(/^Resource 3: This is a plaintext resource created at /);
  });

  it('completes prompt arguments (with context) and template variables', async () => {
    const complete = (ref: object, name: string, value: string, context?: Record<string, string>) =>
      session.client
        .complete({
          ref: ref as { type: 'ref/prompt'; name: string },
          argument: { name, value },
          ...(context && { context: { arguments: context } }),
        })
        .then((r) => r.completion.values);
    const prompt = { type: 'ref/prompt', name: 'completable-prompt' };
    expect(await complete(prompt, 'department', 'S')).toEqual(['Sales', 'Support']);
    expect(await complete(prompt, 'name', '', { department: 'Engineering' })).toEqual([
      'Alice',
      'Bob',
      'Charlie',
    ]);
    expect(await complete(prompt, 'name', 'E', { department: 'Sales' })).toEqual(['Eve']);
    expect(await complete({ type: 'ref/prompt', name: 'resource-prompt' }, 'resourceType', 'B')).toEqual([
      'Blob',
    ]);
    const template = { type: 'ref/resource', uri: 'demo://resource/dynamic/text/{resourceId}' };
    expect(await complete(template, 'resourceId', '12')).toEqual(['12']);
    expect(await complete(template, 'resourceId', 'x')).toEqual([]);
  });

  it('answered every roots/list the server sent with the client roots', async () => {
    // The server asks 350 ms after `notifications/initialized` (and get-roots-list asks if that has not happened
    // yet), logging how many roots it got.
    const logged = (m: Message) => m['params']?.['logger'] === 'everything-server';
    if (!session.wire.received.some(logged)) await session.wire.next(logged);
    const asked = session.wire.receivedWithMethod('roots/list');
    expect(asked.length).toBeGreaterThanOrEqual(1);
    for (const request of asked) {
      const answer = session.wire.sent.find((m) => m['id'] === request['id'] && m['result'] !== undefined);
      expect(answer?.['result']).toEqual({ roots: ROOTS });
    }
  });

  it('pings, and tells the server its roots changed (it asks again)', async () => {
    await session.client.ping();
    const asked = session.wire.next((m) => m['method'] === 'roots/list');
    const logged = session.wire.next(
      (m) => m['params']?.['data'] === 'Roots updated: 1 root(s) received from client',
    );
    session.client.notifyRootsListChanged();
    const request = await asked;
    await logged;
    const answer = session.wire.sent.find((m) => m['id'] === request['id'] && m['result'] !== undefined);
    expect(answer?.['result']).toEqual({ roots: ROOTS });
  });

  it('cancels a long-running call with an AbortSignal; the server stays usable', async () => {
    const controller = new AbortController();
    const running = session.client.callTool(
      { name: 'trigger-long-running-operation', arguments: { duration: 2, steps: 20 } },
      { signal: controller.signal, onProgress: () => controller.abort(new Error('enough')) },
    );
    const error = await running.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RequestAbortedError);
    expect((error as RequestAbortedError).reason).toBe('cancelled');
    const call = session.wire.sentWithMethod('tools/call').at(-1);
    const cancel = session.wire.sentWithMethod('notifications/cancelled').at(-1);
    expect(cancel?.['params']['requestId']).toBe(call?.['id']);
    expect(await session.client.callTool({ name: 'get-sum', arguments: { a: 1, b: 1 } })).toEqual({
      content: [{ type: 'text', text: 'The sum of 1 and 1 is 2.' }],
    });
  });
});

describe('our Client pinned to the modern era against server-everything', () => {
  const transports: StdioClientTransport[] = [];
  afterEach(async () => {
    for (const transport of transports.splice(0)) await transport.close();
  });

  it('fails to connect: server/discover is -32601 and the server speaks no 2026-07-28', async () => {
    const tap = new WireTap({ validate: ['client'] });
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [SERVER_MAIN, 'stdio'],
      stderr: 'ignore',
    });
    transports.push(transport);
    const mcpClient = new Client({ name: 'mcpengine-interop', version: '0.1.0' });
    const error = (await mcpClient
      .connect(tapTransport(transport, tap, 'client'), { revision: '2026-07-28' })
      .catch((e: unknown) => e)) as RemoteError;
    expect(error).toBeInstanceOf(RemoteError);
    expect([error.code, error.message]).toEqual([-32601, 'Method not found']);
    tap.assertClean();
  });
});
