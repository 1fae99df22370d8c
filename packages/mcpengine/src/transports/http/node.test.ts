import { coreOf } from '../../internal/server.js';
import { request as httpRequest } from 'node:http';
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestServer } from '../../test/fixture-server.js';
import { assertHttpTapsClean, eventually, HttpPeer, sleep } from '../../test/http-harness.js';
import type { McpServer } from '../../server/index.js';
import { serveHttp, type HttpServing, type ServeHttpOptions } from './node.js';

const servings: HttpServing[] = [];
afterEach(async () => {
  for (const serving of servings.splice(0)) await serving.close({ drainTimeoutMs: 0 });
  assertHttpTapsClean();
});

function testServer(flood: { aborted: boolean } = { aborted: false }): McpServer {
  const server = createTestServer();
  server.addTool<{ tag: string }>({
    name: 'tagged',
    description: 'Reports progress and logs its tag, then returns it',
    inputSchema: { type: 'object', properties: { tag: { type: 'string' } }, required: ['tag'] },
    handler: async ({ tag }, ctx) => {
      for (let step = 1; step <= 3; step++) {
        ctx.progress(step, 3, tag);
        ctx.log('info', tag);
        await sleep(Math.random() * 5);
      }
      return tag;
    },
  });
  server.addTool({
    name: 'flood',
    description: 'Logs large messages until cancelled (or 40 MB)',
    handler: async (_args, ctx) => {
      const chunk = 'x'.repeat(20_000);
      for (let i = 0; i < 2_000 && !ctx.signal.aborted; i++) {
        ctx.log('info', chunk);
        await new Promise((resolve) => setImmediate(resolve));
      }
      flood.aborted = ctx.signal.aborted;
      return 'flooded';
    },
  });
  return server;
}

async function serve(options: ServeHttpOptions = {}, server = testServer()): Promise<HttpServing> {
  const serving = await serveHttp(server, { keepAliveMs: 60_000, ...options });
  servings.push(serving);
  return serving;
}

interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A raw HTTP request (fetch cannot set Host, duplicate headers or lie about the body). */
function raw(
  serving: HttpServing,
  options: { method?: string; headers?: [string, string][]; body?: string | Buffer; path?: string },
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const headers: string[] = [];
    const given = options.headers ?? [];
    // With raw (array) headers Node adds no Host of its own.
    if (!given.some(([name]) => name.toLowerCase() === 'host'))
      headers.push('host', `127.0.0.1:${serving.port}`);
    for (const [name, value] of given) headers.push(name, value);
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port: serving.port,
        path: options.path ?? '/mcp',
        method: options.method ?? 'POST',
        headers: headers as unknown as Record<string, string>,
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

const JSON_HEADERS: [string, string][] = [
  ['content-type', 'application/json'],
  ['accept', 'application/json, text/event-stream'],
];

function rawSocket(serving: HttpServing): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(serving.port, '127.0.0.1', () => resolve(socket));
    socket.on('error', reject);
  });
}

function closed(socket: Socket): Promise<string> {
  return new Promise((resolve) => {
    let received = '';
    socket.on('data', (data) => (received += data.toString()));
    socket.on('close', () => resolve(received));
  });
}

describe('serveHttp', () => {
  it('binds to loopback and serves both eras and HTTP+SSE', async () => {
    const serving = await serve({ legacySse: true });
    expect(serving.url).toBe(`http://127.0.0.1:${serving.port}/mcp`);
    expect(serving.sseUrl).toBe(`http://127.0.0.1:${serving.port}/sse`);
    expect(serving.server.address()).toMatchObject({ address: '127.0.0.1' });
    const legacy = new HttpPeer((r) => fetch(r), serving.url);
    await legacy.initialize();
    expect(
      (await legacy.call(1, 'tools/call', { name: 'add', arguments: { a: 1, b: 1 } })).response.result
        .structuredContent,
    ).toEqual({ sum: 2 });
    const modern = new HttpPeer((r) => fetch(r), serving.url);
    expect((await modern.modernCall(1, 'tools/list')).result.tools.length).toBeGreaterThan(0);
    const other = await raw(serving, { method: 'GET', path: '/elsewhere' });
    expect(other.status).toBe(404);
  });

  it('streams SSE through Node with flushing and ends it cleanly', async () => {
    const serving = await serve();
    const peer = new HttpPeer((r) => fetch(r), serving.url);
    await peer.initialize();
    const { answer, notifications, response } = await peer.call(1, 'tools/call', {
      name: 'tagged',
      arguments: { tag: 'n1' },
      _meta: { progressToken: 1 },
    });
    expect(answer.headers.get('content-type')).toBe('text/event-stream');
    expect(notifications.filter((n) => n.method === 'notifications/progress')).toHaveLength(3);
    expect(response.result.content[0].text).toBe('n1');
  });
});

