/** `server.use()`: middleware around requests and notifications, both eras, in-memory, stdio and HTTP. */
import { PassThrough } from 'node:stream';
import { WireTap } from '@mcpengine/oracle';
import { afterEach, describe, expect, it } from 'vitest';
import { assertAllTapsClean, initializeRaw, modernParams, RawPeer } from '../test/harness.js';
import { handlerSetup } from '../test/http-harness.js';
import { serveStdio } from '../transports/stdio/index.js';
import { McpServer, ProtocolError, type ServerCall } from './index.js';

afterEach(() => assertAllTapsClean());

const TRACEPARENT = '00-0af7651916cd43dd8448eb211c80319c-00f067aa0ba902b7-01';

/** Ids of `slow` calls whose signal aborted. */
let aborted: unknown[] = [];
afterEach(() => {
  aborted = [];
});

function echoServer(): McpServer {
  const server = new McpServer({ name: 'middleware', version: '1.0.0' });
  server.addTool<{ text?: string }>({
    name: 'echo',
    description: 'Echoes its text',
    inputSchema: { type: 'object', properties: { text: { type: 'string' } } },
    handler: ({ text = '' }) => `echo ${text}`,
  });
  server.addTool({
    name: 'slow',
    description: 'Waits until cancelled',
    handler: (_args, ctx) =>
      new Promise((_resolve, reject) =>
        ctx.signal.addEventListener('abort', () => {
          aborted.push(ctx.requestId);
          reject(ctx.signal.reason);
        }),
      ),
  });
  return server;
}

/** What a middleware saw of each call, for assertions. */
interface Seen {
  kind: string;
  method: string;
  era: string;
  revision: string;
  trace?: unknown;
  session?: string | undefined;
}

function recorder(seen: Seen[]) {
  return (call: ServerCall, next: () => Promise<unknown>) => {
    seen.push({
      kind: call.kind,
      method: call.method,
      era: call.era,
      revision: call.revision,
      trace: call.trace,
      session: call.kind === 'request' ? call.ctx.sessionId : undefined,
    });
    return next() as never;
  };
}

const textOf = (response: any) => response.result.content[0].text;

