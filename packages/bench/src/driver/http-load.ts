/**
 * The HTTP load generator: a fixed number of keep-alive connections, each sending its next request as soon as
 * the previous response has arrived. Two clients: raw sockets (the default, cheapest) and node:http with a
 * keep-alive Agent (to show how much the client itself costs).
 */
import { Agent, request as httpRequest } from 'node:http';
import { performance } from 'node:perf_hooks';
import { HttpResponse, postHead, postRequest, RawHttpConnection } from './http-client.js';
import {
  InflightTable,
  measurementWindow,
  WindowStats,
  type LoadResult,
  type ResponseCheck,
} from './load-stats.js';
import { ownCpuMs, processCpuMs } from './proc.js';
import {
  fastResponseId,
  looksSuccessful,
  messageFromBody,
  parseResponse,
  type ParsedResponse,
} from './responses.js';
import type { RequestTemplate } from './stdio-load.js';

export type HttpClientKind = 'raw' | 'agent';

export interface HttpEndpoint {
  host: string;
  port: number;
  path: string;
}

export interface HttpLoadOptions {
  endpoint: HttpEndpoint;
  client: HttpClientKind;
  connections: number;
  headers: Readonly<Record<string, string>>;
  template: RequestTemplate;
  check: ResponseCheck;
  warmupMs: number;
  durationMs: number;
  serverPid: number | undefined;
}

/** One exchange: the body goes out with `headers`; the callback gets the response. */
interface Exchanger {
  send(body: string, done: (response: HttpResponse) => void, fail: (error: Error) => void): void;
  close(): void;
}

function rawExchanger(
  endpoint: HttpEndpoint,
  headers: Readonly<Record<string, string>>,
): Exchanger & { ready(): Promise<void> } {
  const connection = new RawHttpConnection(endpoint.host, endpoint.port);
  const head = postHead(endpoint.path, `${endpoint.host}:${endpoint.port}`, headers);
  return {
    ready: () => connection.ready(),
    send: (body, done, fail) => connection.send(postRequest(head, body), done, fail),
    close: () => connection.close(),
  };
}

function agentExchanger(
  endpoint: HttpEndpoint,
  headers: Readonly<Record<string, string>>,
  agent: Agent,
): Exchanger {
  return {
    send(body, done, fail) {
      const req = httpRequest(
        {
          agent,
          host: endpoint.host,
          port: endpoint.port,
          path: endpoint.path,
          method: 'POST',
          headers: { ...headers, 'content-length': Buffer.byteLength(body) },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => {
            const responseHeaders = new Map<string, string>();
            for (const [name, value] of Object.entries(res.headers)) {
              if (value !== undefined)
                responseHeaders.set(name, Array.isArray(value) ? value.join(', ') : value);
            }
            done(new HttpResponse(res.statusCode ?? 0, responseHeaders, Buffer.concat(chunks)));
          });
          res.on('error', fail);
        },
      );
      req.on('error', fail);
      req.end(body);
    },
    close() {},
  };
}

/** The JSON-RPC message of an HTTP response, checked for status. */
export function rpcMessageOf(response: HttpResponse): string {
  if (response.status !== 200) throw new Error(`HTTP ${response.status}: ${response.body.slice(0, 300)}`);
  return messageFromBody(response.body, response.headers.get('content-type'));
}

/** Enough of the JSON-RPC message to read its id and outcome (see HttpResponse.probe). */
function rpcProbeOf(response: HttpResponse): string {
  if (response.status !== 200) throw new Error(`HTTP ${response.status}: ${response.body.slice(0, 300)}`);
  return messageFromBody(response.probe(), response.headers.get('content-type'));
}

