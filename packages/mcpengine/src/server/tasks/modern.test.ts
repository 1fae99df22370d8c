/** The tasks extension (`io.modelcontextprotocol/tasks`, 2026-07-28) on the wire, every message schema-checked. */
import { afterEach, describe, expect, it } from 'vitest';
import { assertAllTapsClean, modernParams, RawPeer } from '../../test/harness.js';
import { createTaskServer } from '../../test/task-server.js';
import { ProtocolError } from '../../protocol/errors.js';

afterEach(() => assertAllTapsClean());

const EXT = 'io.modelcontextprotocol/tasks';
const CAPS = 'io.modelcontextprotocol/clientCapabilities';
const WITH_TASKS = { [CAPS]: { extensions: { [EXT]: {} }, elicitation: { form: {} }, sampling: {} } };

let nextId = 1;
function call(peer: RawPeer, method: string, params: object = {}, meta: object = WITH_TASKS): Promise<any> {
  return peer.request(nextId++, method, modernParams(params as Record<string, unknown>, meta as never));
}

async function until(peer: RawPeer, taskId: string, done: (task: any) => boolean, timeoutMs = 3_000) {
  const start = Date.now();
  for (;;) {
    const response = await call(peer, 'tasks/get', { taskId });
    if (response.error) throw new Error(JSON.stringify(response.error));
    if (done(response.result)) return response.result;
    if (Date.now() - start > timeoutMs) throw new Error(`task ${taskId} stuck at ${response.result.status}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
const terminal = (task: any) => ['completed', 'failed', 'cancelled'].includes(task.status);

describe('tasks extension: negotiation', () => {
  it('advertises the extension in server/discover and not the 2025-11-25 tasks capability', async () => {
    const peer = await RawPeer.open(createTaskServer().server);
    const response = await call(peer, 'server/discover');
    expect(response.result.capabilities.extensions).toEqual({ [EXT]: {} });
    expect(response.result.capabilities.tasks).toBeUndefined();
    const list = await call(peer, 'tools/list');
    // The modern tool descriptor has no `execution`: task creation is server-directed.
    expect(list.result.tools.find((t: any) => t.name === 'must').execution).toBeUndefined();
  });

  it('runs optional tools synchronously for clients without the extension', async () => {
    const peer = await RawPeer.open(createTaskServer().server);
    const response = await call(peer, 'tools/call', { name: 'sleep', arguments: { ms: 1 } }, {});
    expect(response.result).toMatchObject({ resultType: 'complete', content: [{ text: 'slept 1' }] });
    expect(response.result.taskId).toBeUndefined();
  });

  it('answers -32021 naming the extension when a required tool meets a client without it', async () => {
    const peer = await RawPeer.open(createTaskServer().server);
    const response = await call(peer, 'tools/call', { name: 'must' }, {});
    expect(response.error).toMatchObject({
      code: -32021,
      data: { requiredCapabilities: { extensions: { [EXT]: {} } } },
    });
  });

  it('answers -32021 to tasks/get, tasks/update and tasks/cancel from clients without the extension', async () => {
    const peer = await RawPeer.open(createTaskServer().server);
    for (const [method, params] of [
      ['tasks/get', { taskId: 'gate-test' }],
      ['tasks/update', { taskId: 'gate-test', inputResponses: {} }],
      ['tasks/cancel', { taskId: 'gate-test' }],
    ] as const) {
      const response = await call(peer, method, params, {});
      expect(response.error.code, method).toBe(-32021);
    }
  });

  it('has no tasks/result and no tasks/list (-32601)', async () => {
    const peer = await RawPeer.open(createTaskServer().server);
    expect((await call(peer, 'tasks/result', { taskId: 'x' })).error.code).toBe(-32601);
    expect((await call(peer, 'tasks/list')).error.code).toBe(-32601);
  });

  it('has no tasks methods at all on a server without task-capable tools', async () => {
    const { McpServer } = await import('../index.js');
    const server = new McpServer({ name: 's', version: '1' });
    server.addTool({ name: 'plain', handler: () => 'x' });
    const peer = await RawPeer.open(server);
    expect((await call(peer, 'tasks/get', { taskId: 'x' })).error.code).toBe(-32601);
    expect((await call(peer, 'server/discover')).result.capabilities.extensions).toBeUndefined();
  });

  it('ignores the 2025-11-25 task param', async () => {
    const peer = await RawPeer.open(createTaskServer().server);
    const response = await call(peer, 'tools/call', { name: 'plain', task: { ttl: 60_000 } });
    expect(response.result).toMatchObject({ resultType: 'complete', content: [{ text: 'plain' }] });
  });
});

describe('tasks extension: lifecycle', () => {
  it('creates a flat CreateTaskResult and inlines the result when completed', async () => {
    const peer = await RawPeer.open(createTaskServer().server);
    const created = (await call(peer, 'tools/call', { name: 'sleep', arguments: { ms: 30 } })).result;
    expect(created).toMatchObject({
      resultType: 'task',
      status: 'working',
      ttlMs: 900_000,
      pollIntervalMs: 1_000,
    });
    expect(created.taskId).toMatch(/^[0-9a-f-]{36}$/);
    for (const key of ['task', 'result', 'error', 'inputRequests', 'requestState', 'ttl', 'pollInterval']) {
      expect(created, key).not.toHaveProperty(key);
    }
    expect(Date.parse(created.createdAt)).not.toBeNaN();
    // Strong consistency: an immediate tasks/get finds it.
    const working = (await call(peer, 'tasks/get', { taskId: created.taskId })).result;
    expect(working).toMatchObject({ resultType: 'complete', taskId: created.taskId, status: 'working' });
    expect(working.statusMessage).toBe('sleeping');
    const done = await until(peer, created.taskId, terminal);
    expect(done).toMatchObject({
      status: 'completed',
      result: { content: [{ type: 'text', text: 'slept 30' }] },
    });
    expect(done.result._meta?.['io.modelcontextprotocol/related-task']).toBeUndefined();
    expect(done).not.toHaveProperty('requestState');
  });

  it('reports a tool error as completed with isError, and a JSON-RPC error as failed', async () => {
    const peer = await RawPeer.open(createTaskServer().server);
    const boom = (await call(peer, 'tools/call', { name: 'boom' })).result;
    expect(await until(peer, boom.taskId, terminal)).toMatchObject({
      status: 'completed',
      result: { isError: true, content: [{ text: 'tool broke' }] },
    });
    const protocol = (await call(peer, 'tools/call', { name: 'protocol' })).result;
    const failed = await until(peer, protocol.taskId, terminal);
    expect(failed).toMatchObject({
      status: 'failed',
      statusMessage: 'backend unavailable',
      error: { code: -32603, message: 'backend unavailable', data: { retry: true } },
    });
    expect(failed).not.toHaveProperty('result');
  });

  it('never stores -32002 (forbidden at 2026-07-28): resource-not-found becomes -32602', async () => {
    const { server } = createTaskServer();
    server.addTool({
      name: 'missing',
      description: 'Reads a resource that does not exist',
      execution: { taskSupport: 'required' },
      handler: () => {
        throw new ProtocolError(-32002, 'Resource not found', { uri: 'x://nope' });
      },
    });
    const peer = await RawPeer.open(server);
    const created = (await call(peer, 'tools/call', { name: 'missing' })).result;
    expect(await until(peer, created.taskId, terminal)).toMatchObject({
      status: 'failed',
      error: { code: -32602, data: { uri: 'x://nope' } },
    });
  });

  it('cancels with an empty acknowledgement, stops the handler, and acknowledges again when finished', async () => {
    const { server, aborted } = createTaskServer();
    const peer = await RawPeer.open(server);
    const created = (await call(peer, 'tools/call', { name: 'sleep', arguments: { ms: 60_000 } })).result;
    const ack = await call(peer, 'tasks/cancel', { taskId: created.taskId });
    expect(Object.keys(ack.result).sort()).toEqual(['_meta', 'resultType']);
    expect(ack.result.resultType).toBe('complete');
    expect((await call(peer, 'tasks/get', { taskId: created.taskId })).result.status).toBe('cancelled');
    expect(aborted).toEqual(['sleep']);
    // Idempotent on a finished task.
    expect((await call(peer, 'tasks/cancel', { taskId: created.taskId })).result.resultType).toBe('complete');
    // The handler's late failure does not change the status.
    await new Promise((r) => setTimeout(r, 20));
    expect((await call(peer, 'tasks/get', { taskId: created.taskId })).result.status).toBe('cancelled');
  });

  it('answers -32602 for unknown ids and for ids that are not strings', async () => {
    const peer = await RawPeer.open(createTaskServer().server);
    for (const method of ['tasks/get', 'tasks/cancel']) {
      expect((await call(peer, method, { taskId: 'tasks-conformance-nonexistent-12345' })).error.code).toBe(
        -32602,
      );
      expect((await call(peer, method, { taskId: 42 })).error.code).toBe(-32602);
    }
    const update = await call(peer, 'tasks/update', { taskId: 'nope', inputResponses: {} });
    expect(update.error.code).toBe(-32602);
  });
});

describe('tasks extension: input while running', () => {
  it('parks the task input_required until tasks/update answers', async () => {
    const peer = await RawPeer.open(createTaskServer().server);
    const created = (await call(peer, 'tools/call', { name: 'ask' })).result;
    const parked = await until(peer, created.taskId, (t) => t.status === 'input_required');
    expect(parked.inputRequests).toEqual({
      name: {
        method: 'elicitation/create',
        params: { message: 'Name?', requestedSchema: expect.objectContaining({ type: 'object' }) },
      },
    });
    // Polling again shows the same snapshot.
    expect((await call(peer, 'tasks/get', { taskId: created.taskId })).result.inputRequests).toHaveProperty(
      'name',
    );
    const ack = await call(peer, 'tasks/update', {
      taskId: created.taskId,
      inputResponses: {
        name: { action: 'accept', content: { name: 'Ada' } },
        'unknown-key': { ignored: true },
      },
    });
    expect(ack.result.resultType).toBe('complete');
    expect(ack.result).not.toHaveProperty('status');
    const done = await until(peer, created.taskId, terminal);
    expect(done.result.content[0].text).toBe('Hello Ada');
  });

  it('accepts partial answers: the task stays input_required with only the open key', async () => {
    const peer = await RawPeer.open(createTaskServer().server);
    const created = (await call(peer, 'tools/call', { name: 'ask2' })).result;
    const parked = await until(peer, created.taskId, (t) => Object.keys(t.inputRequests ?? {}).length === 2);
    expect(Object.keys(parked.inputRequests).sort()).toEqual(['a', 'b']);
    await call(peer, 'tasks/update', {
      taskId: created.taskId,
      inputResponses: { a: { action: 'accept', content: { name: 'one' } } },
    });
    const partial = (await call(peer, 'tasks/get', { taskId: created.taskId })).result;
    expect(partial.status).toBe('input_required');
    expect(Object.keys(partial.inputRequests)).toEqual(['b']);
    // Answering `a` again is ignored (already answered), `b` completes the task.
    await call(peer, 'tasks/update', {
      taskId: created.taskId,
      inputResponses: {
        a: { action: 'accept', content: { name: 'ignored' } },
        b: { action: 'accept', content: { name: 'two' } },
      },
    });
    expect((await until(peer, created.taskId, terminal)).result.content[0].text).toBe('one+two');
  });

  it('rejects a malformed answer to an open key (-32602) and applies nothing', async () => {
    const peer = await RawPeer.open(createTaskServer().server);
    const created = (await call(peer, 'tools/call', { name: 'ask2' })).result;
    await until(peer, created.taskId, (t) => Object.keys(t.inputRequests ?? {}).length === 2);
    const bad = await call(peer, 'tasks/update', {
      taskId: created.taskId,
      inputResponses: { a: { action: 'accept', content: { name: 'ok' } }, b: { action: 'maybe' } },
    });
    expect(bad.error.code).toBe(-32602);
    const still = (await call(peer, 'tasks/get', { taskId: created.taskId })).result;
    expect(Object.keys(still.inputRequests).sort()).toEqual(['a', 'b']);
    expect(
      (await call(peer, 'tasks/update', { taskId: created.taskId, inputResponses: [] })).error.code,
    ).toBe(-32602);
    await call(peer, 'tasks/cancel', { taskId: created.taskId });
  });

  it('ignores updates to finished tasks', async () => {
    const peer = await RawPeer.open(createTaskServer().server);
    const created = (await call(peer, 'tools/call', { name: 'sleep', arguments: { ms: 1 } })).result;
    await until(peer, created.taskId, terminal);
    const ack = await call(peer, 'tasks/update', {
      taskId: created.taskId,
      inputResponses: { name: { action: 'accept', content: { name: 'late' } } },
    });
    expect(ack.result.resultType).toBe('complete');
    expect((await call(peer, 'tasks/get', { taskId: created.taskId })).result.status).toBe('completed');
  });

  it('fails the task (tool error) when a handler reuses an answered key', async () => {
    const peer = await RawPeer.open(createTaskServer().server);
    const created = (await call(peer, 'tools/call', { name: 'reuse' })).result;
    await until(peer, created.taskId, (t) => t.status === 'input_required');
    await call(peer, 'tasks/update', {
      taskId: created.taskId,
      inputResponses: { k: { action: 'accept', content: { name: 'x' } } },
    });
    const done = await until(peer, created.taskId, terminal);
    expect(done.result.isError).toBe(true);
    expect(done.result.content[0].text).toMatch(/already answered/);
  });

  it('needs the client capability for the input it asks (the task fails with -32021)', async () => {
    const peer = await RawPeer.open(createTaskServer().server);
    const created = (
      await call(peer, 'tools/call', { name: 'sample' }, { [CAPS]: { extensions: { [EXT]: {} } } })
    ).result;
    const done = await until(peer, created.taskId, terminal);
    expect(done).toMatchObject({ status: 'failed', error: { code: -32021 } });
  });
});

describe('tasks extension: multi round-trip input before the task', () => {
  it('resolves prepare rounds synchronously, then creates the task', async () => {
    const peer = await RawPeer.open(createTaskServer().server);
    const round1 = (await call(peer, 'tools/call', { name: 'prep' })).result;
    expect(round1.resultType).toBe('input_required');
    expect(round1).not.toHaveProperty('taskId');
    expect(Object.keys(round1.inputRequests)).toEqual(['who']);
    const round2 = (
      await call(peer, 'tools/call', {
        name: 'prep',
        inputResponses: { who: { action: 'accept', content: { name: 'Alice' } } },
        requestState: round1.requestState,
      })
    ).result;
    expect(round2).toMatchObject({ resultType: 'task', ttlMs: 120_000, pollIntervalMs: 50 });
    expect(round2).not.toHaveProperty('requestState');
    expect(round2).not.toHaveProperty('inputRequests');
    const done = await until(peer, round2.taskId, terminal);
    expect(done.result.content[0].text).toBe('Hi Alice');
  });

  it('answers at once when prepare returns a result (no task)', async () => {
    const peer = await RawPeer.open(createTaskServer().server);
    const response = await call(peer, 'tools/call', { name: 'prep', arguments: { now: true } });
    expect(response.result).toMatchObject({
      resultType: 'complete',
      content: [{ text: 'answered at once' }],
    });
  });

  it('reports invalid arguments of a task tool synchronously, as a tool error', async () => {
    const peer = await RawPeer.open(createTaskServer().server);
    const response = await call(peer, 'tools/call', { name: 'sleep', arguments: { ms: 'soon' } });
    expect(response.result).toMatchObject({ resultType: 'complete', isError: true });
  });
});

describe('tasks extension: notifications/tasks on subscriptions/listen', () => {
  it("acknowledges the caller's known task ids and reports their changes", async () => {
    const { server, gates } = createTaskServer();
    const peer = await RawPeer.open(server);
    const created = (await call(peer, 'tools/call', { name: 'gate', arguments: { name: 'g1' } })).result;
    peer.send({
      jsonrpc: '2.0',
      id: 'listen-1',
      method: 'subscriptions/listen',
      params: modernParams(
        { notifications: { taskIds: [created.taskId, 'unknown-task'] } },
        WITH_TASKS as never,
      ),
    });
    const ack = await peer.next((m) => m.method === 'notifications/subscriptions/acknowledged');
    expect(ack.params.notifications).toEqual({ taskIds: [created.taskId] });
    gates.release('g1');
    const note = await peer.next((m) => m.method === 'notifications/tasks');
    expect(note.params).toMatchObject({
      taskId: created.taskId,
      status: 'completed',
      result: { content: [{ text: 'gate g1 opened' }] },
      _meta: { 'io.modelcontextprotocol/subscriptionId': 'listen-1' },
    });
    peer.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'listen-1' } });
  });

  it('answers -32021 when a client without the extension asks for task notifications', async () => {
    const peer = await RawPeer.open(createTaskServer().server);
    const response = await call(peer, 'subscriptions/listen', { notifications: { taskIds: ['x'] } }, {});
    expect(response.error.code).toBe(-32021);
  });
});