describe('server.use: the chain', () => {
  it('runs middleware in registration order around the handler, and each sees the outcome', async () => {
    const server = echoServer();
    const order: string[] = [];
    server
      .use(async (call, next) => {
        if (call.kind === 'notification') return next();
        order.push(`outer in ${call.method}`);
        const result = await next();
        order.push(`outer out ${JSON.stringify(result)}`);
        return result;
      })
      .use(async (call, next) => {
        if (call.kind === 'notification') return next();
        order.push('inner in');
        const result = await next();
        order.push('inner out');
        return { ...result, content: [{ type: 'text', text: 'wrapped' }] };
      });
    const peer = await RawPeer.open(server);
    await initializeRaw(peer, '2025-11-25');
    const response = await peer.request(1, 'tools/call', { name: 'echo', arguments: { text: 'x' } });
    expect(textOf(response)).toBe('wrapped');
    expect(order).toEqual([
      'outer in tools/call',
      'inner in',
      'inner out',
      `outer out ${JSON.stringify({ content: [{ type: 'text', text: 'wrapped' }] })}`,
    ]);
  });

  it('short-circuits with a result or a protocol error, and the handler never runs', async () => {
    const server = echoServer();
    let handled = 0;
    server.addTool({ name: 'count', description: 'Counts', handler: () => String(++handled) });
    server.use((call, next) => {
      if (call.method !== 'tools/call') return next();
      const name = call.params.name;
      if (name === 'count') return { content: [{ type: 'text', text: 'cached' }] };
      if (name === 'echo') throw new ProtocolError(-32600, 'Invalid Request: refused by policy');
      return next();
    });
    const peer = await RawPeer.open(server);
    await initializeRaw(peer, '2025-11-25');
    expect(textOf(await peer.request(1, 'tools/call', { name: 'count' }))).toBe('cached');
    expect((await peer.request(2, 'tools/call', { name: 'echo' })).error).toEqual({
      code: -32600,
      message: 'Invalid Request: refused by policy',
    });
    expect(handled).toBe(0);
  });

  it('answers a generic internal error when a middleware fails, and sees the handler’s protocol errors', async () => {
    const reported: string[] = [];
    const server = new McpServer({
      name: 'failing',
      version: '1.0.0',
      onError: (error) => reported.push(String(error)),
    });
    server.addTool({ name: 'boom', description: 'Boom', handler: () => 'never' });
    const caught: number[] = [];
    server.use(async (call, next) => {
      try {
        return await next();
      } catch (error) {
        if (error instanceof ProtocolError) caught.push(error.code);
        throw error;
      }
    });
    server.use((call, next) => {
      if (call.params.name === 'boom') throw new Error('middleware bug');
      return next();
    });
    const peer = await RawPeer.open(server);
    await initializeRaw(peer, '2025-11-25');
    expect((await peer.request(1, 'tools/call', { name: 'boom' })).error).toEqual({
      code: -32603,
      message: 'Internal error',
    });
    expect(reported).toEqual(['Error: middleware bug']);
    expect((await peer.request(2, 'tools/call', { name: 'missing' })).error.code).toBe(-32602);
    expect(caught).toEqual([-32602]);
  });

  it('passes changed params on with next(changed), like the client’s middleware, and refuses another method', async () => {
    const reported: unknown[] = [];
    const server = new McpServer({ name: 'changed', version: '1.0.0', onError: (e) => reported.push(e) });
    server.addTool<{ text?: string }>({
      name: 'echo',
      description: 'Echoes its text',
      inputSchema: { type: 'object', properties: { text: { type: 'string' } } },
      handler: ({ text = '' }, ctx) => `echo ${text} (sent ${JSON.stringify(ctx.params.arguments)})`,
    });
    server.use((call, next) => {
      if (call.method !== 'tools/call') return next();
      if (call.params.name === 'swap') return next({ ...call, method: 'tools/list' });
      return next({ ...call, params: { ...call.params, arguments: { text: 'changed' } } });
    });
    server.use((_call, next) => next());
    const peer = await RawPeer.open(server);
    await initializeRaw(peer, '2025-11-25');
    const args = { name: 'echo', arguments: { text: 'sent' } };
    expect(textOf(await peer.request(1, 'tools/call', args))).toBe('echo changed (sent {"text":"sent"})');
    expect((await peer.request(2, 'tools/call', { name: 'swap' })).error.code).toBe(-32603);
    expect(String(reported[0])).toContain('may change only params');
  });

  it('refuses a second next() from the same middleware', async () => {
    const reported: unknown[] = [];
    const server = new McpServer({ name: 'twice', version: '1.0.0', onError: (e) => reported.push(e) });
    server.addTool({ name: 'echo', description: 'Echo', handler: () => 'once' });
    server.use(async (_call, next) => {
      await next();
      return next();
    });
    const peer = await RawPeer.open(server);
    await initializeRaw(peer, '2025-11-25');
    expect((await peer.request(1, 'tools/call', { name: 'echo' })).error.code).toBe(-32603);
    expect(String(reported[0])).toContain('next() called twice');
  });

  it('applies to sessions that resolved methods before use() was called', async () => {
    const server = echoServer();
    const peer = await RawPeer.open(server);
    await initializeRaw(peer, '2025-11-25');
    expect(textOf(await peer.request(1, 'tools/call', { name: 'echo', arguments: { text: 'a' } }))).toBe(
      'echo a',
    );
    const seen: Seen[] = [];
    server.use(recorder(seen));
    await peer.request(2, 'tools/call', { name: 'echo', arguments: { text: 'b' } });
    await peer.request(3, 'tools/call', modernParams({ name: 'echo' }));
    expect(seen.map((s) => [s.method, s.era])).toEqual([
      ['tools/call', 'legacy'],
      ['tools/call', 'modern'],
    ]);
  });
});

