/**
 * In-process profiling harness for the engine's stdio path, for optimisation work on a noisy machine: no
 * child processes, no pipes, only the engine's own code. Reports the best of several rounds (the minimum is
 * the figure least disturbed by other load), in nanoseconds of wall time per call on one core.
 *
 *   node packages/bench/dist/profile.js [core|stdio|list] [--calls N] [--rounds N] [--inflight N]
 *   node --cpu-prof --cpu-prof-dir=.bench/prof packages/bench/dist/profile.js stdio
 *
 * core:  messages handed straight to the server connection (parse → dispatch → validate → serialize)
 * stdio: the same through StdioServerTransport over in-memory streams (line decoding and write batching too)
 * modern: tools/call in the modern era (per-request _meta), messages handed straight to the connection
 * list:  tools/list of the 53 × 25 catalogue (modern era)
 * floor: what any JSON-RPC server must do (parse the line, serialize a response): the floor of `core`
 */
import { PassThrough } from 'node:stream';
import { performance } from 'node:perf_hooks';
import { StdioServerTransport } from 'mcpengine/stdio';
import type { Transport, TransportHandlers } from 'mcpengine';
import { createEngineServer } from './servers/engine-server.js';
import { CLIENT_INFO, LEGACY_REVISION, templateOf } from './workloads.js';
import { print } from './report/print.js';

const args = process.argv.slice(2);
const mode = args.find((a) => !a.startsWith('--')) ?? 'core';
const option = (name: string, fallback: number) => {
  const at = args.indexOf(name);
  return at === -1 ? fallback : Number(args[at + 1]);
};
const calls = option('--calls', 200_000);
const rounds = option('--rounds', 7);
const inflight = option('--inflight', 64);

/** A transport that hands lines in directly and counts what comes out. */
class DirectTransport implements Transport {
  handlers!: TransportHandlers;
  onSend: (message: string) => void = () => {};
  start(handlers: TransportHandlers): void {
    this.handlers = handlers;
  }
  send(message: string): void {
    this.onSend(message);
  }
  close(): Promise<void> {
    return Promise.resolve();
  }
}

/**
 * Keeps `inflight` requests outstanding on a direct transport until `n` have been answered, refilling in bursts
 * of `inflight` as a pipe read would deliver them. Answers may come synchronously (inside `message`) or later.
 */
function pipelined(transport: DirectTransport, prefix: string, suffix: string): (n: number) => Promise<void> {
  let id = 0;
  return (n) =>
    new Promise<void>((resolve) => {
      let outstanding = 0;
      let sent = 0;
      let pumping = false;
      const pump = () => {
        pumping = true;
        do {
          const burst = Math.min(inflight - outstanding, n - sent);
          for (let i = 0; i < burst; i++) {
            outstanding++;
            sent++;
            transport.handlers.message(prefix + ++id + suffix);
          }
        } while (outstanding === 0 && sent < n);
        pumping = false;
        if (sent === n && outstanding === 0) resolve();
      };
      transport.onSend = () => {
        outstanding--;
        if (pumping || outstanding > 0) return;
        if (sent === n) resolve();
        else pump();
      };
      pump();
    });
}

const initialize = JSON.stringify({
  jsonrpc: '2.0',
  id: 'init',
  method: 'initialize',
  params: { protocolVersion: LEGACY_REVISION, capabilities: {}, clientInfo: CLIENT_INFO },
});
const initialized = JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' });

async function runCore(
  workload: 'echo-call' | 'catalog-list',
  era: 'legacy' | 'modern',
): Promise<(n: number) => Promise<void>> {
  const server = createEngineServer(workload === 'catalog-list');
  const transport = new DirectTransport();
  await server.connect(transport);
  if (era === 'legacy') {
    await new Promise<void>((resolve) => {
      transport.onSend = () => resolve();
      transport.handlers.message(initialize);
    });
    transport.handlers.message(initialized);
  }
  const { prefix, suffix } = templateOf(workload, era);
  return pipelined(transport, prefix, suffix);
}

async function runStdio(): Promise<(n: number) => Promise<void>> {
  const server = createEngineServer(false);
  const input = new PassThrough();
  const output = new PassThrough();
  await server.connect(new StdioServerTransport({ input, output }));
  let onLine: () => void = () => {};
  let tail = '';
  output.setEncoding('utf8');
  output.on('data', (chunk: string) => {
    const text = tail + chunk;
    let start = 0;
    for (let end = text.indexOf('\n'); end !== -1; end = text.indexOf('\n', start)) {
      start = end + 1;
      onLine();
    }
    tail = text.slice(start);
  });
  await new Promise<void>((resolve) => {
    onLine = resolve;
    input.write(initialize + '\n');
  });
  input.write(initialized + '\n');
  const { prefix, suffix } = templateOf('echo-call', 'legacy');
  let id = 0;
  return (n) =>
    new Promise<void>((resolve) => {
      let outstanding = 0;
      let sent = 0;
      const pump = () => {
        let chunk = '';
        while (outstanding < inflight && sent < n) {
          outstanding++;
          sent++;
          chunk += prefix + ++id + suffix + '\n';
        }
        if (chunk !== '') input.write(chunk);
      };
      onLine = () => {
        outstanding--;
        if (sent === n && outstanding === 0) resolve();
        else if (outstanding === 0) pump();
      };
      pump();
    });
}

/** The floor: parse each request and answer it with a prepared result, through the same pump. */
async function runFloor(): Promise<(n: number) => Promise<void>> {
  const transport = new DirectTransport();
  const result = JSON.stringify({ content: [{ type: 'text', text: 'hello 42 true' }] });
  transport.start({
    message: (text) => {
      const message = JSON.parse(text) as { id: number };
      queueMicrotask(() =>
        transport.send(`{"jsonrpc":"2.0","id":${JSON.stringify(message.id)},"result":${result}}`),
      );
    },
    invalid: () => {},
    close: () => {},
  });
  const { prefix, suffix } = templateOf('echo-call', 'legacy');
  return pipelined(transport, prefix, suffix);
}

const run =
  mode === 'stdio'
    ? await runStdio()
    : mode === 'floor'
      ? await runFloor()
      : await runCore(mode === 'list' ? 'catalog-list' : 'echo-call', mode === 'core' ? 'legacy' : 'modern');
const n = mode === 'list' ? Math.max(1, Math.floor(calls / 20)) : calls;
await run(Math.min(n, 20_000)); // warm-up
const results: number[] = [];
const cpu: number[] = [];
for (let r = 0; r < rounds; r++) {
  const start = performance.now();
  const cpuStart = process.cpuUsage();
  await run(n);
  const used = process.cpuUsage(cpuStart);
  results.push(((performance.now() - start) * 1e6) / n);
  cpu.push(((used.user + used.system) * 1e3) / n);
}
results.sort((a, b) => a - b);
cpu.sort((a, b) => a - b);
const gc = (globalThis as { gc?: () => void }).gc;
if (gc) {
  gc();
  const before = process.memoryUsage().heapUsed;
  await run(n);
  gc();
  print(
    `heap growth over ${n} more calls after forced GC: ${((process.memoryUsage().heapUsed - before) / 1024).toFixed(1)} KB`,
  );
}
print(
  `${mode}: wall best ${results[0]!.toFixed(0)} ns/call, median ${results[results.length >> 1]!.toFixed(0)}; ` +
    `CPU best ${cpu[0]!.toFixed(0)} ns/call, median ${cpu[cpu.length >> 1]!.toFixed(0)} (${rounds} rounds × ${n} calls, ${inflight} in flight)`,
);
process.exit(0);
