/**
 * Hostile and unlucky clients: unknown, expired and foreign task ids, late updates, shared input keys,
 * cancellation races, limits. Every answer is the spec's, and nothing crashes.
 */
import { tapTransport, WireTap } from '@mcpengine/oracle';
import { afterEach, describe, expect, it } from 'vitest';
import type { AuthInfo } from '../context.js';
import { assertAllTapsClean, initializeRaw, modernParams, RawPeer } from '../../test/harness.js';
import { createTaskServer, engineOf } from '../../test/task-server.js';
import { createMemoryTransportPair } from '../../transports/memory/index.js';
import type { McpServer } from '../server.js';

const taps: WireTap[] = [];
afterEach(() => {
  assertAllTapsClean();
  for (const tap of taps.splice(0)) tap.assertClean();
});

const EXT = 'io.modelcontextprotocol/tasks';
const WITH_TASKS = {
  'io.modelcontextprotocol/clientCapabilities': { extensions: { [EXT]: {} }, elicitation: { form: {} } },
};

/** A modern peer whose connection carries an authenticated identity. */
async function authedPeer(server: McpServer, auth: AuthInfo) {
  const [clientSide, serverSide] = createMemoryTransportPair();
  await server.connect(serverSide, { auth });
  const tap = new WireTap({ validate: ['server'] });
  taps.push(tap);
  const transport = tapTransport(clientSide, tap, 'client');
  const waiting = new Map<unknown, (message: any) => void>();
  const received: any[] = [];
  await transport.start({
    message: (text) => {
      const message = JSON.parse(text);
      received.push(message);
      waiting.get(message.id)?.(message);
    },
    invalid: () => {},
    close: () => {},
  });
  let id = 0;
  return {
    received,
    request(method: string, params: object = {}): Promise<any> {
      const requestId = `${auth.subject}-${++id}`;
      const answer = new Promise((resolve) => waiting.set(requestId, resolve));
      transport.send(
        JSON.stringify({
          jsonrpc: '2.0',
          id: requestId,
          method,
          params: modernParams(params as never, WITH_TASKS),
        }),
      );
      return answer;
    },
  };
}

let nextId = 1;
function modern(peer: RawPeer, method: string, params: object = {}): Promise<any> {
  return peer.request(nextId++, method, modernParams(params as never, WITH_TASKS));
}
function legacy(peer: RawPeer, method: string, params: object = {}): Promise<any> {
  return peer.request(nextId++, method, params);
}
const tick = (ms = 10) => new Promise((r) => setTimeout(r, ms));

describe('task ids that do not resolve', () => {
  it("treats another principal's task as unknown (modern)", async () => {
    const { server, gates } = createTaskServer();
    const alice = await authedPeer(server, { clientId: 'app', subject: 'alice', scopes: [] });
    const bob = await authedPeer(server, { clientId: 'app', subject: 'bob', scopes: [] });
    const created = (await alice.request('tools/call', { name: 'gate', arguments: { name: 'own' } })).result;
    expect((await alice.request('tasks/get', { taskId: created.taskId })).result.status).toBe('working');
    for (const [method, params] of [
      ['tasks/get', {}],
      ['tasks/cancel', {}],
      ['tasks/update', { inputResponses: {} }],
    ] as const) {
      const response = await bob.request(method, { taskId: created.taskId, ...params });
      expect(response.error, method).toEqual({
        code: -32602,
        message: 'Failed to retrieve task: Task not found',
      });
    }
    // Bob may not listen to Alice's task: the acknowledgement agrees to nothing.
    void bob.request('subscriptions/listen', { notifications: { taskIds: [created.taskId] } });
    await tick();
    const ack = bob.received.find((m) => m.method === 'notifications/subscriptions/acknowledged');
    expect(ack.params.notifications).toEqual({ taskIds: [] });
    gates.release('own');
    await tick();
    expect(bob.received.some((m) => m.method === 'notifications/tasks')).toBe(false);
    await server.close({ drainTimeoutMs: 10 });
  });

  it('forgets expired tasks: -32602 in both eras, running work stopped', async () => {
    const { server, aborted } = createTaskServer({ tasks: { defaultTtlMs: 60, maxTtlMs: 60 } });
    const peer = await RawPeer.open(server);
    const finished = (await modern(peer, 'tools/call', { name: 'must' })).result.taskId;
    const running = (await modern(peer, 'tools/call', { name: 'sleep', arguments: { ms: 60_000 } })).result
      .taskId;
    await tick(100);
    expect((await modern(peer, 'tasks/get', { taskId: finished })).error.code).toBe(-32602);
    expect((await modern(peer, 'tasks/get', { taskId: running })).error.code).toBe(-32602);
    expect(aborted).toEqual(['sleep']);
    expect(engineOf(server).runningCount).toBe(0);

    const old = await RawPeer.open(server);
    await initializeRaw(old, '2025-11-25');
    const legacyTask = (
      await legacy(old, 'tools/call', { name: 'gate', arguments: { name: 'never' }, task: {} })
    ).result.task.taskId;
    // A blocked tasks/result ends with -32602 when its task expires.
    const blocked = legacy(old, 'tasks/result', { taskId: legacyTask });
    await tick(100);
    expect((await blocked).error.code).toBe(-32602);
  });
});

