/**
 * Scale-out on Redis (`--only scale-out`): what sharing legacy sessions through Redis costs per request, and
 * what a second node brings. The everything server runs in its own processes (`--http`, and `--redis` for the
 * shared rows); the driver calls `echo` in legacy sessions (2025-11-25), non-sticky: with two nodes, every call
 * goes to the other node than the last.
 *
 * Redis operations per call are counted from `INFO commandstats` (the server's own count of every command it
 * ran) before and after the window: no MONITOR, no client wrapping. Other users of the same Redis add to it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { connect } from 'node:net';
import { resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { errorRow, makeRow, type Row, type ScenarioResult } from '../results.js';
import type { Settings } from '../settings.js';
import { REPO_ROOT } from './footprint.js';

export const SCALE_OUT_ID = 'scale-out';
const TITLE = 'Scale-out on Redis: legacy sessions in memory vs in Redis, one and two nodes';
const REDIS = { host: '127.0.0.1', port: 6379 };
const CONCURRENCY = 8;
const HEADERS = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': '2025-11-25',
};

interface Node {
  readonly child: ChildProcess;
  readonly url: string;
}

async function startNode(redisPrefix: string | undefined): Promise<Node> {
  const args = [resolve(REPO_ROOT, 'servers/everything/dist/main.js'), '--http', '--port', '0'];
  if (redisPrefix !== undefined) {
    args.push('--redis', `redis://${REDIS.host}:${REDIS.port}/0`, '--redis-prefix', redisPrefix);
  }
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  let banner = '';
  const url = await new Promise<string>((ready, reject) => {
    child.once('exit', (code) => reject(new Error(`the server exited (${code}): ${banner}`)));
    child.stderr!.on('data', (chunk: Buffer) => {
      banner += chunk.toString();
      const found = /Streamable HTTP: (\S+)/.exec(banner);
      if (found) ready(found[1]!);
    });
  });
  return { child, url };
}

async function stop(nodes: readonly Node[]): Promise<void> {
  await Promise.all(
    nodes.map(async ({ child }) => {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      await once(child, 'exit');
    }),
  );
}

async function openSession(url: string): Promise<string> {
  const init = await fetch(url, {
    method: 'POST',
    headers: HEADERS,
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: {
        protocolVersion: '2025-11-25',
        capabilities: {},
        clientInfo: { name: 'bench', version: '1' },
      },
    }),
  });
  await init.text();
  const id = init.headers.get('mcp-session-id');
  if (init.status !== 200 || id === null) throw new Error(`initialize failed: HTTP ${init.status}`);
  const ready = await fetch(url, {
    method: 'POST',
    headers: { ...HEADERS, 'mcp-session-id': id },
    body: '{"jsonrpc":"2.0","method":"notifications/initialized"}',
  });
  await ready.text();
  return id;
}

/** Calls `echo` from `workers` sessions until `ms` have passed; returns the number of calls answered. */
async function drive(urls: readonly string[], sessions: readonly string[], ms: number): Promise<number> {
  const end = performance.now() + ms;
  let calls = 0;
  await Promise.all(
    sessions.map(async (session, worker) => {
      let turn = worker;
      while (performance.now() < end) {
        const url = urls[turn++ % urls.length]!;
        const response = await fetch(url, {
          method: 'POST',
          headers: { ...HEADERS, 'mcp-session-id': session },
          body: `{"jsonrpc":"2.0","id":${turn},"method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"}}}`,
        });
        const text = await response.text();
        if (response.status !== 200 || !text.includes('"result"')) {
          throw new Error(`call failed: HTTP ${response.status} ${text.slice(0, 200)}`);
        }
        calls++;
      }
    }),
  );
  return calls;
}

/** Commands Redis has run since it started (every client), from `INFO commandstats`. */
function redisCommands(): Promise<number> {
  return new Promise((done, fail) => {
    const socket = connect(REDIS.port, REDIS.host);
    let text = '';
    socket.on('error', fail);
    socket.on('data', (chunk) => {
      text += chunk.toString();
      const header = /^\$(\d+)\r\n/.exec(text);
      if (header && Buffer.byteLength(text) >= header[0].length + Number(header[1])) {
        socket.end();
        let total = 0;
        for (const match of text.matchAll(/^cmdstat_[^:]+:calls=(\d+)/gm)) total += Number(match[1]);
        done(total);
      }
    });
    socket.write('INFO commandstats\r\n');
  });
}

