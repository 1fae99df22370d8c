import { describe, expect, it } from 'vitest';
import { addToggledTool, createTestServer } from '../../test/fixture-server.js';
import { eventually, handlerSetup, HttpPeer, sleep } from '../../test/http-harness.js';
import type { McpServer } from '../../server/index.js';
import { MemoryEventStore } from './event-store.js';

interface Gate {
  open(): void;
  wait: Promise<void>;
}
function gate(): Gate {
  let open!: () => void;
  const wait = new Promise<void>((resolve) => (open = resolve));
  return { open, wait };
}

function legacyServer(state: { gate?: Gate; signals: AbortSignal[] } = { signals: [] }): McpServer {
  const server = createTestServer();
  addToggledTool(server);
  server.addTool({
    name: 'poll',
    description: 'Closes its SSE connection (SEP-1699), then answers',
    handler: async (_args, ctx) => {
      const closed = ctx.transport?.closeSseStream?.({ retryMs: 50 }) ?? false;
      ctx.progress(1);
      await sleep(50);
      return `closed: ${closed}`;
    },
  });
  server.addTool({
    name: 'wait',
    description: 'Reports progress, then waits for the test',
    handler: async (_args, ctx) => {
      state.signals.push(ctx.signal);
      ctx.progress(1, 2, 'started');
      await state.gate?.wait;
      ctx.progress(2, 2, 'done');
      return ctx.signal.aborted ? 'aborted' : 'completed';
    },
  });
  return server;
}

const setup = handlerSetup(legacyServer);

/** A tools/call request without arguments, with `meta` (a progress token...) as its `_meta` unless empty. */
function toolCall(name: string, meta: Record<string, unknown> = {}, id = 1): Record<string, unknown> {
  const params =
    Object.keys(meta).length === 0 ? { name, arguments: {} } : { name, arguments: {}, _meta: meta };
  return { jsonrpc: '2.0', id, method: 'tools/call', params };
}

