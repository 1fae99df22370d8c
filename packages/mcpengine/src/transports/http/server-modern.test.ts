import { coreOf } from '../../internal/server.js';
import { describe, expect, it } from 'vitest';
import { addToggledTool, createTestServer } from '../../test/fixture-server.js';
import { handlerSetup, eventually, modernMeta, MODERN_VERSION, sleep } from '../../test/http-harness.js';
import type { McpServer } from '../../server/index.js';

function serverWithHeaders(): McpServer {
  const server = createTestServer();
  server.addTool<{ region: string; n?: number; flag?: boolean; nested?: { zone?: string } }>({
    name: 'routed',
    description: 'Mirrors parameters into headers',
    inputSchema: {
      type: 'object',
      properties: {
        region: { type: 'string', 'x-mcp-header': 'Region' },
        n: { type: 'integer', 'x-mcp-header': 'Count' },
        flag: { type: 'boolean', 'x-mcp-header': 'Flag' },
        nested: { type: 'object', properties: { zone: { type: 'string', 'x-mcp-header': 'Zone' } } },
      },
      required: ['region'],
    },
    handler: ({ region }) => `region ${region}`,
  });
  addToggledTool(server);
  return server;
}

const setup = handlerSetup(serverWithHeaders);

describe('modern era: envelope and check order', () => {
  it('serves server/discover as JSON, without a session id', async () => {
    const { peer } = setup();
    const answer = await peer.modern(1, 'server/discover');
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('application/json');
    expect(answer.headers.has('mcp-session-id')).toBe(false);
    expect(answer.json.result).toMatchObject({
      resultType: 'complete',
      supportedVersions: expect.any(Array),
    });
  });

  it('checks the version header, then _meta, then their agreement, then support', async () => {
    const { peer } = setup();
    const missingHeader = await peer.modern(
      11,
      'server/discover',
      {},
      { headers: { 'mcp-protocol-version': undefined } },
    );
    expect([missingHeader.status, missingHeader.json.id, missingHeader.json.error.code]).toEqual([
      400, 11, -32020,
    ]);

    const noMeta = await peer.send(
      { jsonrpc: '2.0', id: 12, method: 'server/discover', params: {} },
      { headers: { 'mcp-protocol-version': MODERN_VERSION, 'mcp-method': 'server/discover' } },
    );
    expect([noMeta.status, noMeta.json.id, noMeta.json.error.code]).toEqual([400, 12, -32602]);

    const noVersion = await peer.modern(
      13,
      'server/discover',
      {},
      {
        meta: { 'io.modelcontextprotocol/protocolVersion': undefined },
      },
    );
    expect([noVersion.status, noVersion.json.id, noVersion.json.error.code]).toEqual([400, 13, -32602]);

    const noCaps = await peer.modern(
      14,
      'server/discover',
      {},
      {
        meta: { 'io.modelcontextprotocol/clientCapabilities': undefined },
      },
    );
    expect([noCaps.status, noCaps.json.error.code]).toEqual([400, -32602]);

    const differ = await peer.modern(
      15,
      'server/discover',
      {},
      {
        meta: { 'io.modelcontextprotocol/protocolVersion': 'v999.0.0' },
      },
    );
    expect([differ.status, differ.json.id, differ.json.error.code]).toEqual([400, 15, -32020]);

    const unsupported = await peer.modern(
      16,
      'server/discover',
      {},
      {
        meta: { 'io.modelcontextprotocol/protocolVersion': 'v999.0.0' },
        headers: { 'mcp-protocol-version': 'v999.0.0' },
      },
    );
    expect(unsupported.status).toBe(400);
    expect(unsupported.json).toMatchObject({
      id: 16,
      error: { code: -32022, data: { supported: ['2026-07-28'], requested: 'v999.0.0' } },
    });
  });

  it('serves a request without clientInfo (a SHOULD)', async () => {
    const { peer } = setup();
    const answer = await peer.modern(
      1,
      'tools/list',
      {},
      { meta: { 'io.modelcontextprotocol/clientInfo': undefined } },
    );
    expect(answer.status).toBe(200);
    expect(answer.json.result.tools.length).toBeGreaterThan(0);
  });

  it('answers unknown and removed methods with 404 and -32601', async () => {
    const { peer } = setup();
    for (const [id, method] of [
      [1, 'unknown/method'],
      [2, 'initialize'],
      [3, 'ping'],
      [4, 'logging/setLevel'],
      [5, 'resources/subscribe'],
    ] as const) {
      const answer = await peer.modern(
        id,
        method,
        method === 'initialize' ? { protocolVersion: '2025-11-25' } : {},
      );
      expect([method, answer.status, answer.json.id, answer.json.error.code]).toEqual([
        method,
        404,
        id,
        -32601,
      ]);
    }
  });

  it('answers a missing client capability with 400 and -32021', async () => {
    const { peer } = setup();
    const answer = await peer.modern(7, 'tools/call', { name: 'ask', arguments: {} });
    expect(answer.status).toBe(400);
    expect(answer.json).toMatchObject({
      id: 7,
      error: { code: -32021, data: { requiredCapabilities: { elicitation: {} } } },
    });
  });

  it('accepts notifications with 202 and refuses responses', async () => {
    const { peer } = setup();
    const notification = await peer.send(
      { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1, _meta: modernMeta() } },
      { headers: { 'mcp-protocol-version': MODERN_VERSION } },
    );
    expect(notification.status).toBe(202);
    const response = await peer.send(
      { jsonrpc: '2.0', id: 1, result: {} },
      { headers: { 'mcp-protocol-version': MODERN_VERSION } },
    );
    expect(response.status).toBe(400);
    expect(response.json.error.code).toBe(-32600);
  });

  it('answers GET and DELETE without a session with 405, and refuses batches', async () => {
    const { peer } = setup();
    expect((await peer.get()).status).toBe(405);
    const del = await peer.delete();
    expect([del.status, del.headers.get('allow')]).toEqual([405, 'POST']);
    const batch = await peer.send(
      [{ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: modernMeta() } }],
      {
        headers: { 'mcp-protocol-version': MODERN_VERSION },
      },
    );
    expect([batch.status, batch.json.id, batch.json.error.code]).toEqual([400, null, -32600]);
  });
});

