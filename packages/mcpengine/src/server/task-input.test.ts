import { afterEach, describe, expect, it } from 'vitest';
import { createTestServer } from '../test/fixture-server.js';
import { assertAllTapsClean, initializeRaw, RawPeer } from '../test/harness.js';

afterEach(() => assertAllTapsClean());

const TASK_CAPABLE = { sampling: {}, tasks: { requests: { sampling: { createMessage: {} } } } };
const now = new Date().toISOString();
const task = (status: string) => ({
  taskId: 'client-task-1',
  status,
  ttl: 60_000,
  createdAt: now,
  lastUpdatedAt: now,
  pollInterval: 10,
});

function samplingServer() {
  const server = createTestServer();
  server.addTool({
    name: 'ask-model',
    description: 'Asks the client model, as a task where the client supports it',
    handler: async (_args, ctx) => {
      const result = await ctx.sample(
        { messages: [{ role: 'user', content: { type: 'text', text: 'hello?' } }], maxTokens: 10 },
        { task: { ttl: 60_000 } },
      );
      const [first] = Array.isArray(result.content) ? result.content : [result.content];
      return first?.type === 'text' ? first.text : 'not text';
    },
  });
  return server;
}

const answer = (peer: RawPeer, request: any, result: unknown) =>
  peer.send({ jsonrpc: '2.0', id: request.id, result });

describe('server-initiated task-augmented sampling (2025-11-25)', () => {
  it('sends the request with task, polls tasks/get, then fetches tasks/result', async () => {
    const peer = await RawPeer.open(samplingServer());
    await initializeRaw(peer, '2025-11-25', TASK_CAPABLE);
    peer.send({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'ask-model', arguments: {} } });

    const create = await peer.next((m) => m.method === 'sampling/createMessage');
    expect(create.params.task).toEqual({ ttl: 60_000 });
    answer(peer, create, { task: task('working') });

    const firstPoll = await peer.next((m) => m.method === 'tasks/get');
    expect(firstPoll.params).toEqual({ taskId: 'client-task-1' });
    answer(peer, firstPoll, task('working'));
    const secondPoll = await peer.next((m) => m.method === 'tasks/get');
    answer(peer, secondPoll, task('completed'));

    const fetch = await peer.next((m) => m.method === 'tasks/result');
    expect(fetch.params).toEqual({ taskId: 'client-task-1' });
    answer(peer, fetch, {
      role: 'assistant',
      content: { type: 'text', text: 'hi there' },
      model: 'test-model',
      _meta: { 'io.modelcontextprotocol/related-task': { taskId: 'client-task-1' } },
    });
    const result = await peer.next((m) => m.id === 1);
    expect(result.result.content[0].text).toBe('hi there');
    await peer.close();
  });

  it('sends a plain request to a client that does not run sampling as a task', async () => {
    const peer = await RawPeer.open(samplingServer());
    await initializeRaw(peer, '2025-11-25', { sampling: {} });
    peer.send({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'ask-model', arguments: {} } });
    const create = await peer.next((m) => m.method === 'sampling/createMessage');
    expect(create.params.task).toBeUndefined();
    answer(peer, create, { role: 'assistant', content: { type: 'text', text: 'plain' }, model: 'm' });
    expect((await peer.next((m) => m.id === 1)).result.content[0].text).toBe('plain');
    await peer.close();
  });

  it('cancels the client task when the request is cancelled', async () => {
    const peer = await RawPeer.open(samplingServer());
    await initializeRaw(peer, '2025-11-25', TASK_CAPABLE);
    peer.send({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'ask-model', arguments: {} } });
    const create = await peer.next((m) => m.method === 'sampling/createMessage');
    answer(peer, create, { task: task('working') });
    const poll = await peer.next((m) => m.method === 'tasks/get');
    answer(peer, poll, task('working'));
    peer.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } });
    const cancel = await peer.next((m) => m.method === 'tasks/cancel');
    expect(cancel.params).toEqual({ taskId: 'client-task-1' });
    answer(peer, cancel, task('cancelled'));
    await peer.close();
  });
});