/** Runs one timed HTTP load, or (with `count`) exactly `count` requests. */
export async function runHttpLoad(options: HttpLoadOptions, count?: number): Promise<LoadResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: options.connections });
  const exchangers: Exchanger[] = [];
  for (let i = 0; i < options.connections; i++) {
    if (options.client === 'raw') {
      const exchanger = rawExchanger(options.endpoint, options.headers);
      await exchanger.ready();
      exchangers.push(exchanger);
    } else {
      exchangers.push(agentExchanger(options.endpoint, options.headers, agent));
    }
  }
  const table = new InflightTable();
  const stats = new WindowStats();
  const { prefix, suffix } = options.template;
  let sending = true;
  let measuring = false;
  let failure: Error | undefined;
  let settle: (() => void) | undefined;

  const fail = (error: Error) => {
    failure ??= error;
    sending = false;
    settle?.();
  };

  let sent = 0;
  const next = (exchanger: Exchanger) => {
    if (count !== undefined && sent >= count) sending = false;
    if (!sending) {
      if (table.count === 0) settle?.();
      return;
    }
    sent++;
    const id = table.open(performance.now());
    exchanger.send(
      prefix + id + suffix,
      (response) => {
        try {
          const probe = rpcProbeOf(response);
          const sentAt = table.close(id);
          const read = fastResponseId(probe);
          if (read !== id || sentAt < 0)
            throw new Error(`response for id ${read}, expected ${id}: ${probe.slice(0, 300)}`);
          if (!looksSuccessful(probe)) throw new Error(`request failed: ${probe.slice(0, 300)}`);
          if (stats.shouldVerify()) stats.verify(rpcMessageOf(response), id, options.check);
          if (measuring) stats.record(performance.now() - sentAt);
          else stats.completed++;
        } catch (error) {
          fail(error as Error);
          return;
        }
        next(exchanger);
      },
      fail,
    );
  };

  for (const exchanger of exchangers) next(exchanger);
  if (count !== undefined) {
    await new Promise<void>((resolve) => (settle = resolve));
    for (const exchanger of exchangers) exchanger.close();
    agent.destroy();
    if (failure) throw failure;
    return {
      completed: stats.completed,
      elapsedMs: 0,
      throughput: 0,
      p50Ms: 0,
      p99Ms: 0,
      driverCpuMs: 0,
      serverCpuMs: undefined,
      verified: stats.verified,
    };
  }
  await new Promise((resolve) => setTimeout(resolve, options.warmupMs));
  stats.reset();
  measuring = true;
  const start = performance.now();
  const driverCpu0 = ownCpuMs();
  const serverCpu0 = processCpuMs(options.serverPid);
  await measurementWindow(options.durationMs, () => stats.completed);
  const elapsedMs = performance.now() - start;
  const completed = stats.completed;
  const driverCpuMs = ownCpuMs() - driverCpu0;
  const serverCpu1 = processCpuMs(options.serverPid);
  measuring = false;
  sending = false;
  if (table.count > 0 && failure === undefined) {
    await new Promise<void>((resolve) => {
      settle = resolve;
      setTimeout(resolve, 5000).unref();
    });
  }
  for (const exchanger of exchangers) exchanger.close();
  agent.destroy();
  if (failure) throw failure;
  return {
    completed,
    elapsedMs,
    throughput: (completed * 1000) / elapsedMs,
    p50Ms: stats.percentile(0.5),
    p99Ms: stats.percentile(0.99),
    driverCpuMs,
    serverCpuMs: serverCpu0 === undefined || serverCpu1 === undefined ? undefined : serverCpu1 - serverCpu0,
    verified: stats.verified,
  };
}

/** One request on a fresh raw connection, for handshakes and probes. */
export async function httpCall(
  endpoint: HttpEndpoint,
  headers: Readonly<Record<string, string>>,
  body: string,
): Promise<{ response: HttpResponse; message: ParsedResponse | undefined }> {
  const connection = new RawHttpConnection(endpoint.host, endpoint.port);
  try {
    await connection.ready();
    const head = postHead(endpoint.path, `${endpoint.host}:${endpoint.port}`, {
      ...headers,
      Connection: 'close',
    });
    const response = await connection.request(postRequest(head, body));
    const text =
      response.status === 200 ? messageFromBody(response.body, response.headers.get('content-type')) : '';
    return { response, message: text === '' ? undefined : parseResponse(text) };
  } finally {
    connection.close();
  }
}
