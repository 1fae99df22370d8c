import { afterEach, describe, expect, it } from 'vitest';
import { McpServer } from './index.js';
import { assertAllTapsClean, initializeRaw, modernParams, RawPeer } from '../test/harness.js';
import { createTestServer } from '../test/fixture-server.js';

afterEach(() => assertAllTapsClean());

const SERVER_INFO = { name: 'test-server', version: '1.2.3' };

describe('modern request envelope', () => {
  it('serves server/discover with versions, capabilities, identity and cache hints', async () => {
    const peer = await RawPeer.open(createTestServer());
    const response = await peer.request(1, 'server/discover', modernParams());
    expect(response.result).toMatchObject({
      resultType: 'complete',
      supportedVersions: ['2026-07-28', '2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'],
      instructions: 'Test server',
      ttlMs: 300_000,
      cacheScope: 'public',
      _meta: { 'io.modelcontextprotocol/serverInfo': SERVER_INFO },
    });
    expect(response.result.capabilities.tools).toEqual({ listChanged: true });
  });

  it('rejects missing required _meta fields with -32602', async () => {
    const peer = await RawPeer.open(createTestServer());
    const noMeta = await peer.request(1, 'server/discover', {});
    expect(noMeta.error.code).toBe(-32602);
    const noCaps = await peer.request(2, 'server/discover', {
      _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' },
    });
    expect(noCaps.error.code).toBe(-32602);
    const badLevel = await peer.request(
      3,
      'tools/list',
      modernParams({}, { 'io.modelcontextprotocol/logLevel': 'loud' }),
    );
    expect(badLevel.error.code).toBe(-32602);
    const noInfo = await peer.request(4, 'server/discover', {
      _meta: {
        'io.modelcontextprotocol/protocolVersion': '2026-07-28',
        'io.modelcontextprotocol/clientCapabilities': {},
      },
    });
    expect(noInfo.result.resultType).toBe('complete');
  });

  it('answers an unsupported version with -32022 listing supported and requested', async () => {
    const peer = await RawPeer.open(createTestServer());
    const response = await peer.request(
      1,
      'server/discover',
      modernParams({}, { 'io.modelcontextprotocol/protocolVersion': 'v999.0.0' }),
    );
    expect(response.error).toEqual({
      code: -32022,
      message: 'Unsupported protocol version',
      data: { supported: ['2026-07-28'], requested: 'v999.0.0' },
    });
  });

  it('has no ping, logging/setLevel, initialize-era subscribe in the modern era', async () => {
    const peer = await RawPeer.open(createTestServer());
    for (const [i, method] of [
      'ping',
      'logging/setLevel',
      'resources/subscribe',
      'resources/unsubscribe',
    ].entries()) {
      expect(
        (await peer.request(i, method, modernParams({ level: 'info', uri: 'test://doc' }))).error.code,
      ).toBe(-32601);
    }
  });

  it("answers -32601 for methods named after Object.prototype's members", async () => {
    const peer = await RawPeer.open(createTestServer());
    for (const [i, method] of ['toString', 'constructor', 'hasOwnProperty', '__proto__'].entries()) {
      const response = await peer.request(i, method, modernParams());
      expect(response.result).toBeUndefined();
      expect(response.error.code).toBe(-32601);
    }
  });

  it('adds resultType, cache hints and serverInfo to results', async () => {
    const peer = await RawPeer.open(createTestServer());
    const list = await peer.request(1, 'tools/list', modernParams());
    expect(list.result).toMatchObject({ resultType: 'complete', ttlMs: 60_000, cacheScope: 'public' });
    expect(list.result._meta['io.modelcontextprotocol/serverInfo']).toEqual(SERVER_INFO);
    const read = await peer.request(2, 'resources/read', modernParams({ uri: 'test://doc' }));
    expect(read.result).toMatchObject({ resultType: 'complete', ttlMs: 0, cacheScope: 'private' });
    const call = await peer.request(
      3,
      'tools/call',
      modernParams({ name: 'add', arguments: { a: 1, b: 2 } }),
    );
    expect(call.result).toMatchObject({ resultType: 'complete', structuredContent: { sum: 3 } });
    expect(call.result.ttlMs).toBeUndefined();
    const complete = await peer.request(
      4,
      'completion/complete',
      modernParams({ ref: { type: 'ref/prompt', name: 'greet' }, argument: { name: 'who', value: 'a' } }),
    );
    expect(complete.result.resultType).toBe('complete');
  });

  it('answers resource-not-found with -32602 and the uri', async () => {
    const peer = await RawPeer.open(createTestServer());
    const response = await peer.request(1, 'resources/read', modernParams({ uri: 'test://nope' }));
    expect(response.error).toMatchObject({ code: -32602, data: { uri: 'test://nope' } });
  });

  it('sends log messages only at or above the requested per-request level', async () => {
    const peer = await RawPeer.open(createTestServer());
    await peer.request(1, 'tools/call', modernParams({ name: 'progress', arguments: {} }));
    expect(peer.received.filter((m: any) => m.method === 'notifications/message')).toHaveLength(0);
    await peer.request(
      2,
      'tools/call',
      modernParams({ name: 'progress', arguments: {} }, { 'io.modelcontextprotocol/logLevel': 'debug' }),
    );
    expect(peer.received.filter((m: any) => m.method === 'notifications/message')).toHaveLength(2);
  });

  it('serves both eras on one stream', async () => {
    const peer = await RawPeer.open(createTestServer(), { validate: false });
    await initializeRaw(peer, '2025-06-18');
    const legacy = await peer.request(1, 'tools/list');
    expect(legacy.result.resultType).toBeUndefined();
    const modern = await peer.request(2, 'tools/list', modernParams());
    expect(modern.result.resultType).toBe('complete');
  });

  it('keeps list order deterministic and lists by caller', async () => {
    const server = new McpServer({ name: 's', version: '1' });
    server.addTool({ name: 'public_tool', description: 'for all', handler: () => 'x' });
    server.addTool({
      name: 'elicit_only',
      description: 'only for clients that can elicit',
      visible: (caller) => caller.client.capabilities.elicitation !== undefined,
      handler: () => 'y',
    });
    const peer = await RawPeer.open(server);
    const plain = await peer.request(1, 'tools/list', modernParams());
    expect(plain.result.tools.map((t: { name: string }) => t.name)).toEqual(['public_tool']);
    expect(plain.result.cacheScope).toBe('private');
    const eliciting = await peer.request(
      2,
      'tools/list',
      modernParams({}, { 'io.modelcontextprotocol/clientCapabilities': { elicitation: {} } }),
    );
    expect(eliciting.result.tools.map((t: { name: string }) => t.name)).toEqual([
      'public_tool',
      'elicit_only',
    ]);
    const hidden = await peer.request(3, 'tools/call', modernParams({ name: 'elicit_only', arguments: {} }));
    expect(hidden.error.code).toBe(-32602);
  });
});

