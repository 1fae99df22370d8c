import { afterEach, describe, expect, it } from 'vitest';
import { assertAllTapsClean, initializeRaw, RawPeer } from '../test/harness.js';
import { createTestServer } from '../test/fixture-server.js';

afterEach(() => assertAllTapsClean());

describe('legacy lifecycle', () => {
  it('answers the requested revision when supported', async () => {
    const peer = await RawPeer.open(createTestServer());
    for (const version of ['2025-06-18']) {
      const response = await initializeRaw(peer, version);
      expect(response.result.protocolVersion).toBe(version);
      expect(response.result.serverInfo).toEqual({ name: 'test-server', version: '1.2.3' });
      expect(response.result.instructions).toBe('Test server');
      expect(response.result.capabilities.tools).toEqual({ listChanged: true });
    }
  });

  it('answers the newest legacy revision for an unknown requested version', async () => {
    const peer = await RawPeer.open(createTestServer());
    const response = await initializeRaw(peer, '1999-01-01');
    expect(response.result.protocolVersion).toBe('2025-11-25');
  });

  it('rejects a malformed protocolVersion with -32602 and supported/requested data', async () => {
    const peer = await RawPeer.open(createTestServer());
    const response = await peer.request(1, 'initialize', {
      protocolVersion: 42,
      capabilities: {},
      clientInfo: { name: 'x', version: '1' },
    });
    expect(response.error.code).toBe(-32602);
    expect(response.error.data.requested).toBe(42);
    expect(response.error.data.supported).toContain('2025-11-25');
  });

  it('trims capabilities and serverInfo to what the revision defines', async () => {
    const peer = await RawPeer.open(createTestServer({ title: 'Test Title' }));
    const response = await initializeRaw(peer, '2024-11-05');
    expect(response.result.protocolVersion).toBe('2024-11-05');
    expect(response.result.serverInfo).toEqual({ name: 'test-server', version: '1.2.3' });
    expect(response.result.capabilities.completions).toBeUndefined();
  });

  it('refuses requests before initialize, but answers ping', async () => {
    const peer = await RawPeer.open(createTestServer());
    const refused = await peer.request(1, 'tools/list');
    expect(refused.error.code).toBe(-32602);
    const ping = await peer.request(2, 'ping');
    expect(ping.result).toEqual({});
  });

  it('refuses a second initialize', async () => {
    const peer = await RawPeer.open(createTestServer());
    await initializeRaw(peer);
    const again = await peer.request(2, 'initialize', {
      protocolVersion: '2025-11-25',
      capabilities: {},
      clientInfo: { name: 'x', version: '1' },
    });
    expect(again.error.code).toBe(-32600);
  });

  it('answers -32601 for methods the revision or the capabilities do not offer', async () => {
    const server = createTestServer();
    const peer = await RawPeer.open(server);
    await initializeRaw(peer, '2025-06-18');
    expect((await peer.request(1, 'server/discover')).error.code).toBe(-32601);
    expect((await peer.request(2, 'tasks/list')).error.code).toBe(-32601);
    expect((await peer.request(3, 'no/such/method')).error.code).toBe(-32601);
  });

  it("answers -32601 for methods named after Object.prototype's members", async () => {
    const peer = await RawPeer.open(createTestServer());
    await initializeRaw(peer);
    for (const [i, method] of [
      'toString',
      'constructor',
      'hasOwnProperty',
      '__proto__',
      'valueOf',
    ].entries()) {
      const response = await peer.request(10 + i, method, {});
      expect(response.result).toBeUndefined();
      expect(response.error).toEqual({ code: -32601, message: `Method not found: ${method}` });
    }
  });
});

