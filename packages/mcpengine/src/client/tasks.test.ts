/** Our client's task API against our server, in both eras, every message on the wire schema-checked. */
import { afterEach, describe, expect, it } from 'vitest';
import { RemoteError, RequestAbortedError } from '../protocol/errors.js';
import { assertAllTapsClean, connect } from '../test/harness.js';
import { createTestServer } from '../test/fixture-server.js';
import { createTaskServer } from '../test/task-server.js';
import type { ClientOptions } from './types.js';

afterEach(() => assertAllTapsClean());

const handlers: ClientOptions['handlers'] = {
  elicitation: () => ({ action: 'accept', content: { name: 'Ada' } }),
  sampling: () => ({ role: 'assistant', model: 'm', content: { type: 'text', text: 'hey' } }),
};

function fixture(pollIntervalMs = 20) {
  return createTaskServer({ tasks: { pollIntervalMs } });
}

for (const revision of ['2026-07-28', '2025-11-25'] as const) {
  describe(`client tasks at ${revision}`, () => {
    it('calls a tool as a task and awaits its result', async () => {
      const { client } = await connect(fixture().server, { handlers }, { revision });
      expect(client.tasks.supported).toBe(true);
      const task = await client.tasks.callTool({ name: 'sleep', arguments: { ms: 30 } });
      expect(task.taskId).toBeTypeOf('string');
      expect(task.created?.status).toBe('working');
      expect((await task.get()).taskId).toBe(task.taskId);
      const seen: string[] = [];
      const result = await task.result({ onStatus: (s) => seen.push(s.status) });
      expect(result.content).toEqual([{ type: 'text', text: 'slept 30' }]);
      expect(result._meta).toBeUndefined();
      expect(seen[0]).toBe('working');
      await client.close();
    });

    it("answers the task's input requests with the client's handlers, once each", async () => {
      let asked = 0;
      const { client } = await connect(
        fixture().server,
        {
          handlers: {
            elicitation: (params) => {
              asked++;
              return { action: 'accept', content: { name: `${params.message} Ada` } };
            },
          },
        },
        { revision },
      );
      const task = await client.tasks.callTool({ name: 'ask2' });
      expect(await task.result()).toMatchObject({ content: [{ text: 'A? Ada+B? Ada' }] });
      expect(asked).toBe(2);
      await client.close();
    });

    it('cancels: waiting ends with RequestAbortedError and the task reads cancelled', async () => {
      const { client } = await connect(fixture().server, { handlers }, { revision });
      const task = await client.tasks.callTool({ name: 'sleep', arguments: { ms: 60_000 } });
      const waiting = task.result();
      await task.cancel();
      await expect(waiting).rejects.toBeInstanceOf(RequestAbortedError);
      expect((await task.get()).status).toBe('cancelled');
      await client.close();
    });

    it('surfaces a JSON-RPC failure as RemoteError and a tool error as an isError result', async () => {
      const { client } = await connect(fixture().server, { handlers }, { revision });
      const failed = await client.tasks.callTool({ name: 'protocol' });
      await expect(failed.result()).rejects.toMatchObject({ code: -32603, message: 'backend unavailable' });
      const toolError = await client.tasks.callTool({ name: 'boom' });
      expect(await toolError.result()).toMatchObject({ isError: true, content: [{ text: 'tool broke' }] });
      await client.close();
    });

    it('resumes a task from its id', async () => {
      const { client } = await connect(fixture().server, { handlers }, { revision });
      const taskId = (await client.tasks.callTool({ name: 'must' })).taskId!;
      expect(await client.tasks.handle(taskId).result()).toMatchObject({ content: [{ text: 'done' }] });
      await expect(client.tasks.get('no-such-task')).rejects.toMatchObject({ code: -32602 });
      await client.close();
    });

    it("polls no faster than the server's pollIntervalMs, backing off", async () => {
      const { server, gates } = fixture(60);
      const { client } = await connect(server, { handlers }, { revision });
      const task = await client.tasks.callTool({ name: 'gate', arguments: { name: 'poll' } });
      const times: number[] = [];
      const done = task.result({ onStatus: () => times.push(Date.now()), maxPollIntervalMs: 200 });
      await new Promise((r) => setTimeout(r, 500));
      gates.release('poll');
      await done;
      const gaps = times.slice(1).map((t, i) => t - times[i]!);
      // A 2025-11-25 status notification may end a wait early; otherwise every gap honours the interval.
      const honoured = gaps.filter((gap) => gap >= 55);
      expect(honoured.length).toBeGreaterThanOrEqual(gaps.length - 1);
      expect(times.length).toBeLessThan(12);
      await client.close();
    });
  });
}

