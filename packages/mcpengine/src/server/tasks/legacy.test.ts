/** 2025-11-25 tasks (the experimental utility) on the wire, every message the server sends schema-checked. */
import { afterEach, describe, expect, it } from 'vitest';
import { assertAllTapsClean, initializeRaw, RawPeer } from '../../test/harness.js';
import { createTaskServer, engineOf } from '../../test/task-server.js';
import type { MemoryTaskStore } from './store.js';

afterEach(() => assertAllTapsClean());

const RELATED = 'io.modelcontextprotocol/related-task';
let nextId = 1;

async function open(options: Parameters<typeof createTaskServer>[0] = {}, capabilities: object = {}) {
  const fixture = createTaskServer(options);
  const peer = await RawPeer.open(fixture.server);
  const init = await initializeRaw(peer, '2025-11-25', capabilities);
  return { ...fixture, peer, init };
}

function request(peer: RawPeer, method: string, params: object = {}): Promise<any> {
  return peer.request(nextId++, method, params);
}

async function until(peer: RawPeer, taskId: string, done: (task: any) => boolean) {
  for (let i = 0; i < 300; i++) {
    const response = await request(peer, 'tasks/get', { taskId });
    if (response.error) throw new Error(JSON.stringify(response.error));
    if (done(response.result)) return response.result;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error('task stuck');
}
const terminal = (task: any) => ['completed', 'failed', 'cancelled'].includes(task.status);

describe('2025-11-25 tasks: negotiation', () => {
  it("declares the tasks capability and each tool's taskSupport", async () => {
    const { peer, init } = await open();
    expect(init.result.capabilities.tasks).toEqual({
      list: {},
      cancel: {},
      requests: { tools: { call: {} } },
    });
    expect(init.result.capabilities.extensions).toBeUndefined();
    const tools = (await request(peer, 'tools/list')).result.tools;
    expect(tools.find((t: any) => t.name === 'must').execution).toEqual({ taskSupport: 'required' });
    expect(tools.find((t: any) => t.name === 'sleep').execution).toEqual({ taskSupport: 'optional' });
    expect(tools.find((t: any) => t.name === 'plain').execution).toBeUndefined();
  });

  it('answers -32601 for a required tool without task and a forbidden tool with one', async () => {
    const { peer } = await open();
    expect((await request(peer, 'tools/call', { name: 'must' })).error.code).toBe(-32601);
    expect((await request(peer, 'tools/call', { name: 'plain', task: {} })).error.code).toBe(-32601);
    expect((await request(peer, 'tools/call', { name: 'sleep', task: { ttl: 'long' } })).error.code).toBe(
      -32602,
    );
    // Optional tools still run synchronously without `task`.
    const sync = await request(peer, 'tools/call', { name: 'sleep', arguments: { ms: 1 } });
    expect(sync.result.content[0].text).toBe('slept 1');
  });

  it('runs task tools synchronously in revisions without tasks', async () => {
    const fixture = createTaskServer();
    const peer = await RawPeer.open(fixture.server);
    const init = await initializeRaw(peer, '2025-06-18');
    expect(init.result.capabilities.tasks).toBeUndefined();
    const response = await request(peer, 'tools/call', { name: 'must', task: {} });
    expect(response.result.content[0].text).toBe('done');
    expect((await request(peer, 'tasks/get', { taskId: 'x' })).error.code).toBe(-32601);
  });
});

describe('2025-11-25 tasks: lifecycle', () => {
  it('creates a task, reports status, and returns the result from tasks/result', async () => {
    const { peer } = await open();
    const created = (
      await request(peer, 'tools/call', {
        name: 'sleep',
        arguments: { ms: 30 },
        task: { ttl: 60_000 },
        _meta: { progressToken: 'p1' },
      })
    ).result;
    expect(created.task).toMatchObject({ status: 'working', ttl: 60_000, pollInterval: 1_000 });
    expect(created.task).not.toHaveProperty('ttlMs');
    const taskId = created.task.taskId;
    const got = (await request(peer, 'tasks/get', { taskId })).result;
    expect(got).toMatchObject({ taskId, status: 'working', ttl: 60_000 });
    expect(got._meta?.[RELATED]).toBeUndefined();
    const payload = await request(peer, 'tasks/result', { taskId });
    expect(payload.result).toEqual({
      content: [{ type: 'text', text: 'slept 30' }],
      _meta: { [RELATED]: { taskId } },
    });
    // The progress token stays valid for the task, and its notifications name the task.
    const progress = peer.received.find((m: any) => m.method === 'notifications/progress') as any;
    expect(progress.params).toMatchObject({
      progressToken: 'p1',
      message: 'sleeping',
      _meta: { [RELATED]: { taskId } },
    });
    const statuses = peer.received
      .filter((m: any) => m.method === 'notifications/tasks/status')
      .map((m: any) => m.params.status);
    expect(statuses).toContain('completed');
  });

  it('caps the requested ttl at the server maximum', async () => {
    const { peer } = await open({ tasks: { maxTtlMs: 5_000, defaultTtlMs: 5_000 } });
    const created = (await request(peer, 'tools/call', { name: 'must', task: { ttl: 86_400_000 } })).result;
    expect(created.task.ttl).toBe(5_000);
  });

  it('fails tasks whose tool reported isError, and tasks/result still returns that result', async () => {
    const { peer } = await open();
    const taskId = (await request(peer, 'tools/call', { name: 'boom', task: {} })).result.task.taskId;
    const done = await until(peer, taskId, terminal);
    expect(done).toMatchObject({ status: 'failed', statusMessage: 'tool broke' });
    const payload = await request(peer, 'tasks/result', { taskId });
    expect(payload.result).toMatchObject({ isError: true, content: [{ text: 'tool broke' }] });
  });

  it('returns the JSON-RPC error of a failed request from tasks/result', async () => {
    const { peer } = await open();
    const taskId = (await request(peer, 'tools/call', { name: 'protocol', task: {} })).result.task.taskId;
    const payload = await request(peer, 'tasks/result', { taskId });
    expect(payload.error).toEqual({ code: -32603, message: 'backend unavailable', data: { retry: true } });
  });

  it('turns invalid arguments into a failed task (the client asked for a task)', async () => {
    const { peer } = await open();
    const response = await request(peer, 'tools/call', { name: 'sleep', arguments: { ms: 'x' }, task: {} });
    expect(response.result.task.status).toBe('failed');
    const payload = await request(peer, 'tasks/result', { taskId: response.result.task.taskId });
    expect(payload.result.isError).toBe(true);
  });

  it('cancels a working task before answering, and refuses to cancel a finished one', async () => {
    const { peer, aborted } = await open();
    const taskId = (await request(peer, 'tools/call', { name: 'sleep', arguments: { ms: 60_000 }, task: {} }))
      .result.task.taskId;
    const cancelled = await request(peer, 'tasks/cancel', { taskId });
    expect(cancelled.result).toMatchObject({ taskId, status: 'cancelled' });
    expect(aborted).toEqual(['sleep']);
    const again = await request(peer, 'tasks/cancel', { taskId });
    expect(again.error).toMatchObject({ code: -32602, message: expect.stringContaining("'cancelled'") });
    expect((await request(peer, 'tasks/result', { taskId })).error.code).toBe(-32602);
  });

  it("lists the session's tasks with signed cursors", async () => {
    const { peer } = await open({ pageSize: 2 });
    const ids: string[] = [];
    for (let i = 0; i < 5; i++)
      ids.push((await request(peer, 'tools/call', { name: 'must', task: {} })).result.task.taskId);
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = (await request(peer, 'tasks/list', cursor ? { cursor } : {})).result;
      expect(page.tasks.length).toBeLessThanOrEqual(2);
      seen.push(...page.tasks.map((t: any) => t.taskId));
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).toEqual(ids);
    expect((await request(peer, 'tasks/list', { cursor: 'forged.cursor' })).error.code).toBe(-32602);
  });
});