describe('multi round-trip requests', () => {
  const ELICIT = { 'io.modelcontextprotocol/clientCapabilities': { elicitation: {} } };

  it('asks for input, then completes with the answer', async () => {
    const peer = await RawPeer.open(createTestServer());
    const first = await peer.request(1, 'tools/call', modernParams({ name: 'ask', arguments: {} }, ELICIT));
    expect(first.result.resultType).toBe('input_required');
    expect(first.result.inputRequests.name.method).toBe('elicitation/create');
    expect(typeof first.result.requestState).toBe('string');
    const retry = await peer.request(
      2,
      'tools/call',
      modernParams(
        {
          name: 'ask',
          arguments: {},
          inputResponses: { name: { action: 'accept', content: { name: 'Ada' } } },
          requestState: first.result.requestState,
        },
        ELICIT,
      ),
    );
    expect(retry.result).toMatchObject({
      resultType: 'complete',
      content: [{ type: 'text', text: 'Hello Ada' }],
    });
  });

  it('rejects a tampered or foreign requestState', async () => {
    const peer = await RawPeer.open(createTestServer());
    const first = await peer.request(1, 'tools/call', modernParams({ name: 'ask', arguments: {} }, ELICIT));
    const state: string = first.result.requestState;
    const tampered = await peer.request(
      2,
      'tools/call',
      modernParams({ name: 'ask', arguments: {}, requestState: `${state}-TAMPERED` }, ELICIT),
    );
    expect(tampered.error.code).toBe(-32602);
    const flipped = state.slice(0, 20) + (state[20] === 'A' ? 'B' : 'A') + state.slice(21);
    expect(
      (
        await peer.request(
          3,
          'tools/call',
          modernParams({ name: 'ask', arguments: {}, requestState: flipped }, ELICIT),
        )
      ).error.code,
    ).toBe(-32602);
    const otherArgs = await peer.request(
      4,
      'tools/call',
      modernParams({ name: 'ask', arguments: { x: 1 }, requestState: state }, ELICIT),
    );
    expect(otherArgs.error.code).toBe(-32602);
  });

  it('refuses input a client did not declare with -32021', async () => {
    const peer = await RawPeer.open(createTestServer());
    const response = await peer.request(1, 'tools/call', modernParams({ name: 'ask', arguments: {} }));
    expect(response.error.code).toBe(-32021);
    expect(response.error.data.requiredCapabilities).toEqual({ elicitation: { form: {} } });
  });

  it('checks declared requiredClientCapabilities before the handler runs', async () => {
    const server = createTestServer();
    let ran = false;
    server.addTool({
      name: 'needs_sampling',
      description: 'x',
      requiredClientCapabilities: { sampling: { tools: {} } },
      handler: () => {
        ran = true;
        return 'ran';
      },
    });
    const peer = await RawPeer.open(server);
    const none = await peer.request(1, 'tools/call', modernParams({ name: 'needs_sampling', arguments: {} }));
    expect(none.error).toMatchObject({
      code: -32021,
      data: { requiredCapabilities: { sampling: { tools: {} } } },
    });
    const partial = await peer.request(
      2,
      'tools/call',
      modernParams(
        { name: 'needs_sampling', arguments: {} },
        { 'io.modelcontextprotocol/clientCapabilities': { sampling: {} } },
      ),
    );
    expect(partial.error.data.requiredCapabilities).toEqual({ sampling: { tools: {} } });
    expect(ran).toBe(false);
    const full = await peer.request(
      3,
      'tools/call',
      modernParams(
        { name: 'needs_sampling', arguments: {} },
        { 'io.modelcontextprotocol/clientCapabilities': { sampling: { tools: {} } } },
      ),
    );
    expect(full.result.content[0].text).toBe('ran');

    const legacy = await RawPeer.open(server);
    await initializeRaw(legacy, '2025-11-25');
    const refused = await legacy.request(4, 'tools/call', { name: 'needs_sampling', arguments: {} });
    expect(refused.result.isError).toBe(true);
    expect(refused.result.content[0].text).toContain('sampling');
  });

  it('rejects malformed inputResponses with -32602', async () => {
    const peer = await RawPeer.open(createTestServer());
    const notObject = await peer.request(
      1,
      'tools/call',
      modernParams({ name: 'ask', arguments: {}, inputResponses: null }, ELICIT),
    );
    expect(notObject.error.code).toBe(-32602);
    const badAnswer = await peer.request(
      2,
      'tools/call',
      modernParams({ name: 'ask', arguments: {}, inputResponses: { name: 12345 } }, ELICIT),
    );
    expect(badAnswer.error.code).toBe(-32602);
  });

  it('re-asks when the answer is missing and ignores unknown keys', async () => {
    const peer = await RawPeer.open(createTestServer());
    const wrongKey = await peer.request(
      1,
      'tools/call',
      modernParams({ name: 'ask', arguments: {}, inputResponses: { other: { action: 'accept' } } }, ELICIT),
    );
    expect(wrongKey.result.resultType).toBe('input_required');
  });

  it('expires requestState', async () => {
    const peer = await RawPeer.open(createTestServer({ requestStateTtlMs: 1 }));
    const first = await peer.request(1, 'tools/call', modernParams({ name: 'ask', arguments: {} }, ELICIT));
    await new Promise((r) => setTimeout(r, 10));
    const late = await peer.request(
      2,
      'tools/call',
      modernParams(
        {
          name: 'ask',
          arguments: {},
          requestState: first.result.requestState,
          inputResponses: { name: { action: 'decline' } },
        },
        ELICIT,
      ),
    );
    expect(late.error.code).toBe(-32602);
    expect(late.error.message).toContain('expired');
  });

  it('never answers input_required on methods that do not allow it', async () => {
    const server = createTestServer();
    server.addResourceTemplate({
      uriTemplate: 'test://ask/{x}',
      name: 'ask',
      read: () => 'x',
      complete: {
        x: async ({ ctx }) => [
          String(
            (await ctx.elicit({ message: 'q', requestedSchema: { type: 'object', properties: {} } })).action,
          ),
        ],
      },
    });
    const peer = await RawPeer.open(server);
    const response = await peer.request(
      1,
      'completion/complete',
      modernParams(
        { ref: { type: 'ref/resource', uri: 'test://ask/{x}' }, argument: { name: 'x', value: '' } },
        ELICIT,
      ),
    );
    expect(response.error.code).toBe(-32603);
  });
});