describe('client tasks, extension specifics', () => {
  it('callTool awaits a task the server made of the call', async () => {
    const { client } = await connect(fixture().server, { handlers });
    expect(client.era).toBe('modern');
    expect(await client.callTool({ name: 'must' })).toMatchObject({ content: [{ text: 'done' }] });
    expect(await client.callTool({ name: 'prep' })).toMatchObject({ content: [{ text: 'Hi Ada' }] });
    await client.close();
  });

  it('without the extension declared, required tools fail with -32021 and optional ones run at once', async () => {
    const { client } = await connect(fixture().server, { handlers, tasks: { extension: false } });
    expect(client.tasks.supported).toBe(false);
    await expect(client.callTool({ name: 'must' })).rejects.toMatchObject({ code: -32021 });
    const task = await client.tasks.callTool({ name: 'sleep', arguments: { ms: 1 } });
    expect(task.taskId).toBeUndefined();
    expect(await task.result()).toMatchObject({ content: [{ text: 'slept 1' }] });
    await client.close();
  });

  it('answers at once when the server does so (prepare)', async () => {
    const { client } = await connect(fixture().server, { handlers });
    const task = await client.tasks.callTool({ name: 'prep', arguments: { now: true } });
    expect(task.taskId).toBeUndefined();
    expect(task.immediate?.content).toEqual([{ type: 'text', text: 'answered at once' }]);
    await expect(task.get()).rejects.toThrow(/no task/);
    await client.close();
  });
});

describe('client tasks, 2025-11-25 specifics', () => {
  it("lists the session's tasks", async () => {
    const { client } = await connect(
      createTaskServer({ pageSize: 2 }).server,
      { handlers },
      { revision: '2025-11-25' },
    );
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await client.tasks.callTool({ name: 'must' })).taskId!);
    const listed: string[] = [];
    for await (const task of client.tasks.list()) listed.push(task.taskId);
    expect(listed).toEqual(ids);
    await client.close();
  });

  it('falls back to a plain call when the server has no tasks', async () => {
    const { client } = await connect(createTestServer(), { handlers }, { revision: '2025-11-25' });
    expect(client.tasks.supported).toBe(false);
    const task = await client.tasks.callTool({ name: 'add', arguments: { a: 1, b: 2 } });
    expect(task.immediate?.structuredContent).toEqual({ sum: 3 });
    await client.close();
  });

  it('plain callTool on a tool that requires tasks gets -32601', async () => {
    const { client } = await connect(fixture().server, { handlers }, { revision: '2025-11-25' });
    await expect(client.callTool({ name: 'must' })).rejects.toBeInstanceOf(RemoteError);
    await client.close();
  });

  it('asks for a TTL, which the server caps', async () => {
    const { client } = await connect(
      createTaskServer({ tasks: { maxTtlMs: 30_000, defaultTtlMs: 10_000 } }).server,
      { handlers },
      { revision: '2025-11-25' },
    );
    const asked = await client.tasks.callTool({ name: 'must' }, { ttlMs: 20_000 });
    expect(asked.created?.ttlMs).toBe(20_000);
    const capped = await client.tasks.callTool({ name: 'must' }, { ttlMs: 90_000 });
    expect(capped.created?.ttlMs).toBe(30_000);
    await client.close();
  });
});