describe('legacy tools', () => {
  it('lists tools with only the fields of the revision', async () => {
    const peer = await RawPeer.open(createTestServer());
    await initializeRaw(peer, '2024-11-05');
    const response = await peer.request(1, 'tools/list');
    const add = response.result.tools.find((t: { name: string }) => t.name === 'add');
    expect(Object.keys(add).sort()).toEqual(['description', 'inputSchema', 'name']);
  });

  it('calls a tool and returns structured content', async () => {
    const peer = await RawPeer.open(createTestServer());
    await initializeRaw(peer, '2025-06-18');
    const response = await peer.request(1, 'tools/call', { name: 'add', arguments: { a: 2, b: 3 } });
    expect(response.result).toEqual({
      content: [{ type: 'text', text: '5' }],
      structuredContent: { sum: 5 },
    });
  });

  it('answers an unknown tool with -32602', async () => {
    const peer = await RawPeer.open(createTestServer());
    await initializeRaw(peer);
    const response = await peer.request(1, 'tools/call', { name: 'nope', arguments: {} });
    expect(response.error.code).toBe(-32602);
    expect(response.error.message).toContain('nope');
  });

  it('reports invalid arguments as -32602 before 2025-11-25 and as a tool error from then on', async () => {
    const old = await RawPeer.open(createTestServer());
    await initializeRaw(old, '2025-06-18');
    const protocolError = await old.request(1, 'tools/call', { name: 'add', arguments: { a: 'x' } });
    expect(protocolError.error.code).toBe(-32602);

    const current = await RawPeer.open(createTestServer());
    await initializeRaw(current, '2025-11-25');
    const toolError = await current.request(1, 'tools/call', { name: 'add', arguments: { a: 'x' } });
    expect(toolError.result.isError).toBe(true);
    expect(toolError.result.content[0].text).toContain('Invalid arguments for tool "add"');
  });

  it('turns a throwing handler into isError with its message', async () => {
    const peer = await RawPeer.open(createTestServer());
    await initializeRaw(peer);
    const response = await peer.request(1, 'tools/call', { name: 'fail', arguments: {} });
    expect(response.result).toEqual({ content: [{ type: 'text', text: 'boom' }], isError: true });
  });

  it('rejects non-object arguments with -32602', async () => {
    const peer = await RawPeer.open(createTestServer());
    await initializeRaw(peer);
    const response = await peer.request(1, 'tools/call', { name: 'add', arguments: [1, 2] });
    expect(response.error.code).toBe(-32602);
  });

  it('rewrites content the revision cannot carry', async () => {
    const peer = await RawPeer.open(createTestServer());
    await initializeRaw(peer, '2024-11-05');
    const response = await peer.request(1, 'tools/call', { name: 'audio', arguments: {} });
    expect(response.result.content.map((c: { type: string }) => c.type)).toEqual(['text', 'text']);
    expect(response.result.content[1].text).toContain('test://doc');
  });

  it('drops structuredContent for revisions without it', async () => {
    const peer = await RawPeer.open(createTestServer());
    await initializeRaw(peer, '2025-03-26');
    const response = await peer.request(1, 'tools/call', { name: 'add', arguments: { a: 1, b: 1 } });
    expect(response.result).toEqual({ content: [{ type: 'text', text: '2' }] });
  });
});

describe('legacy utilities', () => {
  it('sends monotonic progress for a live token only, and honours the log level', async () => {
    const peer = await RawPeer.open(createTestServer());
    await initializeRaw(peer);
    expect((await peer.request('lvl', 'logging/setLevel', { level: 'info' })).result).toEqual({});
    const response = await peer.request(1, 'tools/call', {
      name: 'progress',
      arguments: {},
      _meta: { progressToken: 'tok' },
    });
    expect(response.result.content[0].text).toBe('ok');
    const progress = peer.received.filter((m: any) => m.method === 'notifications/progress') as any[];
    expect(progress.map((p) => p.params.progress)).toEqual([1, 2, 3]);
    expect(progress.every((p) => p.params.progressToken === 'tok')).toBe(true);
    const logs = peer.received.filter((m: any) => m.method === 'notifications/message') as any[];
    expect(logs).toHaveLength(1);
    expect(logs[0].params).toEqual({ level: 'info', data: { step: 'done' }, logger: 'progress-tool' });
  });

  it('rejects an unknown log level', async () => {
    const peer = await RawPeer.open(createTestServer());
    await initializeRaw(peer);
    expect((await peer.request(1, 'logging/setLevel', { level: 'loud' })).error.code).toBe(-32602);
  });

  it('stops work on notifications/cancelled and sends no response', async () => {
    const peer = await RawPeer.open(createTestServer());
    await initializeRaw(peer);
    peer.send({
      jsonrpc: '2.0',
      id: 'slow-1',
      method: 'tools/call',
      params: { name: 'slow', arguments: {} },
    });
    await new Promise((r) => setTimeout(r, 20));
    peer.send({
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: 'slow-1', reason: 'test' },
    });
    const after = await peer.settle(100);
    expect(after.some((m: any) => m.id === 'slow-1')).toBe(false);
    // The connection keeps serving.
    expect((await peer.request(2, 'ping')).result).toEqual({});
  });

  it('paginates with opaque, tamper-evident cursors', async () => {
    const peer = await RawPeer.open(createTestServer({ pageSize: 2 }));
    await initializeRaw(peer);
    const names: string[] = [];
    let cursor: string | undefined;
    let id = 0;
    do {
      const page = await peer.request(++id, 'tools/list', cursor === undefined ? {} : { cursor });
      names.push(...page.result.tools.map((t: { name: string }) => t.name));
      cursor = page.result.nextCursor;
    } while (cursor !== undefined);
    expect(names).toEqual(['add', 'fail', 'audio', 'slow', 'progress', 'ask']);

    const first = await peer.request('c1', 'tools/list', {});
    const forged = first.result.nextCursor.replace(/^./, (c: string) => (c === 'A' ? 'B' : 'A'));
    expect((await peer.request('c2', 'tools/list', { cursor: forged })).error.code).toBe(-32602);
    expect((await peer.request('c3', 'prompts/list', { cursor: first.result.nextCursor })).error.code).toBe(
      -32602,
    );
    expect((await peer.request('c4', 'tools/list', { cursor: 12 })).error.code).toBe(-32602);
  });
});

