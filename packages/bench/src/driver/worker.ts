/**
 * The driver process. The orchestrator forks it and sends jobs over IPC, one at a time; each job's result (or
 * error) goes back the same way. Keeping the load generator in its own process means the orchestrator's work
 * never competes with it, and on stdio the server under test is this process's child, its pipes connected
 * straight to the driver.
 */
import type { LoadResult } from './load-stats.js';
import { httpCall, runHttpLoad, type HttpClientKind, type HttpEndpoint } from './http-load.js';
import { StdioServer, type HeapSnapshot, type ServerCommand } from './stdio-load.js';
import {
  checkOf,
  CLIENT_INFO,
  httpHeadersOf,
  LEGACY_REVISION,
  templateOf,
  type Era,
  type Workload,
} from '../workloads.js';

export interface StdioLoadJob {
  kind: 'stdio-load';
  server: ServerCommand;
  era: Era;
  workload: Workload;
  inflight: number;
  warmupMs: number;
  durationMs: number;
}

export interface HttpLoadJob {
  kind: 'http-load';
  endpoint: HttpEndpoint;
  serverPid: number | undefined;
  era: Era;
  /** Legacy era: open one session with initialize and send every request in it. */
  session: boolean;
  workload: Workload;
  client: HttpClientKind;
  connections: number;
  warmupMs: number;
  durationMs: number;
  /** When set, send exactly this many requests instead of a timed window. */
  count?: number;
  /** Reuse the session opened by an earlier job on this worker (leak check). */
  reuseSession?: boolean;
}

export interface StdioLeakJob {
  kind: 'stdio-leak';
  server: ServerCommand;
  /** Cumulative call counts after which the heap is measured. */
  checkpoints: number[];
  inflight: number;
}

export interface HttpSessionsJob {
  kind: 'http-sessions';
  endpoint: HttpEndpoint;
  count: number;
  concurrency: number;
}

export type Job = StdioLoadJob | HttpLoadJob | StdioLeakJob | HttpSessionsJob;

export interface LeakPoint {
  calls: number;
  heap: HeapSnapshot;
}

export type JobResult = LoadResult | LeakPoint[] | { sessions: number };

let reusableSession: string | undefined;

async function stdioLoad(job: StdioLoadJob): Promise<LoadResult> {
  const server = new StdioServer(job.server);
  try {
    if (job.era === 'legacy') await server.initialize(LEGACY_REVISION);
    return await server.measure({
      template: templateOf(job.workload, job.era),
      check: checkOf(job.workload),
      inflight: job.inflight,
      warmupMs: job.warmupMs,
      durationMs: job.durationMs,
    });
  } finally {
    await server.close();
  }
}

async function stdioLeak(job: StdioLeakJob): Promise<LeakPoint[]> {
  const server = new StdioServer({ ...job.server, ipc: true });
  try {
    await server.initialize(LEGACY_REVISION);
    const template = templateOf('echo-call', 'legacy');
    const check = checkOf('echo-call');
    const points: LeakPoint[] = [];
    let done = 0;
    for (const checkpoint of job.checkpoints) {
      await server.calls(checkpoint - done, job.inflight, template, check);
      done = checkpoint;
      points.push({ calls: done, heap: await server.heap() });
    }
    return points;
  } finally {
    await server.close();
  }
}

/** Opens a legacy Streamable HTTP session: initialize, then notifications/initialized. Returns its id. */
export async function openHttpSession(endpoint: HttpEndpoint): Promise<string | undefined> {
  const initialize = JSON.stringify({
    jsonrpc: '2.0',
    id: 0,
    method: 'initialize',
    params: { protocolVersion: LEGACY_REVISION, capabilities: {}, clientInfo: CLIENT_INFO },
  });
  const base = httpHeadersOf('echo-call', 'legacy');
  delete base['MCP-Protocol-Version'];
  const { response, message } = await httpCall(endpoint, base, initialize);
  if (response.status !== 200 || message?.error || !message?.result) {
    throw new Error(`initialize over HTTP failed: ${response.status} ${response.body.slice(0, 300)}`);
  }
  const sessionId = response.headers.get('mcp-session-id');
  const headers = httpHeadersOf('echo-call', 'legacy', sessionId);
  const initialized = await httpCall(
    endpoint,
    headers,
    JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
  );
  if (initialized.response.status >= 300) {
    throw new Error(
      `notifications/initialized over HTTP failed: ${initialized.response.status} ${initialized.response.body.slice(0, 300)}`,
    );
  }
  return sessionId;
}

async function httpLoad(job: HttpLoadJob): Promise<LoadResult> {
  let sessionId: string | undefined;
  if (job.session) {
    sessionId =
      job.reuseSession && reusableSession !== undefined
        ? reusableSession
        : await openHttpSession(job.endpoint);
    reusableSession = sessionId;
  }
  const options = {
    endpoint: job.endpoint,
    client: job.client,
    connections: job.connections,
    headers: httpHeadersOf(job.workload, job.era, sessionId),
    template: templateOf(job.workload, job.era),
    check: checkOf(job.workload),
    warmupMs: job.warmupMs,
    durationMs: job.durationMs,
    serverPid: job.serverPid,
  };
  return runHttpLoad(options, job.count);
}

async function httpSessions(job: HttpSessionsJob): Promise<{ sessions: number }> {
  let opened = 0;
  const worker = async () => {
    while (opened < job.count) {
      opened++;
      await openHttpSession(job.endpoint);
    }
  };
  await Promise.all(Array.from({ length: job.concurrency }, worker));
  return { sessions: opened };
}

function run(job: Job): Promise<JobResult> {
  switch (job.kind) {
    case 'stdio-load':
      return stdioLoad(job);
    case 'http-load':
      return httpLoad(job);
    case 'stdio-leak':
      return stdioLeak(job);
    case 'http-sessions':
      return httpSessions(job);
  }
}

process.on('message', (job: Job) => {
  run(job).then(
    (result) => process.send?.({ ok: true, result }),
    (error: unknown) =>
      process.send?.({
        ok: false,
        error: error instanceof Error ? (error.stack ?? error.message) : String(error),
      }),
  );
});
process.send?.({ ready: true });
