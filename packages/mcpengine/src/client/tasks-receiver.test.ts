/**
 * 2025-11-25: our client receiving task-augmented sampling and elicitation from a server (driven by hand here),
 * with every message of both sides schema-checked.
 */
import { tapTransport, WireTap } from '@mcpengine/oracle';
import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryTransportPair } from '../transports/memory/index.js';
import { Client } from './client.js';
import type { ClientOptions } from './types.js';

const taps: WireTap[] = [];
afterEach(() => {
  for (const tap of taps.splice(0)) tap.assertClean();
});

const RELATED = 'io.modelcontextprotocol/related-task';

/** A hand-driven 2025-11-25 server: answers initialize, then sends whatever the test says. */
async function fakeServer(options: Partial<ClientOptions>, validate = true) {
  const [clientSide, serverSide] = createMemoryTransportPair();
  const tap = new WireTap();
  if (validate) taps.push(tap);
  const received: any[] = [];
  const waiters: { match: (m: any) => boolean; resolve: (m: any) => void }[] = [];
  let initializeParams: any;
  await serverSide.start({
    message: (text) => {
      const message = JSON.parse(text);
      if (message.method === 'initialize') {
        initializeParams = message.params;
        serverSide.send(
          JSON.stringify({
            jsonrpc: '2.0',
            id: message.id,
            result: {
              protocolVersion: '2025-11-25',
              capabilities: {},
              serverInfo: { name: 'fake', version: '1' },
            },
          }),
        );
        return;
      }
      received.push(message);
      const index = waiters.findIndex((w) => w.match(message));
      if (index >= 0) waiters.splice(index, 1)[0]!.resolve(message);
    },
    invalid: () => {},
    close: () => {},
  });
  const mcpClient = new Client({ name: 'c', version: '1', ...options });
  const client = await mcpClient.connect(tapTransport(clientSide, tap, 'client'), { revision: '2025-11-25' });
  let id = 0;
  const next = (match: (m: any) => boolean): Promise<any> => {
    const found = received.find(match);
    if (found) return Promise.resolve(found);
    return new Promise((resolve) => waiters.push({ match, resolve }));
  };
  return {
    client,
    initializeParams,
    received,
    next,
    async request(method: string, params: object): Promise<any> {
      const requestId = `s${++id}`;
      serverSide.send(JSON.stringify({ jsonrpc: '2.0', id: requestId, method, params }));
      return next((m) => m.id === requestId && !('method' in m));
    },
  };
}

const SAMPLING = {
  messages: [{ role: 'user', content: { type: 'text', text: 'Hi' } }],
  maxTokens: 5,
};

describe('client as a 2025-11-25 task receiver', () => {
  it('declares task support for the handlers it has', async () => {
    const server = await fakeServer({
      handlers: { sampling: () => ({ role: 'assistant', model: 'm', content: { type: 'text', text: 'x' } }) },
    });
    expect(server.initializeParams.capabilities.tasks).toEqual({
      list: {},
      cancel: {},
      requests: { sampling: { createMessage: {} } },
    });
    await server.client.close();
  });

  it('runs a task-augmented sampling request and serves tasks/get, tasks/result and tasks/list', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const server = await fakeServer({
      handlers: {
        sampling: async () => {
          await gate;
          return { role: 'assistant', model: 'm', content: { type: 'text', text: 'sampled' } };
        },
      },
    });
    const created = await server.request('sampling/createMessage', { ...SAMPLING, task: { ttl: 60_000 } });
    expect(created.result.task).toMatchObject({ status: 'working', ttl: 60_000 });
    const taskId = created.result.task.taskId;
    expect((await server.request('tasks/get', { taskId })).result).toMatchObject({
      taskId,
      status: 'working',
    });
    const listed = await server.request('tasks/list', {});
    expect(listed.result.tasks.map((t: any) => t.taskId)).toEqual([taskId]);
    const pending = server.request('tasks/result', { taskId });
    release();
    const payload = await pending;
    expect(payload.result).toMatchObject({
      role: 'assistant',
      content: { text: 'sampled' },
      _meta: { [RELATED]: { taskId } },
    });
    const status = await server.next((m) => m.method === 'notifications/tasks/status');
    expect(status.params).toMatchObject({ taskId, status: 'completed' });
    const again = await server.request('tasks/cancel', { taskId });
    expect(again.error).toMatchObject({ code: -32602 });
    await server.client.close();
  });

  it('cancels a running elicitation task and reports unknown ids', async () => {
    let aborted = false;
    const server = await fakeServer({
      handlers: {
        elicitation: (_params, ctx) =>
          new Promise((_resolve, reject) => {
            ctx.signal.addEventListener('abort', () => {
              aborted = true;
              reject(new Error('aborted'));
            });
          }),
      },
    });
    const created = await server.request('elicitation/create', {
      message: 'Name?',
      requestedSchema: { type: 'object', properties: { name: { type: 'string' } } },
      task: {},
    });
    const taskId = created.result.task.taskId;
    const cancelled = await server.request('tasks/cancel', { taskId });
    expect(cancelled.result).toMatchObject({ taskId, status: 'cancelled' });
    expect(aborted).toBe(true);
    expect((await server.request('tasks/result', { taskId })).error.code).toBe(-32602);
    expect((await server.request('tasks/get', { taskId: 'nope' })).error.code).toBe(-32602);
    expect((await server.request('tasks/list', { cursor: 'bogus' })).error.code).toBe(-32602);
    await server.client.close();
  });

  it('answers a request with a task param normally when it did not declare task support for it', async () => {
    // Not schema-checked: the oracle expects a CreateTaskResult for any request carrying `task`, while the
    // spec has a receiver that never declared task support answer such a request normally.
    const server = await fakeServer(
      { handlers: { elicitation: () => ({ action: 'decline' }) }, tasks: { receive: false } },
      false,
    );
    expect(server.initializeParams.capabilities.tasks).toBeUndefined();
    const answer = await server.request('elicitation/create', {
      message: 'Name?',
      requestedSchema: { type: 'object', properties: {} },
      task: {},
    });
    // The receiver ignores the task augmentation it never declared (2025-11-25 "Task Support and Handling").
    expect(answer.result).toEqual({ action: 'decline' });
    expect((await server.request('tasks/get', { taskId: 'x' })).error.code).toBe(-32601);
    await server.client.close();
  });
});
