/**
 * Scale-out on Redis, end to end: three everything-server processes (`--redis`) behind a non-sticky round-robin
 * HTTP proxy written here, driven by the official SDK 1.x client and by raw HTTP. Real Redis (127.0.0.1:6379),
 * a key prefix of this run in a random database, cleaned up afterwards. Every server message crossing the proxy
 * is checked against the official schema.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createServer, request as httpRequest, type IncomingHttpHeaders, type Server } from 'node:http';
import { createServer as createTcpServer, connect, type Server as TcpServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  CreateMessageRequestSchema,
  LoggingMessageNotificationSchema,
  ResourceUpdatedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { defaultOracle, formatViolation } from '@mcpengine/oracle';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const SERVER = fileURLToPath(new URL('../../../servers/everything/dist/main.js', import.meta.url));
const DB = 1 + Math.floor(Math.random() * 15);
const REDIS_URL = `redis://127.0.0.1:6379/${DB}`;
const PREFIX = `mcpengine-test-${randomBytes(6).toString('hex')}:`;
const REVISION = '2025-11-25';

interface Node {
  readonly process: ChildProcess;
  readonly url: string;
  alive: boolean;
}

/** Starts one everything-server node; resolves with its endpoint once it listens. */
async function startNode(redisUrl = REDIS_URL, extra: string[] = []): Promise<Node> {
  const child = spawn(
    process.execPath,
    [SERVER, '--http', '--port', '0', '--redis', redisUrl, '--redis-prefix', PREFIX, ...extra],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let banner = '';
  const url = await new Promise<string>((ready, reject) => {
    child.once('exit', (code) => reject(new Error(`the node exited (${code}): ${banner}`)));
    child.stderr!.on('data', (chunk: Buffer) => {
      banner += chunk.toString();
      const found = /Streamable HTTP: (\S+)/.exec(banner);
      if (found) ready(found[1]!);
    });
  });
  const node: Node = { process: child, url, alive: true };
  child.once('exit', () => (node.alive = false));
  return node;
}

interface Routed {
  readonly node: number;
  readonly method: string;
  readonly sessionId: string | undefined;
  /** The JSON-RPC method, or `response` for a client's answer. */
  readonly rpc: string | undefined;
  status?: number;
}

/**
 * A plain load balancer: every HTTP request goes to the next live node in turn, whatever its session. Server
 * messages passing through are checked against the official schema.
 */
class RoundRobin {
  readonly log: Routed[] = [];
  readonly violations: string[] = [];
  private next = 0;
  private server!: Server;
  url = '';

  constructor(readonly nodes: Node[]) {}

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const body = Buffer.concat(chunks);
        const live = this.nodes.filter((n) => n.alive);
        const node = live[this.next++ % live.length]!;
        const target = new URL(node.url);
        let rpc: string | undefined;
        try {
          const parsed = JSON.parse(body.toString()) as { method?: string };
          rpc = parsed.method ?? 'response';
        } catch {
          rpc = undefined;
        }
        const routed: Routed = {
          node: this.nodes.indexOf(node),
          method: req.method!,
          sessionId: req.headers['mcp-session-id'] as string | undefined,
          rpc,
        };
        this.log.push(routed);
        const upstream = httpRequest(
          {
            host: target.hostname,
            port: target.port,
            path: req.url,
            method: req.method,
            headers: req.headers,
          },
          (answer) => {
            routed.status = answer.statusCode;
            res.writeHead(answer.statusCode!, answer.headers);
            this.tap(answer.headers, answer);
            answer.pipe(res);
          },
        );
        upstream.on('error', () => {
          if (!res.headersSent) res.writeHead(502).end();
          else res.destroy();
        });
        res.on('close', () => upstream.destroy());
        upstream.end(body);
      });
    });
    this.server.listen(0, '127.0.0.1');
    await once(this.server, 'listening');
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/mcp`;
  }

  /** Checks every JSON-RPC message of a response (JSON or SSE) against the schema. */
  private tap(headers: IncomingHttpHeaders, answer: NodeJS.ReadableStream): void {
    const type = headers['content-type'] ?? '';
    let text = '';
    const check = (json: string) => {
      if (json.trim() === '') return;
      const violation = defaultOracle().check(JSON.parse(json), { revision: REVISION, sender: 'server' });
      if (violation) this.violations.push(formatViolation(violation));
    };
    answer.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      if (!type.startsWith('text/event-stream')) return;
      let end: number;
      while ((end = text.indexOf('\n\n')) >= 0) {
        const event = text.slice(0, end);
        text = text.slice(end + 2);
        const data = event
          .split('\n')
          .filter((line) => line.startsWith('data:'))
          .map((line) => line.slice(5).trimStart())
          .join('\n');
        check(data);
      }
    });
    answer.on('end', () => {
      if (type.startsWith('application/json')) check(text);
    });
  }

  /** Nodes that served requests of `sessionId`. */
  nodesOf(sessionId: string): Set<number> {
    return new Set(this.log.filter((r) => r.sessionId === sessionId).map((r) => r.node));
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }
}

async function sdkClient(
  url: string,
  sampling = false,
): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const client = new Client(
    { name: 'scale-out-test', version: '1.0.0' },
    { capabilities: sampling ? { sampling: {} } : {} },
  );
  if (sampling) {
    client.setRequestHandler(CreateMessageRequestSchema, (request) => {
      const first = request.params.messages[0]?.content;
      const text = first && 'text' in first ? first.text : '?';
      return { role: 'assistant', content: { type: 'text', text: `echo ${String(text)}` }, model: 'test' };
    });
  }
  const transport = new StreamableHTTPClientTransport(new URL(url));
  await client.connect(transport);
  return { client, transport };
}

const HEADERS = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': REVISION,
};

/** A raw legacy session on `url`: initialize + initialized; returns its id. */
async function rawSession(url: string, capabilities: object = {}): Promise<string> {
  const init = await fetch(url, {
    method: 'POST',
    headers: HEADERS,
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: REVISION, capabilities, clientInfo: { name: 'raw', version: '1' } },
    }),
  });
  expect(init.status).toBe(200);
  await init.text();
  const id = init.headers.get('mcp-session-id')!;
  const ready = await post(url, id, { jsonrpc: '2.0', method: 'notifications/initialized' });
  expect(ready.status).toBe(202);
  return id;
}

function post(url: string, sessionId: string, message: object): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: { ...HEADERS, 'mcp-session-id': sessionId },
    body: JSON.stringify(message),
  });
}

/** The JSON-RPC response of a POST answered as JSON or as an event stream. */
async function answer(
  response: Response,
): Promise<{ result?: Record<string, unknown>; error?: { message: string } }> {
  const text = await response.text();
  if (response.headers.get('content-type')?.startsWith('application/json')) return JSON.parse(text);
  for (const event of text.split('\n\n')) {
    const data = event
      .split('\n')
      .filter((line) => line.startsWith('data:'))
      .map((line) => line.slice(5).trimStart())
      .join('\n');
    if (data === '') continue;
    const message = JSON.parse(data) as { id?: unknown };
    if (message.id !== undefined) return message as never;
  }
  throw new Error(`no response in: ${text}`);
}

async function call(url: string, sessionId: string, id: number, method: string, params: object = {}) {
  return answer(await post(url, sessionId, { jsonrpc: '2.0', id, method, params }));
}

/** Reads SSE events from a response body until `until` says stop; returns them (id and data). */
async function readEvents(
  response: Response,
  until: (events: { id?: string; data: string }[]) => boolean,
): Promise<{ id?: string; data: string }[]> {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  const events: { id?: string; data: string }[] = [];
  let text = '';
  while (!until(events)) {
    const { value, done } = await reader.read();
    if (done) break;
    text += decoder.decode(value, { stream: true });
    let end: number;
    while ((end = text.indexOf('\n\n')) >= 0) {
      const block = text.slice(0, end);
      text = text.slice(end + 2);
      let id: string | undefined;
      const data: string[] = [];
      for (const line of block.split('\n')) {
        if (line.startsWith('id:')) id = line.slice(3).trim();
        else if (line.startsWith('data:')) data.push(line.slice(5).trimStart());
      }
      events.push(id === undefined ? { data: data.join('\n') } : { id, data: data.join('\n') });
    }
  }
  await reader.cancel().catch(() => {});
  return events;
}

/** Waits (bounded) until `check` holds. */
async function eventually(check: () => Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`never happened: ${what}`);
}

/** Every process of this file, started at once (spawning is most of the wall time on a loaded machine). */
const started: {
  nodes: Node[];
  victim?: Node;
  idle?: Node;
  behindLink?: Node;
} = { nodes: [] };
let link: RedisLink;

beforeAll(async () => {
  link = new RedisLink();
  await link.start();
  const [a, b, c, victim, idle, behindLink] = await Promise.all([
    startNode(),
    startNode(),
    startNode(),
    startNode(),
    startNode(REDIS_URL, ['--idle-timeout-ms', '400']),
    startNode(`redis://127.0.0.1:${link.port}/${DB}`),
  ]);
  Object.assign(started, { nodes: [a!, b!, c!], victim, idle, behindLink });
});

