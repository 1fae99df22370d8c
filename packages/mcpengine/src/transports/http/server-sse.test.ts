import { WireTap } from '@mcpengine/oracle';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestServer } from '../../test/fixture-server.js';
import { eventually, SseReader } from '../../test/http-harness.js';
import type { AuthInfo } from '../../server/context.js';
import { createMcpHttpHandler, type McpHttpHandler } from './server-handler.js';
import type { McpHttpHandlerOptions } from './server-options.js';

const handlers: McpHttpHandler[] = [];
const taps: WireTap[] = [];
afterEach(async () => {
  for (const handler of handlers.splice(0)) await handler.close({ drainTimeoutMs: 0 });
  for (const tap of taps.splice(0)) tap.assertClean();
});

/** A 2024-11-05 HTTP+SSE client by hand. */
async function open(handler: McpHttpHandler, headers: Record<string, string> = {}) {
  const tap = new WireTap({ validate: ['server'] });
  taps.push(tap);
  const response = await handler(
    new Request('http://localhost/sse', { headers: { accept: 'text/event-stream', ...headers } }),
  );
  expect(response.status).toBe(200);
  const sse = new SseReader(response.body!, (event) => {
    if (event.event === 'message') tap.record(event.data, 'server');
  });
  const endpoint = await sse.next();
  expect(endpoint.event).toBe('endpoint');
  const post = async (message: unknown, extra: Record<string, string> = {}) => {
    tap.record(message, 'client');
    return handler(
      new Request(new URL(endpoint.data, 'http://localhost/sse'), {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...extra },
        body: JSON.stringify(message),
      }),
    );
  };
  return { sse, endpoint: endpoint.data, post };
}

describe('HTTP+SSE (2024-11-05)', () => {
  it('announces the POST endpoint, answers 202 and sends responses on the event stream', async () => {
    const handler = createMcpHttpHandler(createTestServer(), { legacySse: true });
    handlers.push(handler);
    const client = await open(handler);
    expect(client.endpoint).toMatch(/^\/messages\?sessionId=[\w-]+$/);
    const init = await client.post({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2024-11-05', capabilities: {}, clientInfo: { name: 'old', version: '1' } },
    });
    expect(init.status).toBe(202);
    const result = await client.sse.message((m) => m.id === 1);
    expect(result.result.protocolVersion).toBe('2024-11-05');
    expect((await client.post({ jsonrpc: '2.0', method: 'notifications/initialized' })).status).toBe(202);
    await client.post({
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: { name: 'add', arguments: { a: 2, b: 2 } },
    });
    const call = await client.sse.message((m) => m.id === 2);
    expect(call.result.content[0].text).toBe('4');
    // Malformed input is answered on the stream, like on stdio.
    await handler(
      new Request(new URL(client.endpoint, 'http://localhost/'), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{oops',
      }),
    );
    expect((await client.sse.message((m) => m.error?.code === -32700)).id).toBeNull();
    expect(handler.stats().sseSessions).toBe(1);
    await client.sse.cancel();
    await eventually(() => handler.stats().sseSessions === 0, 2_000, 'the session to end');
  });

  it('keeps sessions apart and refuses unknown ones', async () => {
    const handler = createMcpHttpHandler(createTestServer(), {
      legacySse: { ssePath: '/events', messagesPath: '/post' },
    });
    handlers.push(handler);
    const post = (path: string, contentType = 'application/json') =>
      handler(
        new Request(`http://localhost${path}`, {
          method: 'POST',
          headers: { 'content-type': contentType },
          body: '{}',
        }),
      );
    expect((await post('/post?sessionId=nope')).status).toBe(404);
    expect((await post('/post')).status).toBe(400);
    expect((await handler(new Request('http://localhost/events', { method: 'POST' }))).status).toBe(405);
    expect(
      (await handler(new Request('http://localhost/events', { headers: { accept: 'application/json' } })))
        .status,
    ).toBe(406);
    expect((await post('/post?sessionId=x', 'text/plain')).status).toBe(415);
  });

  it('enforces Host and Origin on the SSE endpoints too', async () => {
    const handler = createMcpHttpHandler(createTestServer(), { legacySse: true });
    handlers.push(handler);
    const response = await handler(
      new Request('http://localhost/sse', {
        headers: { host: 'evil.example.com', accept: 'text/event-stream' },
      }),
    );
    expect(response.status).toBe(403);
  });
});

