// The server side of soak.test.ts, run as `node --expose-gc` from the built package: a Streamable HTTP server
// with short idle timeouts that reports its retained sessions, streams and heap over IPC.
import { McpServer } from 'mcpengine/server';
import { MemoryEventStore, serveHttp } from 'mcpengine/http';

const server = new McpServer({ name: 'soak', version: '1.0.0' });
server.addTool({
  name: 'work',
  description: 'Reports progress, then answers',
  handler: async (_args, ctx) => {
    ctx.progress(1, 2, 'half');
    await new Promise((resolve) => setTimeout(resolve, 5));
    ctx.progress(2, 2, 'done');
    return 'x'.repeat(2_000);
  },
});
server.addTool({
  name: 'hang',
  description: 'Reports progress, then waits for cancellation (or 2 s)',
  handler: (_args, ctx) =>
    new Promise((resolve) => {
      ctx.progress(1);
      const timer = setTimeout(() => resolve('late'), 2_000);
      ctx.signal.addEventListener('abort', () => {
        clearTimeout(timer);
        resolve('aborted');
      });
    }),
});

const store = new MemoryEventStore({ maxAgeMs: 2_000 });
const serving = await serveHttp(server, {
  sessions: { max: 10_000, idleTimeoutMs: 300 },
  eventStore: store,
  keepAliveMs: 1_000,
  streamAfterMs: 1_000,
});

function measure() {
  for (let i = 0; i < 6; i++) globalThis.gc();
  return {
    heapUsed: process.memoryUsage().heapUsed,
    stats: serving.handler.stats(),
    events: store.size,
    listeners: server.core.broadcaster.listeners.size,
    legacySubscribers: server.core.broadcaster.sessions.size,
  };
}

process.on('message', (message) => {
  if (message === 'measure') process.send({ kind: 'measure', ...measure() });
  if (message === 'stop') void serving.close({ drainTimeoutMs: 0 }).then(() => process.exit(0));
});
process.send({ kind: 'ready', url: serving.url, ...measure() });
