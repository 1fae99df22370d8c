/**
 * Soak: thousands of sessions and streams opened and abandoned over loopback must leave nothing behind once
 * the idle timeouts have passed. The server runs in a child process with --expose-gc (from the built package),
 * so its heap is measured apart from the load generator.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

interface Measure {
  kind: string;
  url: string;
  heapUsed: number;
  stats: {
    sessions: number;
    sseSessions: number;
    streams: number;
    modernInflight: number;
    legacyInflight: number;
  };
  events: { events: number; bytes: number; sessions: number };
  listeners: number;
  legacySubscribers: number;
}

const SESSIONS_PER_ROUND = Number(process.env.MCP_SOAK_SESSIONS ?? 1500);
const CONCURRENCY = 50;
const MB = 1024 * 1024;

let child: ChildProcess;
let url: string;
let baseline: Measure;
const waiting: ((m: Measure) => void)[] = [];

function ask(): Promise<Measure> {
  return new Promise((resolve) => {
    waiting.push(resolve);
    child.send('measure');
  });
}

beforeAll(async () => {
  const script = fileURLToPath(new URL('./soak-server.fixture.mjs', import.meta.url));
  child = fork(script, [], { execArgv: ['--expose-gc'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const ready = await new Promise<Measure>((resolve, reject) => {
    child.once('error', reject);
    child.on('message', (message: Measure) => {
      if (message.kind === 'ready') resolve(message);
      else waiting.shift()?.(message);
    });
  });
  url = ready.url;
  baseline = ready;
});

afterAll(() => {
  child?.send('stop');
});

const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const modernMeta = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
};

async function post(
  body: unknown,
  extra: Record<string, string> = {},
  signal?: AbortSignal,
): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: { ...headers, ...extra },
    body: JSON.stringify(body),
    ...(signal ? { signal } : {}),
  });
}

/** Reads a body until its first chunk, then abandons the connection. */
async function firstChunkThenAbort(response: Response, controller: AbortController): Promise<void> {
  const reader = response.body!.getReader();
  await reader.read();
  controller.abort();
  await reader.cancel().catch(() => {});
}

/** One client's life: a session with a finished SSE call, an abandoned standalone stream, an abandoned request stream, and an abandoned modern subscription. */
async function life(i: number): Promise<void> {
  const init = await post({
    jsonrpc: '2.0',
    id: 0,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'soak', version: '1' } },
  });
  const session = init.headers.get('mcp-session-id')!;
  await init.text();
  const s = { 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' };
  (await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, s)).body?.cancel();
  const call = await post(
    {
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'work', arguments: {}, _meta: { progressToken: i } },
    },
    s,
  );
  await call.text();

  const get = new AbortController();
  const standalone = await fetch(url, { headers: { accept: 'text/event-stream', ...s }, signal: get.signal });
  await firstChunkThenAbort(standalone, get);

  const hang = new AbortController();
  const pending = await post(
    {
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: { name: 'hang', arguments: {}, _meta: { progressToken: 'h' } },
    },
    s,
    hang.signal,
  );
  await firstChunkThenAbort(pending, hang);

  const listen = new AbortController();
  const subscription = await post(
    {
      jsonrpc: '2.0',
      id: 3,
      method: 'subscriptions/listen',
      params: { notifications: { toolsListChanged: true }, _meta: modernMeta },
    },
    { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'subscriptions/listen' },
    listen.signal,
  );
  await firstChunkThenAbort(subscription, listen);
}

async function round(): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < SESSIONS_PER_ROUND) await life(next++);
    }),
  );
}

async function settled(): Promise<Measure> {
  // Idle timeout 300 ms, hanging requests end within 2 s, stored events expire after 2 s.
  const deadline = Date.now() + 15_000;
  for (;;) {
    const m = await ask();
    const s = m.stats;
    if (
      s.sessions === 0 &&
      s.streams === 0 &&
      s.modernInflight === 0 &&
      s.legacyInflight === 0 &&
      m.events.events === 0
    )
      return m;
    if (Date.now() > deadline) return m;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

describe('soak', () => {
  it(
    `returns to baseline after ${SESSIONS_PER_ROUND} abandoned sessions per round, twice`,
    { timeout: 180_000 },
    async () => {
      const started = Date.now();
      await round();
      const busy = await ask();
      const first = await settled();
      await round();
      const second = await settled();
      const report = {
        sessionsPerRound: SESSIONS_PER_ROUND,
        seconds: (Date.now() - started) / 1000,
        baselineMB: +(baseline.heapUsed / MB).toFixed(1),
        busyMB: +(busy.heapUsed / MB).toFixed(1),
        busySessions: busy.stats.sessions,
        afterRound1MB: +(first.heapUsed / MB).toFixed(1),
        afterRound2MB: +(second.heapUsed / MB).toFixed(1),
      };
      console.log(`soak: ${JSON.stringify(report)}`);
      for (const m of [first, second]) {
        expect(m.stats).toEqual({
          sessions: 0,
          sseSessions: 0,
          streams: 0,
          modernInflight: 0,
          legacyInflight: 0,
        });
        expect(m.events).toEqual({ events: 0, bytes: 0, sessions: 0 });
        expect(m.listeners).toBe(0);
        expect(m.legacySubscribers).toBe(0);
      }
      // Generous bounds: what matters is that nothing proportional to the load is retained.
      expect(second.heapUsed - baseline.heapUsed).toBeLessThan(16 * MB);
      expect(second.heapUsed - first.heapUsed).toBeLessThan(4 * MB);
    },
  );
});
