import { WireTap } from '@mcpengine/oracle';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestServer } from '../../test/fixture-server.js';
import { eventually, SseReader } from '../../test/http-harness.js';
import { createMcpHttpHandler, type McpHttpHandler } from './server-handler.js';

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