describe('bad input over the wire', () => {
  it('refuses wrong media types, missing Accept, bad JSON, bad UTF-8', async () => {
    const serving = await serve();
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' });
    const wrongType = await raw(serving, {
      headers: [['content-type', 'text/plain'], JSON_HEADERS[1]!],
      body,
    });
    expect(wrongType.status).toBe(415);
    const noAccept = await raw(serving, { headers: [JSON_HEADERS[0]!], body });
    expect(noAccept.status).toBe(406);
    const jsonOnly = await raw(serving, {
      headers: [JSON_HEADERS[0]!, ['accept', 'application/json']],
      body,
    });
    expect(jsonOnly.status).toBe(406);
    const badJson = await raw(serving, { headers: JSON_HEADERS, body: '{"jsonrpc":' });
    expect([badJson.status, JSON.parse(badJson.body)]).toEqual([
      400,
      { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error: invalid JSON' } },
    ]);
    const badUtf8 = await raw(serving, { headers: JSON_HEADERS, body: Buffer.from([0x7b, 0xff, 0x7d]) });
    expect([badUtf8.status, JSON.parse(badUtf8.body).error.code]).toEqual([400, -32700]);
    const notObject = await raw(serving, { headers: JSON_HEADERS, body: '42' });
    expect([notObject.status, JSON.parse(notObject.body).error.code]).toEqual([400, -32600]);
    const put = await raw(serving, { method: 'PUT', headers: JSON_HEADERS, body });
    expect(put.status).toBe(405);
  });

  it('refuses oversized bodies with 413 and closes the connection', async () => {
    const serving = await serve({ maxBodyBytes: 1_000 });
    const big = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping', params: { pad: 'x'.repeat(5_000) } });
    const declared = await raw(serving, { headers: JSON_HEADERS, body: big });
    expect([declared.status, declared.headers.connection]).toEqual([413, 'close']);
    // Chunked, so the size is only discovered while reading.
    const chunked = await new Promise<number>((resolve, reject) => {
      const req = httpRequest(
        {
          host: '127.0.0.1',
          port: serving.port,
          path: '/mcp',
          method: 'POST',
          headers: Object.fromEntries(JSON_HEADERS),
        },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on('error', reject);
      for (let i = 0; i < 10; i++) req.write('x'.repeat(500));
      req.end();
    });
    expect(chunked).toBe(413);
  });

  it('checks Host and Origin against DNS rebinding', async () => {
    const serving = await serve();
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'server/discover' });
    const evilHost = await raw(serving, { headers: [...JSON_HEADERS, ['host', 'evil.example.com']], body });
    expect(evilHost.status).toBe(403);
    expect(JSON.parse(evilHost.body).error.code).toBe(-32600);
    const evilOrigin = await raw(serving, {
      headers: [...JSON_HEADERS, ['origin', 'http://evil.example.com']],
      body,
    });
    expect(evilOrigin.status).toBe(403);
    const local = await raw(serving, {
      headers: [...JSON_HEADERS, ['origin', `http://localhost:${serving.port}`]],
      body,
    });
    expect(local.status).not.toBe(403);
  });

  it('fails duplicated singleton headers', async () => {
    const serving = await serve();
    const peer = new HttpPeer((r) => fetch(r), serving.url);
    await peer.initialize();
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' });
    const twoSessions = await raw(serving, {
      headers: [...JSON_HEADERS, ['mcp-session-id', peer.sessionId!], ['mcp-session-id', peer.sessionId!]],
      body,
    });
    expect(twoSessions.status).toBe(404);
    const modern = JSON.stringify({
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/list',
      params: {
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientCapabilities': {},
        },
      },
    });
    const twoMethods = await raw(serving, {
      headers: [
        ...JSON_HEADERS,
        ['mcp-protocol-version', '2026-07-28'],
        ['mcp-method', 'tools/list'],
        ['mcp-method', 'tools/list'],
      ],
      body: modern,
    });
    expect([
      twoMethods.status,
      JSON.parse(twoMethods.body).error.code,
      JSON.parse(twoMethods.body).id,
    ]).toEqual([400, -32020, 2]);
    const twoVersions = await raw(serving, {
      headers: [
        ...JSON_HEADERS,
        ['mcp-protocol-version', '2026-07-28'],
        ['mcp-protocol-version', '2026-07-28'],
        ['mcp-method', 'tools/list'],
      ],
      body: modern,
    });
    expect([twoVersions.status, JSON.parse(twoVersions.body).error.code]).toEqual([400, -32020]);
  });

  it('drops connections whose headers never finish (slowloris)', async () => {
    const serving = await serve({ headersTimeoutMs: 300 });
    const socket = await rawSocket(serving);
    const done = closed(socket);
    socket.write('POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    const timer = setInterval(() => socket.write('X-Slow: 1\r\n'), 50);
    const started = Date.now();
    const received = await done;
    clearInterval(timer);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(received === '' || received.startsWith('HTTP/1.1 408')).toBe(true);
  });

  it('times out a body that never finishes (408) without disturbing others', async () => {
    const serving = await serve({ bodyTimeoutMs: 200, requestTimeoutMs: 5_000, headersTimeoutMs: 5_000 });
    const socket = await rawSocket(serving);
    const done = closed(socket);
    socket.write(
      `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: 100\r\n\r\n{"jsonrpc"`,
    );
    const other = new HttpPeer((r) => fetch(r), serving.url);
    expect((await other.modernCall(1, 'server/discover')).result).toBeDefined();
    const received = await done;
    expect(received).toMatch(/^HTTP\/1\.1 408/);
  });

  it('frees a stream whose client vanishes, keeping the session and other sessions intact', async () => {
    const serving = await serve();
    const peer = new HttpPeer((r) => fetch(r), serving.url);
    await peer.initialize();
    const bystander = new HttpPeer((r) => fetch(r), serving.url);
    await bystander.initialize();
    const socket = await rawSocket(serving);
    socket.write(
      `GET /mcp HTTP/1.1\r\nHost: 127.0.0.1:${serving.port}\r\nAccept: text/event-stream\r\nMcp-Session-Id: ${peer.sessionId}\r\n\r\n`,
    );
    await new Promise((resolve) => socket.once('data', resolve));
    expect(serving.handler.stats().streams).toBe(1);
    socket.destroy();
    await eventually(() => serving.handler.stats().streams === 0, 2_000, 'the stream to be freed');
    expect(serving.handler.stats().sessions).toBe(2);
    expect((await peer.call(1, 'ping')).response.result).toEqual({});
    expect((await bystander.call(1, 'ping')).response.result).toEqual({});
  });

  it('answers a client that half-closes after its request, then frees the connection', async () => {
    const serving = await serve();
    const socket = await rawSocket(serving);
    const done = closed(socket);
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/list',
      params: {
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientCapabilities': {},
        },
      },
    });
    socket.end(
      `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n` +
        `MCP-Protocol-Version: 2026-07-28\r\nMcp-Method: tools/list\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
    const received = await done;
    expect(received).toMatch(/^HTTP\/1\.1 200/);
    expect(received).toContain('"resultType":"complete"');
    expect(serving.handler.stats()).toMatchObject({ streams: 0, modernInflight: 0 });
  });

  it('cancels a modern subscription when the client aborts it mid-stream', async () => {
    const server = testServer();
    const serving = await serve({}, server);
    const peer = new HttpPeer((r) => fetch(r), serving.url);
    const controller = new AbortController();
    const listen = await peer.modern(
      1,
      'subscriptions/listen',
      { notifications: { toolsListChanged: true } },
      { signal: controller.signal },
    );
    expect((await listen.sse!.message()).method).toBe('notifications/subscriptions/acknowledged');
    expect(coreOf(server).broadcaster.listeners.size).toBe(1);
    controller.abort();
    await eventually(
      () => coreOf(server).broadcaster.listeners.size === 0 && serving.handler.stats().streams === 0,
      2_000,
      'the subscription to end',
    );
    expect(serving.handler.stats().modernInflight).toBe(0);
  });

  it('drops a reader that does not keep up instead of buffering without bound', async () => {
    const flood = { aborted: false };
    const serving = await serve({ maxBufferedBytes: 256 * 1024 }, testServer(flood));
    const socket = await rawSocket(serving);
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: {
        name: 'flood',
        arguments: {},
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientCapabilities': {},
          'io.modelcontextprotocol/logLevel': 'info',
        },
      },
    });
    socket.pause(); // never read
    socket.write(
      `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n` +
        `MCP-Protocol-Version: 2026-07-28\r\nMcp-Method: tools/call\r\nMcp-Name: flood\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
    await eventually(() => flood.aborted, 10_000, 'the flood to be cut off');
    await eventually(
      () => serving.handler.stats().streams === 0 && serving.handler.stats().modernInflight === 0,
    );
    socket.destroy();
  });
});