describe('subscriptions/listen', () => {
  it('acknowledges first, tags every notification, honours the filter, ends on cancel', async () => {
    const server = createTestServer();
    const peer = await RawPeer.open(server);
    peer.send({
      jsonrpc: '2.0',
      id: 'sub-1',
      method: 'subscriptions/listen',
      params: modernParams({
        notifications: { toolsListChanged: true, resourceSubscriptions: ['test://doc'] },
      }),
    });
    const ack = await peer.next((m) => m.method === 'notifications/subscriptions/acknowledged');
    expect(ack.params).toEqual({
      notifications: { toolsListChanged: true, resourceSubscriptions: ['test://doc'] },
      _meta: { 'io.modelcontextprotocol/subscriptionId': 'sub-1' },
    });
    server.addPrompt({ name: 'p2', description: 'x', get: () => ({ messages: [] }) });
    server.addTool({ name: 't2', description: 'x', handler: () => 'x' });
    server.notifyResourceUpdated('test://doc');
    const toolsChanged = await peer.next((m) => m.method === 'notifications/tools/list_changed');
    expect(toolsChanged.params._meta['io.modelcontextprotocol/subscriptionId']).toBe('sub-1');
    const updated = await peer.next((m) => m.method === 'notifications/resources/updated');
    expect(updated.params).toEqual({
      uri: 'test://doc',
      _meta: { 'io.modelcontextprotocol/subscriptionId': 'sub-1' },
    });
    const rest = await peer.settle(30);
    expect(rest.some((m: any) => m.method === 'notifications/prompts/list_changed')).toBe(false);
    peer.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'sub-1' } });
    expect((await peer.settle(30)).some((m: any) => m.id === 'sub-1')).toBe(false);
  });

  it('ends open subscriptions with a result when the server closes', async () => {
    const server = createTestServer();
    const peer = await RawPeer.open(server);
    peer.send({
      jsonrpc: '2.0',
      id: 7,
      method: 'subscriptions/listen',
      params: modernParams({ notifications: { promptsListChanged: true } }),
    });
    await peer.next((m) => m.method === 'notifications/subscriptions/acknowledged');
    void server.close();
    const end = await peer.next((m) => m.id === 7);
    expect(end.result).toMatchObject({
      resultType: 'complete',
      _meta: { 'io.modelcontextprotocol/subscriptionId': 7 },
    });
  });

  it('rejects a malformed filter', async () => {
    const peer = await RawPeer.open(createTestServer());
    const response = await peer.request(
      1,
      'subscriptions/listen',
      modernParams({ notifications: { toolsListChanged: 'yes' } }),
    );
    expect(response.error.code).toBe(-32602);
  });
});