describe('input races', () => {
  it('shares one input request between branches that ask the same key', async () => {
    const { server } = createTaskServer();
    server.addTool({
      name: 'twice',
      execution: { taskSupport: 'required' },
      handler: async (_args, ctx) => {
        const form = { type: 'object' as const, properties: { name: { type: 'string' } } };
        const [a, b] = await Promise.all([
          ctx.elicit({ message: 'Same?', requestedSchema: form }, { key: 'same' }),
          ctx.elicit({ message: 'Same?', requestedSchema: form }, { key: 'same' }),
        ]);
        return `${String(a.content?.name)}/${String(b.content?.name)}`;
      },
    });
    const peer = await RawPeer.open(server);
    const taskId = (await modern(peer, 'tools/call', { name: 'twice' })).result.taskId;
    await tick();
    const parked = (await modern(peer, 'tasks/get', { taskId })).result;
    expect(Object.keys(parked.inputRequests)).toEqual(['same']);
    await modern(peer, 'tasks/update', {
      taskId,
      inputResponses: { same: { action: 'accept', content: { name: 'x' } } },
    });
    await tick();
    expect((await modern(peer, 'tasks/get', { taskId })).result.result.content[0].text).toBe('x/x');
  });

  it('cancelling an input_required task stops the handler and ignores later answers', async () => {
    const peer = await RawPeer.open(createTaskServer().server);
    const taskId = (await modern(peer, 'tools/call', { name: 'ask' })).result.taskId;
    await tick();
    expect((await modern(peer, 'tasks/get', { taskId })).result.status).toBe('input_required');
    const [cancel, update] = await Promise.all([
      modern(peer, 'tasks/cancel', { taskId }),
      modern(peer, 'tasks/update', {
        taskId,
        inputResponses: { name: { action: 'accept', content: { name: 'x' } } },
      }),
    ]);
    expect(cancel.result.resultType).toBe('complete');
    expect(update.result.resultType).toBe('complete');
    await tick();
    const task = (await modern(peer, 'tasks/get', { taskId })).result;
    expect(task.status).toBe('cancelled');
    expect(task).not.toHaveProperty('inputRequests');
  });
});