describe('server.use: what a call exposes', () => {
  it('shows era, revision, trace context and list results (legacy and modern)', async () => {
    const server = echoServer();
    const seen: Seen[] = [];
    const lists: unknown[] = [];
    server.use(recorder(seen)).use(async (call, next) => {
      const result = await next();
      if (call.method === 'tools/list') lists.push(result?.tools);
      return result;
    });
    const peer = await RawPeer.open(server);
    await initializeRaw(peer, '2025-06-18');
    await peer.request(1, 'tools/list', { _meta: { traceparent: TRACEPARENT } });
    const modern = await peer.request(
      2,
      'tools/list',
      modernParams({}, { traceparent: TRACEPARENT, tracestate: 'vendor=1' }),
    );
    expect(modern.result.resultType).toBe('complete');
    expect(seen.filter((s) => s.kind === 'request')).toEqual([
      {
        kind: 'request',
        method: 'tools/list',
        era: 'legacy',
        revision: '2025-06-18',
        trace: { traceparent: TRACEPARENT },
        session: expect.any(String),
      },
      {
        kind: 'request',
        method: 'tools/list',
        era: 'modern',
        revision: '2026-07-28',
        trace: { traceparent: TRACEPARENT, tracestate: 'vendor=1' },
        session: undefined,
      },
    ]);
    expect(lists).toHaveLength(2);
    for (const tools of lists)
      expect((tools as { name: string }[]).map((t) => t.name)).toEqual(['echo', 'slow']);
  });

  it('sees notifications: a legacy cancellation and a modern one', async () => {
    const server = echoServer();
    const seen: Seen[] = [];
    server.use(recorder(seen));
    const peer = await RawPeer.open(server);
    await initializeRaw(peer, '2025-11-25');
    // Cancelled requests are never answered.
    peer.send({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'slow' } });
    peer.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } });
    peer.send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: modernParams({ name: 'slow' }) });
    await peer.settle(30);
    peer.send({
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: 2, _meta: { traceparent: TRACEPARENT } },
    });
    await peer.settle(50);
    expect(aborted).toEqual([1, 2]);
    const notifications = seen.filter((s) => s.kind === 'notification');
    expect(notifications.map((s) => [s.method, s.era])).toEqual([
      ['notifications/initialized', 'legacy'],
      ['notifications/cancelled', 'legacy'],
      ['notifications/cancelled', 'modern'],
    ]);
    expect(notifications[2]!.trace).toEqual({ traceparent: TRACEPARENT });
  });

  it('a middleware that refuses a notification stops its handling', async () => {
    const server = echoServer();
    server.use((call, next) => (call.method === 'notifications/cancelled' ? null : next()));
    const peer = await RawPeer.open(server);
    await initializeRaw(peer, '2025-11-25');
    peer.send({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'slow' } });
    peer.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 7 } });
    await peer.settle(50);
    expect(aborted).toEqual([]);
    await peer.close();
    expect(aborted).toEqual([7]);
  });
});

describe('server.use over real transports', () => {
  const setup = handlerSetup(echoServer);

  it('stdio: sees each request, with its trace context', async () => {
    const server = echoServer();
    const seen: Seen[] = [];
    server.use(recorder(seen));
    const input = new PassThrough();
    const output = new PassThrough();
    const tap = new WireTap({ validate: ['server'] });
    const lines: any[] = [];
    let buffered = '';
    output.on('data', (chunk: Buffer) => {
      buffered += chunk.toString('utf8');
      let end: number;
      while ((end = buffered.indexOf('\n')) >= 0) {
        const line = buffered.slice(0, end);
        buffered = buffered.slice(end + 1);
        tap.record(line, 'server');
        lines.push(JSON.parse(line));
      }
    });
    const serving = await serveStdio(server, { input, output });
    const send = (message: object) => {
      tap.record(JSON.stringify(message), 'client');
      input.write(`${JSON.stringify(message)}\n`);
    };
    send({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: modernParams({ name: 'echo', arguments: { text: 'io' } }, { traceparent: TRACEPARENT }),
    });
    for (let i = 0; i < 200 && lines.length === 0; i++) await new Promise((r) => setTimeout(r, 10));
    expect(lines[0].result.content[0].text).toBe('echo io');
    expect(seen).toEqual([
      {
        kind: 'request',
        method: 'tools/call',
        era: 'modern',
        revision: '2026-07-28',
        trace: { traceparent: TRACEPARENT },
        session: undefined,
      },
    ]);
    input.end();
    await serving.closed;
    tap.assertClean();
  });

  it('HTTP: sees legacy session requests (with the session id) and modern requests', async () => {
    const server = echoServer();
    const seen: Seen[] = [];
    server.use(recorder(seen));
    const { peer } = setup({}, server);
    await peer.initialize('2025-11-25');
    const legacy = await peer.call(1, 'tools/call', { name: 'echo', arguments: { text: 'l' } });
    expect(textOf(legacy.response)).toBe('echo l');
    const modernPeer = setup({}, server).peer;
    const modern = await modernPeer.modernCall(
      2,
      'tools/call',
      { name: 'echo', arguments: { text: 'm' } },
      {
        traceparent: TRACEPARENT,
      },
    );
    expect(textOf(modern)).toBe('echo m');
    expect(seen.map((s) => [s.kind, s.method, s.era])).toEqual([
      ['notification', 'notifications/initialized', 'legacy'],
      ['request', 'tools/call', 'legacy'],
      ['request', 'tools/call', 'modern'],
    ]);
    expect(seen[1]!.session).toBe(peer.sessionId);
    expect(seen[2]!.trace).toEqual({ traceparent: TRACEPARENT });
  });
});