describe('legacy era: sessions', () => {
  it('opens a session with a visible-ASCII id and accepts the initialized notification', async () => {
    const { peer, handler } = setup();
    const result = await peer.initialize();
    expect(result.protocolVersion).toBe('2025-11-25');
    expect(peer.sessionId).toMatch(/^[\x21-\x7e]{16,}$/);
    const other = new HttpPeer(handler);
    await other.initialize('2025-06-18');
    expect(other.sessionId).not.toBe(peer.sessionId);
    expect(handler.stats().sessions).toBe(2);
    const { response } = await peer.call(1, 'tools/list');
    expect(response.result.tools.length).toBeGreaterThan(0);
  });

  it('answers 400 without a session id, 404 for unknown ones, echoing request ids', async () => {
    const { peer, handler } = setup();
    const missing = await peer.send({ jsonrpc: '2.0', id: 5, method: 'tools/list' });
    expect([missing.status, missing.json.id, missing.json.error.code]).toEqual([400, 5, -32600]);
    const stranger = new HttpPeer(handler);
    stranger.sessionId = 'no-such-session';
    const unknown = await stranger.send({ jsonrpc: '2.0', id: 6, method: 'tools/list' });
    expect([unknown.status, unknown.json.id]).toEqual([404, 6]);
    const notification = await stranger.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    expect(notification.status).toBe(404);
    expect('id' in notification.json).toBe(false);
    await peer.initialize();
    const again = await peer.send({
      jsonrpc: '2.0',
      id: 7,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
    });
    expect([again.status, again.json.id]).toEqual([400, 7]);
  });

  it('checks MCP-Protocol-Version against the negotiated revision', async () => {
    const { peer } = setup();
    await peer.initialize('2025-06-18');
    expect(
      (await peer.call(1, 'ping', undefined, { 'mcp-protocol-version': undefined })).response.result,
    ).toEqual({});
    const other = await peer.call(2, 'ping', undefined, { 'mcp-protocol-version': '2025-11-25' });
    expect([other.answer.status, other.response.id]).toEqual([400, 2]);
    const garbage = await peer.call(3, 'ping', undefined, { 'mcp-protocol-version': 'garbage' });
    expect(garbage.answer.status).toBe(400);
    const modern = await peer.call(4, 'ping', undefined, { 'mcp-protocol-version': '2026-07-28' });
    expect(modern.answer.status).toBe(400);
  });

  it('accepts notifications and responses with 202', async () => {
    const { peer } = setup();
    await peer.initialize();
    expect((await peer.send({ jsonrpc: '2.0', method: 'notifications/roots/list_changed' })).status).toBe(
      202,
    );
    expect((await peer.send({ jsonrpc: '2.0', id: 'unknown', result: {} })).status).toBe(202);
  });

  it('ends a session on DELETE; it is 404 afterwards', async () => {
    const { peer, handler } = setup();
    await peer.initialize();
    expect((await peer.delete()).status).toBe(200);
    expect(handler.stats().sessions).toBe(0);
    const after = await peer.send({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    expect([after.status, after.json.error.code]).toEqual([404, -32600]);
    expect((await peer.get()).status).toBe(404);
  });

  it('closes idle sessions and frees them', async () => {
    const { peer, handler } = setup({ sessions: { idleTimeoutMs: 40 } });
    await peer.initialize();
    expect(handler.stats().sessions).toBe(1);
    await eventually(() => handler.stats().sessions === 0, 2_000, 'the idle sweep');
    expect((await peer.send({ jsonrpc: '2.0', id: 1, method: 'tools/list' })).status).toBe(404);
  });

  it('binds a session to the principal that opened it', async () => {
    const { handler } = setup({
      authenticate: (request) => ({ clientId: request.headers.get('x-user') ?? 'anon', scopes: [] }),
    });
    const alice = new HttpPeer(handler);
    await alice
      .send(
        {
          jsonrpc: '2.0',
          id: 'init',
          method: 'initialize',
          params: {
            protocolVersion: '2025-11-25',
            capabilities: {},
            clientInfo: { name: 'a', version: '1' },
          },
        },
        { headers: { 'x-user': 'alice' } },
      )
      .then((a) => (alice.sessionId = a.headers.get('mcp-session-id')!));
    const asAlice = await alice.send(
      { jsonrpc: '2.0', id: 1, method: 'ping' },
      { headers: { 'x-user': 'alice' } },
    );
    expect(asAlice.status).toBe(200);
    const asMallory = await alice.send(
      { jsonrpc: '2.0', id: 2, method: 'ping' },
      { headers: { 'x-user': 'mallory' } },
    );
    expect(asMallory.status).toBe(404);
  });

  it('refuses sessions beyond the limit (503) and requests beyond the per-session caps (429)', async () => {
    const state = { gate: gate(), signals: [] as AbortSignal[] };
    const { peer, handler } = setup(
      { sessions: { max: 1, maxInflight: 1, maxStreams: 2 }, streamAfterMs: Infinity },
      legacyServer(state),
    );
    await peer.initialize();
    const second = await new HttpPeer(handler).send({
      jsonrpc: '2.0',
      id: 'init',
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
    });
    expect([second.status, second.json.id, second.headers.get('retry-after')]).toEqual([503, 'init', '5']);

    const first = peer.call(1, 'tools/call', { name: 'wait', arguments: {} });
    await eventually(() => handler.stats().legacyInflight === 1);
    const busy = await peer.send({ jsonrpc: '2.0', id: 2, method: 'ping' });
    expect([busy.status, busy.json.id]).toEqual([429, 2]);
    const get1 = await peer.get();
    expect(get1.status).toBe(200);
    expect((await peer.get()).status).toBe(429);
    state.gate.open();
    expect((await first).response.result.content[0].text).toBe('completed');
    await get1.sse!.cancel();
  });
});

describe('legacy era: responses and streams', () => {
  it('answers JSON when nothing precedes the result', async () => {
    const { peer } = setup();
    await peer.initialize();
    const { answer } = await peer.call(1, 'tools/call', { name: 'add', arguments: { a: 1, b: 2 } });
    expect(answer.headers.get('content-type')).toBe('application/json');
  });

  it('streams SSE with a priming event when notifications precede the result', async () => {
    const { peer } = setup();
    await peer.initialize();
    const answer = await peer.send(toolCall('progress', { progressToken: 't' }));
    const events = await answer.sse!.all();
    expect(events[0]).toEqual({ id: expect.stringMatching(/^[0-9a-z]+-0$/), retry: 1000, data: '' });
    const stream = events[0]!.id!.split('-')[0];
    expect(events.slice(1).every((e) => e.id?.startsWith(`${stream}-`))).toBe(true);
    const messages = answer.sse!.messages();
    expect(messages.filter((m) => m.method === 'notifications/progress')).toHaveLength(3);
    expect(messages.filter((m) => m.method === 'notifications/message')).toHaveLength(2);
    expect(messages.at(-1)).toMatchObject({ id: 1, result: { content: [{ text: 'ok' }] } });
  });

  it('sends server→client requests on the request stream and takes the answer by POST', async () => {
    const { peer } = setup();
    await peer.initialize('2025-11-25', { elicitation: {} });
    const answer = await peer.send(toolCall('ask'));
    const ask = await answer.sse!.message((m) => m.method === 'elicitation/create');
    peer.tap.record(
      { jsonrpc: '2.0', id: ask.id, result: { action: 'accept', content: { name: 'Ada' } } },
      'client',
    );
    const reply = await peer.send({
      jsonrpc: '2.0',
      id: ask.id,
      result: { action: 'accept', content: { name: 'Ada' } },
    });
    expect(reply.status).toBe(202);
    const result = await answer.sse!.message((m) => m.id === 1);
    expect(result.result.content[0].text).toBe('Hello Ada');
  });

  it('delivers unrelated notifications on the standalone GET stream only', async () => {
    const { peer } = setup();
    await peer.initialize();
    const standalone = await peer.get();
    expect(standalone.headers.get('content-type')).toBe('text/event-stream');
    const priming = await standalone.sse!.next();
    expect(priming).toEqual({ id: expect.stringMatching(/^[0-9a-z]+-0$/), retry: 1000, data: '' });
    const { answer } = await peer.call(1, 'tools/call', { name: 'toggle', arguments: {} });
    const changed = await standalone.sse!.message();
    expect(changed.method).toBe('notifications/tools/list_changed');
    expect(answer.json.result.content[0].text).toBe('toggled');

    // A second GET adds a stream (it does not knock the first one off); messages go to the newest only.
    const second = await peer.get();
    const secondPriming = await second.sse!.next();
    expect(secondPriming.id).not.toBe(priming.id);
    await peer.call(2, 'tools/call', { name: 'toggle', arguments: {} });
    expect((await second.sse!.message()).method).toBe('notifications/tools/list_changed');
    // When the newest goes away, the older connection, still open, takes over.
    await second.sse!.cancel();
    await new Promise((resolve) => setTimeout(resolve, 20));
    await peer.call(3, 'tools/call', { name: 'toggle', arguments: {} });
    const third = await standalone.sse!.message();
    expect(third.method).toBe('notifications/tools/list_changed');
    await standalone.sse!.cancel();
  });

  it('refuses GET without an SSE Accept (406) and when the standalone stream is off (405)', async () => {
    const { peer } = setup({ standaloneStream: false });
    await peer.initialize();
    expect((await peer.get({ accept: 'application/json' })).status).toBe(406);
    expect((await peer.get()).status).toBe(405);
  });

  it('does not cancel a request when the client disconnects; the stream is resumed with Last-Event-ID', async () => {
    const state = { gate: gate(), signals: [] as AbortSignal[] };
    const { peer, handler } = setup({}, legacyServer(state));
    await peer.initialize();
    const controller = new AbortController();
    const answer = await peer.send(toolCall('wait', { progressToken: 'w' }), { signal: controller.signal });
    const first = await answer.sse!.message((m) => m.method === 'notifications/progress');
    expect(first.params.progress).toBe(1);
    const lastId = answer.sse!.events.at(-1)!.id!;
    controller.abort();
    await answer.sse!.cancel();
    await eventually(() => handler.stats().streams === 0, 2_000, 'the connection to close');
    state.gate.open();
    await eventually(() => handler.stats().legacyInflight === 0, 2_000, 'the request to finish');
    expect(state.signals[0]!.aborted).toBe(false);

    const resumed = await peer.get({ 'last-event-id': lastId });
    expect(resumed.status).toBe(200);
    const events = await resumed.sse!.all();
    const messages = resumed.sse!.messages();
    expect(messages.map((m) => m.method ?? m.id)).toEqual(['notifications/progress', 1]);
    expect(messages[1].result.content[0].text).toBe('completed');
    expect(events.every((e) => e.id!.startsWith(lastId.split('-')[0]!))).toBe(true);
  });

  it('closes the connection for polling (SEP-1699) and replays the result on reconnect', async () => {
    const { peer } = setup();
    await peer.initialize();
    const answer = await peer.send(toolCall('poll', { progressToken: 'p' }));
    const events = await answer.sse!.all();
    expect(events[0]).toMatchObject({ data: '', retry: 1000 });
    expect(events.some((e) => e.retry === 50)).toBe(true);
    expect(answer.sse!.messages().some((m) => m.id === 1)).toBe(false);
    const resumed = await peer.get({ 'last-event-id': events[0]!.id! });
    const result = await resumed.sse!.message((m) => m.id === 1);
    expect(result.result.content[0].text).toBe('closed: true');
    expect(resumed.sse!.messages()[0].method).toBe('notifications/progress');
    await resumed.sse!.all();
  });

  it('replays a finished stream, and refuses unknown or expired event ids', async () => {
    const { peer } = setup({ eventStore: new MemoryEventStore({ maxEvents: 3 }) });
    await peer.initialize();
    const answer = await peer.send(toolCall('progress', { progressToken: 't' }));
    const events = await answer.sse!.all();
    const last = events.at(-2)!.id!;
    const replay = await peer.get({ 'last-event-id': last });
    expect(replay.sse!.messages).toBeDefined();
    await replay.sse!.all();
    expect(replay.sse!.messages().map((m) => m.id)).toEqual([1]);

    expect((await peer.get({ 'last-event-id': events[0]!.id! })).status).toBe(400); // evicted
    expect((await peer.get({ 'last-event-id': 'zz-1' })).status).toBe(400);
    expect((await peer.get({ 'last-event-id': 'not an id' })).status).toBe(400);
  });

  it('does not resume streams of another session', async () => {
    const { peer, handler } = setup();
    await peer.initialize();
    const standalone = await peer.get();
    const priming = await standalone.sse!.next();
    const other = new HttpPeer(handler);
    await other.initialize();
    await other.call(1, 'ping');
    const stolen = await other.get({ 'last-event-id': '1-0' });
    expect(stolen.status).toBe(400);
    const own = await other.get({ 'last-event-id': priming.id! });
    // Stream 0 of the other session exists but never had events stored: nothing of `peer` leaks.
    expect(own.status).toBe(400);
    await standalone.sse!.cancel();
  });

  it('honours notifications/cancelled: no response, the POST ends with 202', async () => {
    const state = { gate: gate(), signals: [] as AbortSignal[] };
    const { peer, handler } = setup({ streamAfterMs: Infinity }, legacyServer(state));
    await peer.initialize();
    const pending = peer.send(toolCall('slow', {}, 9));
    await eventually(() => handler.stats().legacyInflight === 1);
    await peer.send({
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: 9, reason: 'test' },
    });
    const answer = await pending;
    expect(answer.status).toBe(202);
  });
});

describe('legacy era: batches (2025-03-26)', () => {
  it('answers a batch with an array and accepts notification-only batches', async () => {
    const { peer } = setup();
    await peer.initialize('2025-03-26');
    expect(peer.protocolVersion).toBe('2025-03-26');
    peer.protocolVersion = undefined; // 2025-03-26 clients send no MCP-Protocol-Version
    const answer = await peer.send([
      { jsonrpc: '2.0', id: 1, method: 'ping' },
      { jsonrpc: '2.0', method: 'notifications/roots/list_changed' },
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'add', arguments: { a: 2, b: 3 } } },
      { jsonrpc: '2.0', id: 3, method: 'initialize', params: {} },
    ]);
    expect(answer.status).toBe(200);
    const byId = new Map((answer.json as any[]).map((r) => [r.id, r]));
    expect(byId.get(1).result).toEqual({});
    expect(byId.get(2).result.content[0].text).toBe('5');
    expect(byId.get(3).error.code).toBe(-32600);
    const quiet = await peer.send([{ jsonrpc: '2.0', method: 'notifications/roots/list_changed' }]);
    expect(quiet.status).toBe(202);
    expect((await peer.send([])).status).toBe(400);
  });

  it('refuses batches in revisions without them', async () => {
    const { peer } = setup();
    await peer.initialize('2025-06-18');
    const answer = await peer.send([{ jsonrpc: '2.0', id: 1, method: 'ping' }]);
    expect([answer.status, answer.json.id, answer.json.error.code]).toEqual([400, null, -32600]);
  });
});
