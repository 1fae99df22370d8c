import { describe, expect, it } from 'vitest';
import type { RequestContext } from '../../server/context.js';
import { createTestServer } from '../../test/fixture-server.js';
import { handlerSetup } from '../../test/http-harness.js';

/** A server whose `connect` tool keeps its context, so the test can complete the elicitation later. */
function serverKeepingContexts(kept: RequestContext[]) {
  const server = createTestServer();
  server.addTool({
    name: 'connect',
    description: 'Starts an out-of-band interaction (its elicitation is completed by the test)',
    handler: (_args, ctx) => {
      kept.push(ctx);
      return 'started';
    },
  });
  server.addTool({
    name: 'connect-now',
    description: 'Completes an elicitation while it runs',
    handler: (_args, ctx) => `sent: ${ctx.completeElicitation('during-the-call')}`,
  });
  return server;
}

const setup = handlerSetup(() => createTestServer());

describe('notifications/elicitation/complete (2025-11-25 URL mode)', () => {
  it('reaches the client that made the request, on its standalone stream once the request is over', async () => {
    const kept: RequestContext[] = [];
    const { peer } = setup({}, serverKeepingContexts(kept));
    await peer.initialize('2025-11-25', { elicitation: { url: {} } });
    const stream = await peer.get();
    expect(stream.status).toBe(200);
    const call = await peer.call(1, 'tools/call', { name: 'connect', arguments: {} });
    expect(call.response.result.content[0].text).toBe('started');

    expect(kept[0]!.completeElicitation('550e8400-e29b-41d4-a716-446655440000')).toBe(true);
    const note = await stream.sse!.message((m) => m.method === 'notifications/elicitation/complete');
    expect(note.params).toEqual({ elicitationId: '550e8400-e29b-41d4-a716-446655440000' });
    await stream.sse!.cancel();
  });

  it('goes on the request stream while the request runs', async () => {
    const { peer } = setup({}, serverKeepingContexts([]));
    await peer.initialize('2025-11-25', { elicitation: { url: {} } });
    const call = await peer.call(1, 'tools/call', { name: 'connect-now', arguments: {} });
    expect(call.response.result.content[0].text).toBe('sent: true');
    expect(call.notifications).toContainEqual({
      jsonrpc: '2.0',
      method: 'notifications/elicitation/complete',
      params: { elicitationId: 'during-the-call' },
    });
  });

  it('is not sent where the revision does not define it, nor in the modern era', async () => {
    const kept: RequestContext[] = [];
    const { peer } = setup({}, serverKeepingContexts(kept));
    await peer.initialize('2025-06-18');
    await peer.call(1, 'tools/call', { name: 'connect', arguments: {} });
    expect(kept[0]!.completeElicitation('x')).toBe(false);

    const modern = await peer.modernCall(2, 'tools/call', { name: 'connect', arguments: {} });
    expect(modern.result.content[0].text).toBe('started');
    expect(kept[1]!.completeElicitation('x')).toBe(false);
  });
});
