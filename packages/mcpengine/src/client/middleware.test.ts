import { afterEach, describe, expect, it } from 'vitest';
import type { JsonObject } from '../protocol/types.js';
import { createTestServer } from '../test/fixture-server.js';
import { assertAllTapsClean, connect } from '../test/harness.js';
import { composeClientMiddleware, withMeta } from './middleware.js';
import type { ClientCall, ClientMiddleware } from './types.js';

afterEach(() => assertAllTapsClean());

const TRACEPARENT = '00-0af7651916cd43dd8448eb211c80319c-00f067aa0ba902b7-01';

/** A server whose `trace` tool answers with the trace context its request carried. */
function tracingServer() {
  const server = createTestServer();
  server.addTool({
    name: 'trace',
    description: 'Echoes the trace context of its request',
    handler: (_args, ctx) => {
      const meta = (ctx.params._meta ?? {}) as JsonObject;
      return `${String(meta.traceparent)} ${String(meta.tracestate)}`;
    },
  });
  return server;
}

const summary = (call: ClientCall) => `${call.direction} ${call.kind} ${call.method}`;

describe('client middleware', () => {
  for (const revision of ['2025-06-18', '2026-07-28'] as const) {
    it(`sets trace context in _meta that reaches the server (${revision})`, async () => {
      const traced: ClientMiddleware = (call, next) =>
        next(
          call.direction === 'outgoing' && call.kind === 'request'
            ? withMeta(call, { traceparent: TRACEPARENT, tracestate: 'mcpengine=1' })
            : call,
        );
      const { client } = await connect(tracingServer(), { middleware: [traced] }, { revision });
      const result = await client.callTool({ name: 'trace', arguments: {} });
      expect(result.content).toEqual([{ type: 'text', text: `${TRACEPARENT} mcpengine=1` }]);
    });

    it(`sees the server's questions and can change the answer (${revision})`, async () => {
      const seen: string[] = [];
      const { client } = await connect(
        createTestServer(),
        {
          handlers: { elicitation: () => ({ action: 'accept', content: { name: 'Grace' } }) },
          middleware: [
            async (call, next) => {
              seen.push(summary(call));
              const result = await next(call);
              if (call.direction === 'incoming' && call.method === 'elicitation/create') {
                return { ...result, content: { name: 'Ada' } };
              }
              return result;
            },
          ],
        },
        { revision },
      );
      const result = await client.callTool({ name: 'ask', arguments: {} });
      expect(result.content).toEqual([{ type: 'text', text: 'Hello Ada' }]);
      // The tool call is one outgoing call however many input rounds it takes; the question is incoming.
      expect(seen.filter((s) => !s.includes('initialize') && !s.includes('discover'))).toEqual([
        'outgoing request tools/call',
        'incoming request elicitation/create',
      ]);
    });
  }

  it('sees incoming notifications first, and can hold one back from the listeners', async () => {
    const seen: string[] = [];
    const { client } = await connect(
      createTestServer(),
      {
        middleware: [
          (call, next) => {
            seen.push(summary(call));
            const debug = call.method === 'notifications/message' && call.params.level === 'debug';
            return debug ? Promise.resolve(undefined) : next(call);
          },
        ],
      },
      { revision: '2025-11-25' },
    );
    const logged: unknown[] = [];
    client.onNotification('notifications/message', (params) => logged.push(params.level));
    await client.setLogLevel('debug');
    await client.callTool({ name: 'progress', arguments: {} });
    expect(seen.filter((s) => s === 'incoming notification notifications/message')).toHaveLength(2);
    expect(logged).toEqual(['info']);
  });

  it('records outgoing notifications, handshake included', async () => {
    const seen: string[] = [];
    await connect(
      createTestServer(),
      { middleware: [(call, next) => (seen.push(summary(call)), next(call))] },
      { revision: '2025-11-25' },
    );
    expect(seen).toEqual(['outgoing request initialize', 'outgoing notification notifications/initialized']);
  });

  it('refuses a second next() instead of sending the request twice', async () => {
    const twice: ClientMiddleware = async (call, next) => {
      if (call.method !== 'tools/list') return next(call);
      await next(call);
      return next(call);
    };
    const { client } = await connect(createTestServer(), { middleware: [twice] }, { revision: '2025-11-25' });
    await expect(client.listTools()).rejects.toThrow(/next\(\) twice/);
  });

  it('composes outermost first, and composes nothing when there is no middleware', async () => {
    expect(composeClientMiddleware([])).toBeUndefined();
    const order: string[] = [];
    const chain = composeClientMiddleware([
      async (call, next) => (order.push('a in'), await next(call).finally(() => order.push('a out'))),
      async (call, next) => (order.push('b in'), await next(call).finally(() => order.push('b out'))),
    ])!;
    const call: ClientCall = {
      direction: 'outgoing',
      kind: 'request',
      method: 'tools/list',
      params: {},
      revision: '2025-11-25',
      sessionId: 1,
    };
    const result = await chain(call, async () => (order.push('terminal'), { tools: [] }));
    expect(result).toEqual({ tools: [] });
    expect(order).toEqual(['a in', 'b in', 'terminal', 'b out', 'a out']);
  });

  it('takes the server’s shape too: next() continues with the call unchanged, next(changed) with the change', async () => {
    const seen: ClientCall[] = [];
    const chain = composeClientMiddleware([
      (call, next) => next(withMeta(call, { traceparent: 'x' })),
      (_call, next) => next(),
    ])!;
    const call: ClientCall = {
      direction: 'outgoing',
      kind: 'request',
      method: 'tools/list',
      params: {},
      revision: '2025-11-25',
      sessionId: 1,
    };
    await chain(call, async (last) => (seen.push(last), { tools: [] }));
    expect(seen.map((c) => c.params)).toEqual([{ _meta: { traceparent: 'x' } }]);
  });
});