describe('legacy resources, prompts, completion', () => {
  it('reads resources and templates; unknown URIs are -32002', async () => {
    const peer = await RawPeer.open(createTestServer());
    await initializeRaw(peer);
    const doc = await peer.request(1, 'resources/read', { uri: 'test://doc' });
    expect(doc.result.contents).toEqual([
      { uri: 'test://doc', mimeType: 'text/plain', text: 'document text' },
    ]);
    const item = await peer.request(2, 'resources/read', { uri: 'test://items/42' });
    expect(JSON.parse(item.result.contents[0].text)).toEqual({ id: '42' });
    const missing = await peer.request(3, 'resources/read', { uri: 'test://missing' });
    expect(missing.error.code).toBe(-32002);
    expect(missing.error.data).toEqual({ uri: 'test://missing' });
  });

  it('notifies subscribers of resource updates and list changes', async () => {
    const server = createTestServer();
    const peer = await RawPeer.open(server);
    await initializeRaw(peer);
    expect((await peer.request(1, 'resources/subscribe', { uri: 'test://doc' })).result).toEqual({});
    server.notifyResourceUpdated('test://doc');
    server.notifyResourceUpdated('test://other');
    const updated = await peer.next((m) => m.method === 'notifications/resources/updated');
    expect(updated.params).toEqual({ uri: 'test://doc' });
    expect((await peer.request(2, 'resources/unsubscribe', { uri: 'test://doc' })).result).toEqual({});
    server.notifyResourceUpdated('test://doc');
    const handle = server.addTool({ name: 'late', description: 'added later', handler: () => 'late' });
    handle.disable();
    const changed = await peer.next((m) => m.method === 'notifications/tools/list_changed');
    expect(changed).toBeDefined();
    const after = await peer.settle(30);
    expect(after.filter((m: any) => m.method === 'notifications/resources/updated')).toHaveLength(0);
    // Two changes in one tick make a single notification.
    expect(after.filter((m: any) => m.method === 'notifications/tools/list_changed')).toHaveLength(0);
  });

  it('gets prompts and validates their arguments', async () => {
    const peer = await RawPeer.open(createTestServer());
    await initializeRaw(peer);
    const ok = await peer.request(1, 'prompts/get', { name: 'greet', arguments: { who: 'Ada' } });
    expect(ok.result.messages[0].content.text).toBe('Hello Ada');
    expect((await peer.request(2, 'prompts/get', { name: 'greet' })).error.code).toBe(-32602);
    expect((await peer.request(3, 'prompts/get', { name: 'greet', arguments: { who: 1 } })).error.code).toBe(
      -32602,
    );
    expect((await peer.request(4, 'prompts/get', { name: 'nope' })).error.code).toBe(-32602);
  });

  it('completes arguments with at most 100 values, total and hasMore', async () => {
    const peer = await RawPeer.open(createTestServer());
    await initializeRaw(peer);
    const prompt = await peer.request(1, 'completion/complete', {
      ref: { type: 'ref/prompt', name: 'greet' },
      argument: { name: 'who', value: 'x' },
    });
    expect(prompt.result.completion.values).toHaveLength(100);
    expect(prompt.result.completion.total).toBe(150);
    expect(prompt.result.completion.hasMore).toBe(true);
    const template = await peer.request(2, 'completion/complete', {
      ref: { type: 'ref/resource', uri: 'test://items/{id}' },
      argument: { name: 'id', value: 'b' },
    });
    expect(template.result.completion).toEqual({ values: ['beta'] });
    // An argument named after an Object.prototype member has no completer (it is not `Object` itself).
    for (const [i, name] of ['constructor', 'toString', '__proto__'].entries()) {
      const inherited = await peer.request(3 + i, 'completion/complete', {
        ref: { type: 'ref/resource', uri: 'test://items/{id}' },
        argument: { name, value: 'b' },
      });
      expect(inherited.result.completion).toEqual({ values: [] });
    }
  });
});