describe('2025-11-25 tasks: input while running', () => {
  it('goes input_required and sends the elicitation through tasks/result, tagged with the task', async () => {
    const { peer } = await open({}, { elicitation: { form: {} } });
    const taskId = (await request(peer, 'tools/call', { name: 'ask', task: {} })).result.task.taskId;
    await until(peer, taskId, (t) => t.status === 'input_required');
    // The request waits for a tasks/result stream: nothing was sent yet.
    expect(peer.received.some((m: any) => m.method === 'elicitation/create')).toBe(false);
    peer.send({ jsonrpc: '2.0', id: 'r1', method: 'tasks/result', params: { taskId } });
    const ask = await peer.next((m) => m.method === 'elicitation/create');
    expect(ask.params._meta).toEqual({ [RELATED]: { taskId } });
    peer.send({ jsonrpc: '2.0', id: ask.id, result: { action: 'accept', content: { name: 'Grace' } } });
    const payload = await peer.next((m) => m.id === 'r1');
    expect(payload.result.content[0].text).toBe('Hello Grace');
  });

  it("fails the handler's ask when the client lacks the capability", async () => {
    const { peer } = await open();
    const taskId = (await request(peer, 'tools/call', { name: 'ask', task: {} })).result.task.taskId;
    const payload = await request(peer, 'tasks/result', { taskId });
    expect(payload.result.isError).toBe(true);
  });
});

describe('2025-11-25 tasks: ownership', () => {
  it("hides a session's tasks from other sessions", async () => {
    const { server } = createTaskServer();
    const a = await RawPeer.open(server);
    await initializeRaw(a, '2025-11-25');
    const b = await RawPeer.open(server);
    await initializeRaw(b, '2025-11-25');
    const taskId = (await request(a, 'tools/call', { name: 'must', task: {} })).result.task.taskId;
    for (const method of ['tasks/get', 'tasks/result', 'tasks/cancel']) {
      expect((await request(b, method, { taskId })).error, method).toMatchObject({ code: -32602 });
    }
    expect((await request(b, 'tasks/list')).result.tasks).toEqual([]);
    expect((await request(a, 'tasks/list')).result.tasks).toHaveLength(1);
  });

  it("drops a session's tasks when the session ends", async () => {
    const { server, aborted } = createTaskServer();
    const peer = await RawPeer.open(server);
    await initializeRaw(peer, '2025-11-25');
    await request(peer, 'tools/call', { name: 'sleep', arguments: { ms: 60_000 }, task: {} });
    await request(peer, 'tools/call', { name: 'must', task: {} });
    const engine = engineOf(server);
    expect((engine.store as MemoryTaskStore).size).toBe(2);
    await peer.close();
    await new Promise((r) => setTimeout(r, 20));
    expect((engine.store as MemoryTaskStore).size).toBe(0);
    expect(engine.runningCount).toBe(0);
    expect(aborted).toEqual(['sleep']);
  });
});
