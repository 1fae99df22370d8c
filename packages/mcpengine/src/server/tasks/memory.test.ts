/**
 * Clients that never come back: 10,000 abandoned tasks (finished, still running, waiting for input) stay within
 * the store's bounds and are reclaimed after their TTL, with no request to trigger it.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { initializeRaw, modernParams, RawPeer } from '../../test/harness.js';
import { createTaskServer, engineOf } from '../../test/task-server.js';
import type { MemoryTaskStore } from './store.js';

function exposeGc(): () => void {
  const existing = (globalThis as { gc?: () => void }).gc;
  if (typeof existing === 'function') return existing;
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

const EXT_META = {
  'io.modelcontextprotocol/clientCapabilities': {
    extensions: { 'io.modelcontextprotocol/tasks': {} },
    elicitation: { form: {} },
  },
};
const MB = 1024 * 1024;

async function settledHeap(gc: () => void): Promise<number> {
  for (let i = 0; i < 3; i++) {
    gc();
    await new Promise((r) => setImmediate(r));
  }
  return process.memoryUsage().heapUsed;
}

describe('abandoned tasks', () => {
  it('keeps 10,000 abandoned tasks bounded and reclaims them after expiry', async () => {
    const gc = exposeGc();
    const ttlMs = 8_000;
    const { server } = createTaskServer({
      tasks: { defaultTtlMs: ttlMs, maxTtlMs: ttlMs, maxTasks: 10_000, maxActivePerOwner: 10_000 },
    });
    server.addTool({
      name: 'payload',
      description: 'Returns 1 KB',
      execution: { taskSupport: 'optional' },
      handler: () => 'p'.repeat(1024),
    });
    const engine = engineOf(server);
    const store = engine.store as MemoryTaskStore;
    const peer = await RawPeer.open(server, { validate: false });
    // Warm up the code paths so that the baseline includes compiled code, not just an empty heap.
    await peer.request('warm', 'tools/call', modernParams({ name: 'payload' }, EXT_META));
    await new Promise((r) => setTimeout(r, 100));
    await store.delete((await store.list('principal:', 0, 1)).tasks[0]!.taskId);
    const baseline = await settledHeap(gc);

    const started = Date.now();
    const kinds = [
      'payload',
      'payload',
      'payload',
      'payload',
      'payload',
      'payload',
      'payload',
      'payload',
      'sleep',
      'ask',
    ];
    let id = 0;
    for (let batch = 0; batch < 20; batch++) {
      const pending: Promise<any>[] = [];
      for (let i = 0; i < 500; i++) {
        const name = kinds[id % kinds.length]!;
        const args = name === 'sleep' ? { ms: 600_000 } : {};
        pending.push(
          peer.request(`t${id++}`, 'tools/call', modernParams({ name, arguments: args }, EXT_META)),
        );
      }
      for (const response of await Promise.all(pending)) expect(response.result.resultType).toBe('task');
    }
    const lastCreated = Date.now();
    const createdMs = lastCreated - started;
    await new Promise((r) => setTimeout(r, 50));
    expect(store.size).toBe(10_000);
    expect(engine.runningCount).toBe(2_000); // 1,000 sleeping, 1,000 waiting for input
    const bytesAtPeak = store.byteSize;
    expect(bytesAtPeak).toBeLessThan(engine.settings.maxBytes);
    const peak = await settledHeap(gc);

    // No traffic from here on: only the store's unref'd timer can reclaim.
    await new Promise((r) => setTimeout(r, Math.max(lastCreated + ttlMs + 400 - Date.now(), 0)));
    expect(store.size).toBe(0);
    expect(store.byteSize).toBe(0);
    expect(engine.runningCount).toBe(0);
    const after = await settledHeap(gc);
    const report = {
      createdMs,
      baselineMB: +(baseline / MB).toFixed(1),
      peakMB: +(peak / MB).toFixed(1),
      afterMB: +(after / MB).toFixed(1),
      storeMBAtPeak: +(bytesAtPeak / MB).toFixed(1),
    };
    console.log('abandoned tasks memory', JSON.stringify(report));
    // Reclaimed: what remains is a small fraction of what 10,000 tasks took.
    expect(peak - baseline).toBeGreaterThan(5 * MB);
    expect(after - baseline).toBeLessThan(Math.max((peak - baseline) * 0.2, 4 * MB));
    await peer.close();
  });

  it('reclaims 2,000 abandoned 2025-11-25 tasks of a session that stays open', async () => {
    const { server } = createTaskServer({
      // Long enough that creating 2,000 tasks on a loaded machine does not outlive the first of them.
      tasks: { defaultTtlMs: 2_000, maxTtlMs: 2_000, maxActivePerOwner: 2_000 },
    });
    const store = engineOf(server).store as MemoryTaskStore;
    const peer = await RawPeer.open(server, { validate: false });
    await initializeRaw(peer, '2025-11-25', { elicitation: { form: {} } });
    const pending: Promise<any>[] = [];
    for (let i = 0; i < 2_000; i++) {
      const name = i % 2 === 0 ? 'must' : 'ask';
      pending.push(peer.request(`l${i}`, 'tools/call', { name, task: {} }));
    }
    for (const response of await Promise.all(pending))
      expect(response.result.task.taskId).toBeTypeOf('string');
    expect(store.size).toBe(2_000);
    // Expiry runs on the store's timer: wait for it, within a bound well past the TTL.
    const deadline = Date.now() + 10_000;
    while (store.size > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    expect(store.size).toBe(0);
    expect(engineOf(server).runningCount).toBe(0);
    await peer.close();
  });
});