describe('cancellation races', () => {
  it('keeps the first terminal status when cancel and completion cross', async () => {
    const { server, gates } = createTaskServer();
    const peer = await RawPeer.open(server);
    const taskId = (await modern(peer, 'tools/call', { name: 'gate', arguments: { name: 'race' } })).result
      .taskId;
    gates.release('race');
    const ack = await modern(peer, 'tasks/cancel', { taskId });
    expect(ack.result.resultType).toBe('complete');
    await tick();
    const status = (await modern(peer, 'tasks/get', { taskId })).result.status;
    expect(['completed', 'cancelled']).toContain(status);
    await tick();
    expect((await modern(peer, 'tasks/get', { taskId })).result.status).toBe(status);
  });

  it('legacy: of two concurrent cancels one wins and the other gets -32602', async () => {
    const { server } = createTaskServer();
    const peer = await RawPeer.open(server);
    await initializeRaw(peer, '2025-11-25');
    const taskId = (await legacy(peer, 'tools/call', { name: 'gate', arguments: { name: 'x' }, task: {} }))
      .result.task.taskId;
    const blocked = legacy(peer, 'tasks/result', { taskId });
    const results = await Promise.all([
      legacy(peer, 'tasks/cancel', { taskId }),
      legacy(peer, 'tasks/cancel', { taskId }),
    ]);
    expect(results.filter((r) => r.result?.status === 'cancelled')).toHaveLength(1);
    expect(results.filter((r) => r.error?.code === -32602)).toHaveLength(1);
    // The blocked tasks/result wakes up: a cancelled task has no result.
    expect((await blocked).error.code).toBe(-32602);
  });

  it('legacy: cancelling tasks/result itself leaves the task running', async () => {
    const { server, gates } = createTaskServer();
    const peer = await RawPeer.open(server);
    await initializeRaw(peer, '2025-11-25');
    const taskId = (await legacy(peer, 'tools/call', { name: 'gate', arguments: { name: 'y' }, task: {} }))
      .result.task.taskId;
    peer.send({ jsonrpc: '2.0', id: 'res', method: 'tasks/result', params: { taskId } });
    await tick();
    peer.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'res' } });
    await tick();
    expect(peer.received.some((m: any) => m.id === 'res')).toBe(false);
    expect((await legacy(peer, 'tasks/get', { taskId })).result.status).toBe('working');
    gates.release('y');
    expect((await legacy(peer, 'tasks/result', { taskId })).result.content[0].text).toBe('gate y opened');
  });
});

describe('limits', () => {
  it('refuses more unfinished tasks per requestor than allowed, with a clear error', async () => {
    const { server } = createTaskServer({ tasks: { maxActivePerOwner: 3 } });
    const peer = await RawPeer.open(server);
    for (let i = 0; i < 3; i++)
      await modern(peer, 'tools/call', { name: 'gate', arguments: { name: `l${i}` } });
    const refused = await modern(peer, 'tools/call', { name: 'gate', arguments: { name: 'l3' } });
    expect(refused.error).toMatchObject({
      code: -32603,
      message: expect.stringContaining('Too many unfinished tasks'),
    });
  });

  it('fails a task whose result does not fit instead of keeping it', async () => {
    const { server } = createTaskServer({ tasks: { maxBytes: 50_000 } });
    const peer = await RawPeer.open(server);
    const taskId = (await modern(peer, 'tools/call', { name: 'big', arguments: { size: 200_000 } })).result
      .taskId;
    await tick(20);
    expect((await modern(peer, 'tasks/get', { taskId })).result).toMatchObject({
      status: 'failed',
      error: { code: -32603, message: 'The task result is too large to keep' },
    });
  });

  it('rejects malformed tool task settings at registration', () => {
    const { server } = createTaskServer();
    const handler = () => 'x';
    expect(() =>
      server.addTool({ name: 'a', execution: { taskSupport: 'often' as never }, handler }),
    ).toThrow(/taskSupport/);
    expect(() => server.addTool({ name: 'b', task: { ttlMs: 5_000 }, handler })).toThrow(/taskSupport/);
    expect(() =>
      server.addTool({ name: 'c', execution: { taskSupport: 'optional' }, task: { ttlMs: 0 }, handler }),
    ).toThrow(/ttlMs/);
    expect(() =>
      server.addTool({
        name: 'd',
        execution: { taskSupport: 'optional' },
        task: { pollIntervalMs: 1.5 },
        handler,
      }),
    ).toThrow(/pollIntervalMs/);
  });

  it('rejects malformed task settings at construction', () => {
    expect(() => createTaskServer({ tasks: { maxTasks: 0 } })).toThrow(TypeError);
    expect(() => createTaskServer({ tasks: { defaultTtlMs: 10, maxTtlMs: 5 } })).toThrow(TypeError);
  });
});