describe('isolation', () => {
  it('shows each of many interleaved clients only its own messages', async () => {
    const server = testServer();
    const serving = await serve({}, server);
    const fetcher = (r: Request) => fetch(r);
    const legacy = await Promise.all(
      Array.from({ length: 12 }, async (_, i) => {
        const peer = new HttpPeer(fetcher, serving.url);
        await peer.initialize();
        await peer.call(`sub-${i}`, 'resources/subscribe', { uri: `test://items/${i}` });
        const standalone = await peer.get();
        await standalone.sse!.next(); // priming
        return { peer, standalone, tag: `legacy-${i}` };
      }),
    );
    const modern = Array.from({ length: 12 }, (_, i) => ({
      peer: new HttpPeer(fetcher, serving.url),
      tag: `modern-${i}`,
    }));

    const calls = [
      ...legacy.flatMap(({ peer, tag }) =>
        [1, 2, 3].map((n) =>
          peer.call(`${tag}-${n}`, 'tools/call', {
            name: 'tagged',
            arguments: { tag },
            _meta: { progressToken: `${tag}-${n}` },
          }),
        ),
      ),
      ...modern.flatMap(({ peer, tag }) =>
        [1, 2, 3].map(async (n) => {
          const answer = await peer.modern(
            `${tag}-${n}`,
            'tools/call',
            { name: 'tagged', arguments: { tag } },
            {
              meta: { progressToken: `${tag}-${n}`, 'io.modelcontextprotocol/logLevel': 'info' },
            },
          );
          const events = answer.sse ? (await answer.sse.all(), answer.sse.messages()) : [answer.json];
          return { answer, response: events.at(-1), notifications: events.slice(0, -1) };
        }),
      ),
    ];
    const results = await Promise.all(calls);
    for (const { response, notifications } of results) {
      const tag = response.result.content[0].text as string;
      expect(String(response.id)).toMatch(new RegExp(`^${tag}-\\d$`));
      expect(notifications).toHaveLength(6);
      for (const n of notifications) {
        if (n.method === 'notifications/progress') {
          expect(n.params.progressToken).toBe(response.id);
          expect(n.params.message).toBe(tag);
        } else {
          expect(n).toMatchObject({ method: 'notifications/message', params: { data: tag } });
        }
      }
    }
    // Resource updates reach only the session that subscribed.
    for (let i = 0; i < legacy.length; i++) server.notifyResourceUpdated(`test://items/${i}`);
    for (let i = 0; i < legacy.length; i++) {
      const update = await legacy[i]!.standalone.sse!.message();
      expect(update).toEqual({
        jsonrpc: '2.0',
        method: 'notifications/resources/updated',
        params: { uri: `test://items/${i}` },
      });
    }
    await sleep(30);
    for (const { standalone } of legacy) {
      expect(standalone.sse!.messages()).toHaveLength(1);
      await standalone.sse!.cancel();
    }
  });
});