/** Tokens by value: alice with and without `notes:write`, alice with a short life, and bob. */
function tokens(now = Date.now()): Record<string, AuthInfo> {
  const hour = Math.floor(now / 1000) + 3600;
  return {
    'alice-write': { token: 'alice-write', subject: 'alice', scopes: ['notes:write'], expiresAt: hour },
    'alice-read': { token: 'alice-read', subject: 'alice', scopes: [], expiresAt: hour },
    'alice-brief': {
      token: 'alice-brief',
      subject: 'alice',
      scopes: ['notes:write'],
      expiresAt: Math.floor(now / 1000) + 1,
    },
    bob: { token: 'bob', subject: 'bob', scopes: ['notes:write'], expiresAt: hour },
  };
}

/** A server whose `write` tool needs `notes:write` (checked by the `authorize` hook) and reports its token. */
function guardedHandler(extra: McpHttpHandlerOptions = {}) {
  const server = createTestServer();
  const ran: string[] = [];
  server.addTool({
    name: 'write',
    description: 'Needs notes:write; answers with the token it ran with',
    handler: (_args, ctx) => {
      ran.push(ctx.auth?.token ?? '');
      return ctx.auth?.token ?? 'anonymous';
    },
  });
  const known = tokens();
  const handler = createMcpHttpHandler(server, {
    legacySse: true,
    authenticate: (request) => {
      const token = request.headers.get('authorization')?.replace(/^Bearer /, '');
      return (token && known[token]) || new Response(null, { status: 401 });
    },
    authorize: (message, auth) =>
      message.method === 'tools/call' &&
      message.params?.name === 'write' &&
      !auth?.scopes.includes('notes:write')
        ? new Response(null, { status: 403 })
        : undefined,
    ...extra,
  });
  handlers.push(handler);
  return { handler, ran };
}

const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2024-11-05', capabilities: {}, clientInfo: { name: 'old', version: '1' } },
};
const callWrite = (id: number) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name: 'write', arguments: {} },
});

describe('HTTP+SSE: every POST carries its own credentials', () => {
  it('authorizes each POST with its own token, not the one that opened the stream', async () => {
    const { handler, ran } = guardedHandler();
    const client = await open(handler, { authorization: 'Bearer alice-write' });
    const as = (token: string) => ({ authorization: `Bearer ${token}` });
    expect((await client.post(INITIALIZE, as('alice-write'))).status).toBe(202);
    await client.sse.message((m) => m.id === 1);
    await client.post({ jsonrpc: '2.0', method: 'notifications/initialized' }, as('alice-write'));

    // The same principal with a token lacking the scope: refused by the authorize hook, the tool never runs.
    expect((await client.post(callWrite(2), as('alice-read'))).status).toBe(403);
    // Another principal: refused even with the scope.
    expect((await client.post(callWrite(3), as('bob'))).status).toBe(403);
    // No token at all: the authenticate hook answers.
    expect((await client.post(callWrite(4))).status).toBe(401);
    expect(ran).toEqual([]);

    // A token with the scope runs the tool, which sees the POST's token.
    expect((await client.post(callWrite(5), as('alice-brief'))).status).toBe(202);
    const answer = await client.sse.message((m) => m.id === 5);
    expect(answer.result.content[0].text).toBe('alice-brief');
    expect(ran).toEqual(['alice-brief']);
    await client.sse.cancel();
  });

  it('ends the stream when the token that opened it expires', async () => {
    const { handler } = guardedHandler({ keepAliveMs: 100 });
    const client = await open(handler, { authorization: 'Bearer alice-brief' });
    expect(handler.stats().sseSessions).toBe(1);
    // alice-brief expires within a second; the stream is swept on the handler's next tick after that.
    await eventually(() => handler.stats().sseSessions === 0, 10_000, 'the expired stream to end');
    await client.sse.all(5_000);
    expect(client.sse.done).toBe(true);
  });

  it('caps the requests in flight per session and answers 429 beyond it', async () => {
    const server = createTestServer();
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    server.addTool({
      name: 'hang',
      description: 'Waits for the test',
      handler: async () => {
        await released;
        return 'done';
      },
    });
    const handler = createMcpHttpHandler(server, { legacySse: true, sessions: { maxInflight: 2 } });
    handlers.push(handler);
    const client = await open(handler);
    await client.post(INITIALIZE);
    await client.sse.message((m) => m.id === 1);
    await client.post({ jsonrpc: '2.0', method: 'notifications/initialized' });
    const hang = (id: number) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'hang' } });
    expect((await client.post(hang(2))).status).toBe(202);
    expect((await client.post(hang(3))).status).toBe(202);
    const refused = await client.post(hang(4));
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('1');
    // Notifications are not requests: they still pass.
    expect((await client.post({ jsonrpc: '2.0', method: 'notifications/initialized' })).status).toBe(202);
    release();
    await client.sse.message((m) => m.id === 2);
    await client.sse.message((m) => m.id === 3);
    expect((await client.post(hang(5))).status).toBe(202);
    await client.sse.message((m) => m.id === 5);
    await client.sse.cancel();
  });
});