afterAll(async () => {
  const all = [...started.nodes, started.victim, started.idle, started.behindLink].filter(
    (n): n is Node => n !== undefined && n.alive,
  );
  for (const node of all) node.process.kill('SIGTERM');
  await Promise.all(all.map((n) => once(n.process, 'exit')));
  await link?.close();
});

describe('scale-out on Redis: three nodes behind a non-sticky round-robin proxy', () => {
  const nodes: Node[] = [];
  let proxy: RoundRobin;
  let redis: Redis;

  const keys = () => redis.keys(`${PREFIX}*`);

  beforeAll(async () => {
    redis = new Redis(REDIS_URL);
    nodes.push(...started.nodes);
    proxy = new RoundRobin(nodes);
    await proxy.start();
  });

  afterAll(async () => {
    await proxy?.close();
    const left = await redis.keys(`${PREFIX}*`);
    if (left.length > 0) await redis.del(...left);
    redis.disconnect();
  });

  it('the official SDK client: tools, progress, logging and sampling, its session served by every node', async () => {
    const { client, transport } = await sdkClient(proxy.url, true);
    try {
      const logs: string[] = [];
      client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => {
        logs.push(String(n.params.data));
      });
      const tools = await client.listTools();
      expect(tools.tools.map((t) => t.name)).toContain('test_sampling');

      const progress: number[] = [];
      const withProgress = await client.callTool(
        { name: 'test_tool_with_progress', arguments: {} },
        undefined,
        {
          onprogress: (p) => progress.push(p.progress),
        },
      );
      expect(withProgress.content).toEqual([{ type: 'text', text: 'Progress tool completed' }]);
      expect(progress).toEqual([0, 50, 100]);

      // The level is set on one node and applies on the next one.
      await client.setLoggingLevel('warning');
      await client.callTool({ name: 'test_tool_with_logging', arguments: {} });
      expect(logs).toEqual([]);
      await client.setLoggingLevel('info');
      await client.callTool({ name: 'test_tool_with_logging', arguments: {} });
      expect(logs).toEqual(['Tool execution started', 'Tool processing data', 'Tool execution completed']);

      // The sampling request rides the tool call's stream from one node; the answer is POSTed to the next.
      const from = proxy.log.length;
      const sampled = await client.callTool({ name: 'test_sampling', arguments: { prompt: 'hello' } });
      expect(sampled.content).toEqual([{ type: 'text', text: 'LLM response: echo hello' }]);
      const routed = proxy.log.slice(from);
      const toolCall = routed.find((r) => r.rpc === 'tools/call')!;
      const response = routed.find((r) => r.rpc === 'response')!;
      expect(response.node).not.toBe(toolCall.node);

      expect(proxy.nodesOf(transport.sessionId!)).toEqual(new Set([0, 1, 2]));
    } finally {
      await transport.terminateSession();
      await client.close();
    }
  });

  it('resource updates made on any node reach a legacy subscriber and a modern subscriptions/listen stream', async () => {
    const uri = 'test://watched-resource';
    const { client, transport } = await sdkClient(proxy.url);
    // A modern listener on node 0, stateless apart from the broadcast it hears.
    const modern = {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
      'io.modelcontextprotocol/clientCapabilities': {},
    };
    const listenAbort = new AbortController();
    const listen = await fetch(nodes[0]!.url, {
      method: 'POST',
      headers: { ...HEADERS, 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'subscriptions/listen' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 'listen',
        method: 'subscriptions/listen',
        params: { notifications: { resourceSubscriptions: [uri] }, _meta: modern },
      }),
      signal: listenAbort.signal,
    });
    const reader = readEvents(listen, (events) =>
      events.some((e) => e.data.includes('notifications/resources/updated')),
    );
    try {
      const updates: string[] = [];
      client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => {
        updates.push(n.params.uri);
      });
      await client.subscribeResource({ uri });
      // Updates unrelated to a request travel only on the client's GET stream, which the SDK client opens on its
      // own after initialization: under load it may not be open yet, and an update sent before has nowhere to go.
      await eventually(
        async () =>
          proxy.log.some(
            (r) => r.method === 'GET' && r.sessionId === transport.sessionId && r.status === 200,
          ),
        "the client's GET stream",
      );
      // Three calls, three nodes: each node's update reaches the node holding the client's GET stream.
      for (let i = 0; i < 3; i++) await client.callTool({ name: 'touch_watched_resource', arguments: {} });
      await eventually(async () => updates.length === 3, 'three updates');
      expect(updates).toEqual([uri, uri, uri]);
      // A modern call on node 1 reaches the listener on node 0.
      const touched = await fetch(nodes[1]!.url, {
        method: 'POST',
        headers: {
          ...HEADERS,
          'mcp-protocol-version': '2026-07-28',
          'mcp-method': 'tools/call',
          'mcp-name': 'touch_watched_resource',
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: { name: 'touch_watched_resource', arguments: {}, _meta: modern },
        }),
      });
      const touchedAnswer = await answer(touched);
      expect(touchedAnswer).toMatchObject({ result: {} });
      const heard = await reader;
      const update = heard.map((e) =>
        e.data ? (JSON.parse(e.data) as { method?: string; params?: { uri?: string } }) : {},
      );
      expect(update.find((m) => m.method === 'notifications/resources/updated')?.params?.uri).toBe(uri);
    } finally {
      listenAbort.abort();
      await reader.catch(() => {});
      await transport.terminateSession();
      await client.close();
    }
  });

  it('DELETE on one node ends the session on every node', async () => {
    const { client, transport } = await sdkClient(proxy.url);
    const id = transport.sessionId!;
    // Every node has served (and holds a copy of) the session.
    for (let i = 0; i < 3; i++) await client.ping();
    expect(proxy.nodesOf(id)).toEqual(new Set([0, 1, 2]));
    await transport.terminateSession();
    await client.close();
    for (const node of nodes) {
      const refused = await post(node.url, id, { jsonrpc: '2.0', id: 9, method: 'tools/list' });
      expect(refused.status).toBe(404);
      await refused.text();
    }
  });

  it('tasks: created on one node, got, listed and awaited on the others; cancelled from another node', async () => {
    const [a, b, c] = nodes.map((n) => n.url) as [string, string, string];
    const id = await rawSession(a, { tasks: {} });
    try {
      const created = await call(a, id, 2, 'tools/call', {
        name: 'slow_compute',
        arguments: { seconds: 0.3, label: 'x' },
        task: { ttl: 60_000 },
      });
      const task = created.result!.task as { taskId: string; status: string };
      expect(task.status).toBe('working');
      const got = await call(b, id, 3, 'tasks/get', { taskId: task.taskId });
      expect(got.result).toMatchObject({ taskId: task.taskId });
      const result = await call(c, id, 4, 'tasks/result', { taskId: task.taskId });
      expect(result.result!.content).toEqual([{ type: 'text', text: 'Computed x in 0.3s' }]);
      const listed = await call(b, id, 5, 'tasks/list');
      expect(
        (listed.result!.tasks as { taskId: string; status: string }[]).map((t) => [t.taskId, t.status]),
      ).toEqual([[task.taskId, 'completed']]);

      const second = await call(a, id, 6, 'tools/call', {
        name: 'slow_compute',
        arguments: { seconds: 30 },
        task: { ttl: 60_000 },
      });
      const taskId = (second.result!.task as { taskId: string }).taskId;
      const cancelled = await call(b, id, 7, 'tasks/cancel', { taskId });
      expect(cancelled.result).toMatchObject({ taskId, status: 'cancelled' });
      const seen = await call(c, id, 8, 'tasks/get', { taskId });
      expect(seen.result).toMatchObject({ taskId, status: 'cancelled' });
    } finally {
      const ended = await fetch(b, { method: 'DELETE', headers: { ...HEADERS, 'mcp-session-id': id } });
      expect(ended.status).toBe(200);
    }
    // The session's tasks went with it.
    await eventually(async () => (await keys()).every((k) => !k.includes('task')), 'task keys deleted');
  });

  it('a stream resumes with Last-Event-ID on another node after its node is killed: nothing is lost', async () => {
    const victim = started.victim!;
    try {
      const other = nodes[0]!.url;
      const id = await rawSession(victim.url);
      const running = await post(victim.url, id, {
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: {
          name: 'slow_compute',
          arguments: { seconds: 0.5, label: 'r' },
          _meta: { progressToken: 'p' },
        },
      });
      expect(running.headers.get('content-type')).toMatch(/^text\/event-stream/);
      // The client takes the priming event and the first progress notification, then loses the connection.
      const first = await readEvents(running, (events) => events.some((e) => e.data.includes('progress')));
      const lastSeen = first.filter((e) => e.id !== undefined).at(-1)!.id!;
      // The request finishes on its node (its events are in Redis), then the node dies.
      await eventually(
        async () => (await redis.lrange(`${PREFIX}events:${id}`, 0, -1)).some((e) => e.includes('"result"')),
        'the result stored',
      );
      victim.process.kill('SIGKILL');
      await once(victim.process, 'exit');

      const resumed = await fetch(other, {
        headers: { accept: 'text/event-stream', 'mcp-session-id': id, 'last-event-id': lastSeen },
      });
      expect(resumed.status).toBe(200);
      const rest = await readEvents(resumed, () => false);
      const messages = rest
        .filter((e) => e.data !== '')
        .map((e) => JSON.parse(e.data) as Record<string, unknown>);
      expect(messages).toEqual([
        {
          jsonrpc: '2.0',
          id: 2,
          result: { content: [{ type: 'text', text: 'Computed r in 0.5s' }] },
        },
      ]);
      // A Last-Event-ID that names nothing of this session is refused.
      const bogus = await fetch(other, {
        headers: { accept: 'text/event-stream', 'mcp-session-id': id, 'last-event-id': 'zzzzz1-3' },
      });
      expect(bogus.status).toBe(400);
      await bogus.text();
      const ended = await fetch(other, { method: 'DELETE', headers: { ...HEADERS, 'mcp-session-id': id } });
      expect(ended.status).toBe(200);
    } finally {
      if (victim.alive) victim.process.kill('SIGKILL');
    }
  });

  it('20 concurrent sessions through the proxy stay isolated', async () => {
    const sessions = await Promise.all(Array.from({ length: 20 }, () => sdkClient(proxy.url)));
    try {
      const ids = new Set(sessions.map((s) => s.transport.sessionId));
      expect(ids.size).toBe(20);
      // Half the sessions hear info logs, half only warnings: levels must not leak between sessions.
      const heard = sessions.map(() => [] as string[]);
      sessions.forEach(({ client }, i) =>
        client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => {
          heard[i]!.push(String(n.params.data));
        }),
      );
      await Promise.all(
        sessions.map(({ client }, i) => client.setLoggingLevel(i % 2 === 0 ? 'info' : 'warning')),
      );
      const results = await Promise.all(
        sessions.map(({ client }, i) =>
          client.callTool({ name: 'echo', arguments: { text: `session ${i}` } }),
        ),
      );
      results.forEach((result, i) => expect(JSON.stringify(result.content)).toContain(`session ${i}`));
      await Promise.all(
        sessions.map(({ client }) => client.callTool({ name: 'test_tool_with_logging', arguments: {} })),
      );
      heard.forEach((logs, i) => expect(logs.length).toBe(i % 2 === 0 ? 3 : 0));
    } finally {
      await Promise.all(
        sessions.map(async ({ client, transport }) => {
          await transport.terminateSession();
          await client.close();
        }),
      );
    }
  });

  it('no key outlives its session; every server message was schema-valid', async () => {
    // Sessions ended above; nothing of theirs stays in Redis.
    await eventually(async () => (await keys()).length === 0, `no keys left (${(await keys()).join(', ')})`);
    expect(proxy.violations).toEqual([]);
  });
});