describe('legacy JSON-RPC edge cases', () => {
  it('accepts batches only at 2025-03-26 and never with initialize', async () => {
    const batching = await RawPeer.open(createTestServer());
    await initializeRaw(batching, '2025-03-26');
    batching.send([
      { jsonrpc: '2.0', id: 'b1', method: 'ping' },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 'b2', method: 'tools/call', params: { name: 'add', arguments: { a: 1, b: 2 } } },
      { jsonrpc: '2.0', id: 'b3', method: 'initialize', params: {} },
    ]);
    const batch = await batching.next((m) => Array.isArray(m));
    expect(batch.map((r: any) => r.id).sort()).toEqual(['b1', 'b2', 'b3']);
    expect(batch.find((r: any) => r.id === 'b3').error.code).toBe(-32600);

    const strict = await RawPeer.open(createTestServer());
    await initializeRaw(strict, '2025-06-18');
    strict.send([{ jsonrpc: '2.0', id: 'x', method: 'ping' }]);
    const refused = await strict.next((m) => m.error !== undefined);
    expect(refused).toMatchObject({ id: null, error: { code: -32600 } });
  });

  it('answers unparseable input with -32700 and id null, then keeps serving', async () => {
    const peer = await RawPeer.open(createTestServer());
    peer.send('{"jsonrpc": "2.0", "id": 1, ');
    expect(await peer.next()).toMatchObject({ id: null, error: { code: -32700 } });
    await initializeRaw(peer);
  });

  it('answers invalid envelopes with -32600', async () => {
    const peer = await RawPeer.open(createTestServer());
    await initializeRaw(peer);
    peer.send({ jsonrpc: '1.0', id: 5, method: 'ping' });
    expect(await peer.next()).toMatchObject({ id: 5, error: { code: -32600 } });
    peer.send({ jsonrpc: '2.0', id: null, method: 'ping' });
    expect(await peer.next()).toMatchObject({ id: null, error: { code: -32600 } });
    peer.send({ jsonrpc: '2.0', id: 1.5, method: 'ping' });
    expect(await peer.next()).toMatchObject({ id: null, error: { code: -32600 } });
    peer.send({ jsonrpc: '2.0', id: 6, method: 42 });
    expect(await peer.next()).toMatchObject({ id: 6, error: { code: -32600 } });
    peer.send('"just a string"');
    expect(await peer.next()).toMatchObject({ id: null, error: { code: -32600 } });
    peer.send({ jsonrpc: '2.0', id: 7, method: 'ping', params: [1] });
    expect(await peer.next()).toMatchObject({ id: 7, error: { code: -32602 } });
  });

  it('ignores responses to unknown ids and never answers notifications', async () => {
    const peer = await RawPeer.open(createTestServer());
    await initializeRaw(peer);
    peer.send({ jsonrpc: '2.0', id: 'never-sent', result: {} });
    peer.send({ jsonrpc: '2.0', id: 'never-sent-2', error: { code: 1, message: 'x' } });
    peer.send({ jsonrpc: '2.0', method: 'notifications/unknown' });
    peer.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'unknown' } });
    expect(await peer.settle(30)).toEqual([]);
  });

  it('answers a notification method sent with an id as an unknown request', async () => {
    const peer = await RawPeer.open(createTestServer());
    await initializeRaw(peer);
    const response = await peer.request(9, 'notifications/initialized');
    expect(response.error.code).toBe(-32601);
  });

  it('refuses a duplicate in-flight request id', async () => {
    const peer = await RawPeer.open(createTestServer());
    await initializeRaw(peer);
    peer.send({ jsonrpc: '2.0', id: 'dup', method: 'tools/call', params: { name: 'slow', arguments: {} } });
    peer.send({ jsonrpc: '2.0', id: 'dup', method: 'ping' });
    const first = await peer.next((m) => m.id === 'dup');
    expect(first.error.code).toBe(-32600);
    peer.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'dup' } });
  });
});