describe('modern era: Mcp-Method, Mcp-Name and Mcp-Param headers', () => {
  it('requires Mcp-Method to equal the body method, case-sensitively, with names case-insensitive', async () => {
    const { peer } = setup();
    const missing = await peer.modern(1, 'tools/list', {}, { headers: { 'mcp-method': undefined } });
    expect([missing.status, missing.json.error.code]).toEqual([400, -32020]);
    const other = await peer.modern(2, 'tools/list', {}, { headers: { 'mcp-method': 'prompts/list' } });
    expect([other.status, other.json.id, other.json.error.code]).toEqual([400, 2, -32020]);
    const cased = await peer.modern(3, 'tools/list', {}, { headers: { 'mcp-method': 'TOOLS/LIST' } });
    expect([cased.status, cased.json.error.code]).toEqual([400, -32020]);
    const upperName = await peer.modern(
      4,
      'tools/list',
      {},
      { headers: { 'mcp-method': undefined, 'MCP-METHOD': 'tools/list' } },
    );
    expect(upperName.status).toBe(200);
  });

  it('requires Mcp-Name for tools/call, prompts/get and resources/read, decoding Base64 and trimming', async () => {
    const { peer } = setup();
    const missing = await peer.modern(
      1,
      'tools/call',
      { name: 'add', arguments: { a: 1, b: 2 } },
      { headers: { 'mcp-name': undefined } },
    );
    expect([missing.status, missing.json.error.code]).toEqual([400, -32020]);
    const wrong = await peer.modern(
      2,
      'tools/call',
      { name: 'add', arguments: { a: 1, b: 2 } },
      { headers: { 'mcp-name': 'wrong_tool' } },
    );
    expect([wrong.status, wrong.json.id, wrong.json.error.code]).toEqual([400, 2, -32020]);
    const padded = await peer.modern(
      3,
      'tools/call',
      { name: 'add', arguments: { a: 1, b: 2 } },
      { headers: { 'mcp-name': '  add  ' } },
    );
    expect(padded.status).toBe(200);
    const encoded = await peer.modern(
      4,
      'resources/read',
      { uri: 'test://doc' },
      {
        headers: { 'mcp-name': `=?base64?${btoa('test://doc')}?=` },
      },
    );
    expect(encoded.status).toBe(200);
    const prompt = await peer.modern(
      5,
      'prompts/get',
      { name: 'greet', arguments: { who: 'x' } },
      { headers: { 'mcp-name': 'other' } },
    );
    expect([prompt.status, prompt.json.error.code]).toEqual([400, -32020]);
  });

  it('validates Mcp-Param headers against the annotated arguments', async () => {
    const { peer } = setup();
    const call = (id: number, args: Record<string, unknown>, headers: Record<string, string | undefined>) =>
      peer.modern(id, 'tools/call', { name: 'routed', arguments: args }, { headers });

    const ok = await call(
      1,
      { region: 'us-west1', n: 42, flag: true, nested: { zone: 'b' } },
      {
        'mcp-param-region': 'us-west1',
        'Mcp-Param-Count': '42.0',
        'mcp-param-flag': 'true',
        'mcp-param-zone': 'b',
      },
    );
    expect(ok.status).toBe(200);
    expect(ok.json.result.content[0].text).toBe('region us-west1');

    const base64 = await call(
      2,
      { region: 'Hello, 世界' },
      { 'mcp-param-region': '=?base64?SGVsbG8sIOS4lueVjA==?=' },
    );
    expect(base64.status).toBe(200);
    const literal = await call(
      3,
      { region: '=?base64?SGVsbG8=' },
      { 'mcp-param-region': '=?base64?SGVsbG8=' },
    );
    expect(literal.status).toBe(200);

    const rejected: [string, Record<string, unknown>, Record<string, string | undefined>][] = [
      ['missing header', { region: 'x' }, {}],
      ['mismatch', { region: 'x' }, { 'mcp-param-region': 'y' }],
      ['bad padding', { region: 'Hello' }, { 'mcp-param-region': '=?base64?SGVsbG8?=' }],
      ['bad alphabet', { region: 'Hello' }, { 'mcp-param-region': '=?base64?SGVs!!!bG8=?=' }],
      ['integer mismatch', { region: 'x', n: 42 }, { 'mcp-param-region': 'x', 'mcp-param-count': '43' }],
      ['not a number', { region: 'x', n: 42 }, { 'mcp-param-region': 'x', 'mcp-param-count': '42abc' }],
      ['boolean case', { region: 'x', flag: false }, { 'mcp-param-region': 'x', 'mcp-param-flag': 'False' }],
      ['header without argument', { region: 'x' }, { 'mcp-param-region': 'x', 'mcp-param-zone': 'b' }],
    ];
    let id = 10;
    for (const [why, args, headers] of rejected) {
      const answer = await call(++id, args, headers);
      expect([why, answer.status, answer.json.id, answer.json.error.code]).toEqual([why, 400, id, -32020]);
    }
    // A null argument sends no header and expects none.
    const nullValue = await call(40, { region: 'x', nested: { zone: null } }, { 'mcp-param-region': 'x' });
    expect(nullValue.json.error?.code).not.toBe(-32020);
  });
});