/** A TCP proxy in front of Redis that the test can cut and restore (the machine's Redis keeps running). */
class RedisLink {
  private server!: TcpServer;
  private readonly sockets = new Set<Socket>();
  up = true;
  port = 0;

  async start(): Promise<void> {
    this.server = createTcpServer((client) => {
      if (!this.up) {
        client.destroy();
        return;
      }
      const redis = connect(6379, '127.0.0.1');
      for (const socket of [client, redis]) {
        this.sockets.add(socket);
        socket.on('close', () => this.sockets.delete(socket));
        socket.on('error', () => {});
      }
      client.pipe(redis).pipe(client);
      client.on('close', () => redis.destroy());
      redis.on('close', () => client.destroy());
    });
    this.server.listen(0, '127.0.0.1');
    await once(this.server, 'listening');
    this.port = (this.server.address() as AddressInfo).port;
  }

  cut(): void {
    this.up = false;
    for (const socket of this.sockets) socket.destroy();
  }

  restore(): void {
    this.up = true;
  }

  async close(): Promise<void> {
    this.cut();
    await new Promise((resolve) => this.server.close(resolve));
  }
}

describe('scale-out on Redis: Redis unavailable', () => {
  it('answers 503 while Redis is unreachable and recovers when it returns, the session intact', async () => {
    const node = started.behindLink!;
    try {
      const { client, transport } = await sdkClient(node.url);
      const id = transport.sessionId!;
      await client.setLoggingLevel('error');
      link.cut();
      const refused = await post(node.url, id, { jsonrpc: '2.0', id: 50, method: 'tools/list' });
      expect(refused.status).toBe(503);
      expect(refused.headers.get('retry-after')).toBe('1');
      expect(await refused.json()).toMatchObject({
        jsonrpc: '2.0',
        id: 50,
        error: { message: 'Service Unavailable: the session store cannot be reached' },
      });
      const init = await fetch(node.url, {
        method: 'POST',
        headers: HEADERS,
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: { protocolVersion: REVISION, capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
        }),
      });
      expect(init.status).toBe(503);
      await init.text();

      link.restore();
      let status = 0;
      await eventually(async () => {
        const response = await post(node.url, id, { jsonrpc: '2.0', id: 51, method: 'tools/list' });
        status = response.status;
        await response.text();
        return status === 200;
      }, 'recovery');
      // The same session, its state intact (the level set before the outage).
      const logs: string[] = [];
      client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => {
        logs.push(String(n.params.data));
      });
      await client.callTool({ name: 'test_tool_with_logging', arguments: {} });
      expect(logs).toEqual([]);
      expect(transport.sessionId).toBe(id);
      await transport.terminateSession();
      await client.close();
    } finally {
      link.restore();
    }
  });
});

describe('scale-out on Redis: idle timeout', () => {
  it('--idle-timeout-ms: an unused session expires in Redis by itself, then every node answers 404', async () => {
    const redis = new Redis(REDIS_URL);
    const node = started.idle!;
    try {
      const id = await rawSession(node.url);
      const ttl = await redis.pttl(`${PREFIX}session:${id}`);
      expect(ttl).toBeGreaterThan(0);
      expect(ttl).toBeLessThanOrEqual(400);
      await eventually(
        async () => (await redis.exists(`${PREFIX}session:${id}`)) === 0,
        'the session expired',
      );
      const gone = await post(node.url, id, { jsonrpc: '2.0', id: 2, method: 'tools/list' });
      expect(gone.status).toBe(404);
      await gone.text();
    } finally {
      redis.disconnect();
    }
  });
});