interface Setup {
  readonly impl: string;
  readonly label: string;
  readonly nodes: number;
  readonly redis: boolean;
}

const SETUPS: readonly Setup[] = [
  { impl: 'memory-1', label: 'in memory, 1 node', nodes: 1, redis: false },
  { impl: 'redis-1', label: 'Redis, 1 node', nodes: 1, redis: true },
  { impl: 'redis-2', label: 'Redis, 2 nodes (non-sticky)', nodes: 2, redis: true },
];

export async function runScaleOut(settings: Settings, log: (line: string) => void): Promise<ScenarioResult> {
  const rows: Row[] = [];
  const latency: Record<string, number> = {};
  const notes: string[] = [];
  for (const setup of SETUPS) {
    const prefix = setup.redis ? `mcpengine-bench-${randomBytes(4).toString('hex')}:` : undefined;
    let nodes: Node[] = [];
    try {
      nodes = await Promise.all(Array.from({ length: setup.nodes }, () => startNode(prefix)));
      const urls = nodes.map((n) => n.url);
      const sessions = await Promise.all(
        Array.from({ length: CONCURRENCY }, (_, i) => openSession(urls[i % urls.length]!)),
      );
      const samples: number[] = [];
      const details: Record<string, number>[] = [];
      for (let run = 0; run < settings.runs; run++) {
        await drive(urls, sessions, settings.warmupMs);
        // One client, one call at a time: the cost of a request.
        const single = await drive(urls, sessions.slice(0, 1), settings.durationMs / 2);
        const microsPerCall = ((settings.durationMs / 2) * 1000) / single;
        const before = setup.redis ? await redisCommands() : 0;
        const calls = await drive(urls, sessions, settings.durationMs);
        const after = setup.redis ? await redisCommands() : 0;
        const perSecond = calls / (settings.durationMs / 1000);
        samples.push(perSecond);
        const detail: Record<string, number> = { 'µs/call (1 client)': microsPerCall };
        if (setup.redis) detail['Redis ops/call'] = (after - before - 1) / calls;
        details.push(detail);
        log(
          `  ${setup.label}: ${perSecond.toFixed(0)} calls/s with ${CONCURRENCY} clients; ${microsPerCall.toFixed(0)} µs/call alone` +
            (setup.redis ? `; ${detail['Redis ops/call']!.toFixed(2)} Redis ops/call` : ''),
        );
      }
      await Promise.all(
        sessions.map((session, i) =>
          fetch(urls[i % urls.length]!, {
            method: 'DELETE',
            headers: { ...HEADERS, 'mcp-session-id': session },
          }).then((r) => r.text()),
        ),
      );
      const row = makeRow(setup.impl, setup.label, samples, details);
      rows.push(row);
      latency[setup.impl] = row.details['µs/call (1 client)'] ?? Number.NaN;
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      log(`  ${setup.label}: FAILED — ${message}`);
      rows.push(errorRow(setup.impl, setup.label, message));
    } finally {
      await stop(nodes);
    }
  }
  const memory = latency['memory-1'];
  const redis = latency['redis-1'];
  if (memory !== undefined && redis !== undefined && Number.isFinite(memory) && Number.isFinite(redis)) {
    notes.push(
      `Per-request cost, one client: Redis-backed sessions ${(redis / memory).toFixed(2)}× the in-memory cost (${redis.toFixed(0)} vs ${memory.toFixed(0)} µs/call).`,
    );
  }
  const one = rows.find((r) => r.impl === 'redis-1')?.median;
  const two = rows.find((r) => r.impl === 'redis-2')?.median;
  if (one !== undefined && two !== undefined && Number.isFinite(one) && Number.isFinite(two)) {
    notes.push(`Two nodes: ${(two / one).toFixed(2)}× the throughput of one (Redis-backed, non-sticky).`);
  }
  notes.push(
    `${CONCURRENCY} legacy sessions call echo; per call a shared node loads the session from Redis (GETEX, which also extends its life); Redis ops/call counts every command Redis ran in the window (INFO commandstats).`,
    'On a machine with few cores the nodes, Redis and the driver share CPUs: a second node can only add throughput where there are cores to run it.',
  );
  return {
    id: SCALE_OUT_ID,
    title: TITLE,
    unit: 'calls/s',
    better: 'higher',
    rows,
    ratios: {},
    notes,
  };
}