describe('modern era: streams', () => {
  it('answers JSON when nothing precedes the result, SSE when notifications do', async () => {
    const { peer } = setup();
    const plain = await peer.modern(1, 'tools/list');
    expect(plain.headers.get('content-type')).toBe('application/json');

    const streamed = await peer.modern(
      2,
      'tools/call',
      { name: 'progress', arguments: {} },
      { meta: { progressToken: 'p1', 'io.modelcontextprotocol/logLevel': 'info' } },
    );
    expect(streamed.headers.get('content-type')).toBe('text/event-stream');
    expect(streamed.headers.get('x-accel-buffering')).toBe('no');
    const events = await streamed.sse!.all();
    const messages = events.map((e) => JSON.parse(e.data));
    expect(events.every((e) => e.id === undefined)).toBe(true); // no resumability in 2026-07-28
    expect(
      messages.filter((m) => m.method === 'notifications/progress').map((m) => m.params.progress),
    ).toEqual([1, 2, 3]);
    expect(messages.filter((m) => m.method === 'notifications/message')).toHaveLength(1);
    expect(messages.at(-1)).toMatchObject({ id: 2, result: { content: [{ text: 'ok' }] } });
  });

  it('sends no log messages without a logLevel', async () => {
    const { peer } = setup();
    const answer = await peer.modern(1, 'tools/call', { name: 'progress', arguments: {} });
    const messages = answer.sse ? (await answer.sse.all(), answer.sse.messages()) : [answer.json];
    expect(messages.some((m) => m.method === 'notifications/message')).toBe(false);
  });

  it('switches a slow request to SSE and keeps it alive with comments', async () => {
    const { peer } = setup({ streamAfterMs: 20, keepAliveMs: 40 });
    const controller = new AbortController();
    const answer = await peer.modern(
      1,
      'tools/call',
      { name: 'slow', arguments: {} },
      { signal: controller.signal },
    );
    expect(answer.headers.get('content-type')).toBe('text/event-stream');
    await answer.sse!.next(() => false, 300).catch(() => {});
    expect(answer.sse!.comments).toBeGreaterThan(0);
    controller.abort();
  });

  it('cancels the request when its response stream closes', async () => {
    const server = serverWithHeaders();
    let aborted = false;
    server.addTool({
      name: 'hang',
      description: 'Reports progress, then waits for cancellation',
      handler: (_args, ctx) =>
        new Promise((resolve) => {
          ctx.progress(1);
          ctx.signal.addEventListener('abort', () => {
            aborted = true;
            resolve('cancelled');
          });
        }),
    });
    const { peer, handler } = setup({}, server);
    const answer = await peer.modern(
      1,
      'tools/call',
      { name: 'hang', arguments: {} },
      { meta: { progressToken: 1 } },
    );
    await answer.sse!.message((m) => m.method === 'notifications/progress');
    expect(handler.stats().modernInflight).toBe(1);
    await answer.sse!.cancel();
    await eventually(() => aborted && handler.stats().modernInflight === 0, 2_000, 'cancellation');
    expect(handler.stats().streams).toBe(0);
  });

  it('cancels a request still waiting for its JSON answer when the client aborts', async () => {
    const server = serverWithHeaders();
    let aborted = false;
    server.addTool({
      name: 'hang',
      description: 'Waits for cancellation',
      handler: (_args, ctx) =>
        new Promise((resolve) =>
          ctx.signal.addEventListener('abort', () => resolve(String((aborted = true)))),
        ),
    });
    const { peer, handler } = setup({ streamAfterMs: Infinity }, server);
    const controller = new AbortController();
    const pending = peer.modern(
      1,
      'tools/call',
      { name: 'hang', arguments: {} },
      { signal: controller.signal },
    );
    await eventually(() => handler.stats().modernInflight === 1);
    controller.abort();
    await pending.catch(() => {});
    await eventually(() => aborted && handler.stats().modernInflight === 0, 2_000, 'cancellation');
  });

  it('streams subscriptions/listen: acknowledgment first, tagged notifications, keep-alives, cancel on close', async () => {
    const { peer, server, handler } = setup({ keepAliveMs: 30 });
    const listen = await peer.modern(99, 'subscriptions/listen', {
      notifications: { toolsListChanged: true },
    });
    expect(listen.headers.get('content-type')).toBe('text/event-stream');
    const ack = await listen.sse!.message();
    expect(ack.method).toBe('notifications/subscriptions/acknowledged');
    expect(ack.params._meta['io.modelcontextprotocol/subscriptionId']).toBe(99);
    expect(await peer.modernCall(1, 'tools/call', { name: 'toggle', arguments: {} })).toMatchObject({
      result: {},
    });
    const changed = await listen.sse!.message();
    expect(changed).toMatchObject({
      method: 'notifications/tools/list_changed',
      params: { _meta: { 'io.modelcontextprotocol/subscriptionId': 99 } },
    });
    await eventually(() => listen.sse!.comments > 0, 2_000, 'a keep-alive comment');
    expect(coreOf(server).broadcaster.listeners.size).toBe(1);
    await listen.sse!.cancel();
    await eventually(
      () => coreOf(server).broadcaster.listeners.size === 0 && handler.stats().modernInflight === 0,
    );
  });

  it('keeps a filtered subscription quiet and ends subscriptions gracefully on close', async () => {
    const { peer, server } = setup();
    const listen = await peer.modern(5, 'subscriptions/listen', {
      notifications: { promptsListChanged: true },
    });
    await listen.sse!.message();
    await peer.modernCall(1, 'tools/call', { name: 'toggle', arguments: {} });
    await sleep(30);
    await server.close({ drainTimeoutMs: 100 });
    const final = await listen.sse!.message((m) => m.id === 5);
    expect(final.result).toMatchObject({ resultType: 'complete' });
    expect(listen.sse!.messages().some((m) => m.method === 'notifications/tools/list_changed')).toBe(false);
  });

  it('refuses requests beyond maxModernInflight with 503', async () => {
    const { peer } = setup({ maxModernInflight: 1, streamAfterMs: Infinity });
    const controller = new AbortController();
    const first = peer.modern(
      1,
      'tools/call',
      { name: 'slow', arguments: {} },
      { signal: controller.signal },
    );
    await sleep(20);
    const second = await peer.modern(2, 'tools/list');
    expect([second.status, second.json.id, second.headers.get('retry-after')]).toEqual([503, 2, '1']);
    controller.abort();
    await first.catch(() => {});
  });
});
