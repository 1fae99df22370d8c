import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { Client } from '../../client/client.js';
import { listenLocally } from '../../test/http-harness.js';
import { RemoteError, RequestAbortedError } from '../../protocol/errors.js';
import type { RequestId } from '../../protocol/types.js';
import type { InboundProblem, TransportHandlers } from '../transport.js';
import { HttpError, HttpTransportError, SessionExpiredError } from './client-errors.js';
import {
  reconnectDelay,
  StreamableHttpClientTransport,
  type StreamableHttpClientTransportOptions,
} from './client-streamable.js';

// ── a scriptable HTTP server ───────────────────────────────────────────────────────────────────────────

interface Recorded {
  method: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** The parsed body of a POST. */
  rpc: any;
  /** Resolves when the server side sees the connection end (the client hung up or we ended it). */
  closed: Promise<void>;
}

type Respond = (request: Recorded, res: ServerResponse) => void | Promise<void>;

interface TestServer {
  url: string;
  requests: Recorded[];
  posts(method?: string): Recorded[];
  close(): Promise<void>;
}

const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function serve(respond: Respond): Promise<TestServer> {
  const requests: Recorded[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      let rpc: any;
      try {
        rpc = body ? JSON.parse(body) : undefined;
      } catch {
        rpc = undefined;
      }
      const closed = new Promise<void>((resolve) => res.on('close', () => resolve()));
      const recorded: Recorded = { method: req.method ?? '', headers: req.headers, body, rpc, closed };
      requests.push(recorded);
      void respond(recorded, res);
    });
  });
  const listening = await listenLocally(server);
  const handle: TestServer = {
    url: `${listening.origin}/mcp`,
    requests,
    posts: (method) =>
      requests.filter((r) => r.method === 'POST' && (method === undefined || r.rpc?.method === method)),
    close: listening.close,
  };
  servers.push(handle);
  return handle;
}

function json(res: ServerResponse, body: unknown, headers: Record<string, string> = {}, status = 200): void {
  res.writeHead(status, { 'Content-Type': 'application/json', ...headers });
  res.end(typeof body === 'string' ? body : JSON.stringify(body));
}

function result(id: RequestId, value: unknown): string {
  return JSON.stringify({ jsonrpc: '2.0', id, result: value });
}

function openSse(res: ServerResponse, headers: Record<string, string> = {}): void {
  res.writeHead(200, { 'Content-Type': 'text/event-stream', ...headers });
  res.flushHeaders();
}

/** Polls until `predicate` holds (up to 5 s). Never asserts on time: it only waits for an event. */
async function until(predicate: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 1_000; i++) {
    if (predicate()) return;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error(`timed out waiting for ${what}`);
}

// ── a recording owner ──────────────────────────────────────────────────────────────────────────────────

interface Owner {
  handlers: TransportHandlers;
  messages: string[];
  failures: [RequestId, Error][];
  problems: InboundProblem[];
  warnings: string[];
}

function owner(): Owner {
  const o: Owner = {
    messages: [],
    failures: [],
    problems: [],
    warnings: [],
    handlers: {
      message: (text) => o.messages.push(text),
      invalid: (problem) => o.problems.push(problem),
      close: () => {},
      requestFailed: (id, error) => o.failures.push([id, error]),
    },
  };
  return o;
}

function transportFor(
  server: TestServer,
  o: Owner,
  options: StreamableHttpClientTransportOptions = {},
): StreamableHttpClientTransport {
  const transport = new StreamableHttpClientTransport(server.url, {
    logger: { warn: (message) => o.warnings.push(message) },
    ...options,
  });
  transport.start(o.handlers);
  return transport;
}

const MODERN_META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'test', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

function modernRequest(id: RequestId, method: string, params: Record<string, unknown> = {}): string {
  return JSON.stringify({ jsonrpc: '2.0', id, method, params: { ...params, _meta: MODERN_META } });
}

function legacyRequest(id: RequestId, method: string, params: Record<string, unknown> = {}): string {
  return JSON.stringify({ jsonrpc: '2.0', id, method, params });
}

// ── modern era ─────────────────────────────────────────────────────────────────────────────────────────

describe('modern era (2026-07-28)', () => {
  it('POSTs each request with the request metadata headers and delivers a JSON answer verbatim', async () => {
    const answer = '{ "jsonrpc": "2.0", "id": 1, "result": { "content": [], "resultType": "complete" } }';
    const server = await serve((_request, res) => json(res, answer));
    const o = owner();
    const transport = transportFor(server, o);
    const message = modernRequest(1, 'tools/call', {
      name: 'get_weather',
      arguments: { location: 'Seattle' },
    });
    transport.send(message);
    await until(() => o.messages.length === 1, 'the answer');

    expect(o.messages).toEqual([answer]);
    const [post] = server.requests;
    expect(post!.method).toBe('POST');
    expect(post!.body).toBe(message);
    expect(post!.headers['content-type']).toBe('application/json');
    expect(post!.headers.accept).toBe('application/json, text/event-stream');
    expect(post!.headers['mcp-protocol-version']).toBe('2026-07-28');
    expect(post!.headers['mcp-method']).toBe('tools/call');
    expect(post!.headers['mcp-name']).toBe('get_weather');
    expect(post!.headers['mcp-session-id']).toBeUndefined();
    await transport.close();
    expect(server.requests.map((r) => r.method)).toEqual(['POST']); // no DELETE without a session
  });

  it('reads an SSE answer: the notifications in order, then the response, and then closes the stream', async () => {
    const progress = JSON.stringify({
      jsonrpc: '2.0',
      method: 'notifications/progress',
      params: { progressToken: 1, progress: 1 },
    });
    const server = await serve((request, res) => {
      openSse(res);
      res.write(`: keep-alive\n\nevent: message\ndata: ${progress}\n\n`);
      res.write(`data: ${result(request.rpc.id, { tools: [], resultType: 'complete' })}\n\n`);
      // The stream stays open: the client must not wait for its end.
    });
    const o = owner();
    const transport = transportFor(server, o);
    transport.send(modernRequest(7, 'tools/list'));
    await until(() => o.messages.length === 2, 'both messages');
    expect(o.messages).toEqual([progress, result(7, { tools: [], resultType: 'complete' })]);
    await server.requests[0]!.closed; // the client hung up after the response
    expect(o.failures).toEqual([]);
    await transport.close();
  });

  it('removes tools with invalid x-mcp-header annotations from tools/list, warns, and mirrors the valid ones', async () => {
    const tools = [
      {
        name: 'execute_sql',
        inputSchema: {
          type: 'object',
          properties: {
            region: { type: 'string', 'x-mcp-header': 'Region' },
            priority: { type: 'integer', 'x-mcp-header': 'Priority' },
            verbose: { type: 'boolean', 'x-mcp-header': 'Verbose' },
            query: { type: 'string' },
          },
        },
      },
      {
        name: 'bad_number',
        inputSchema: { type: 'object', properties: { s: { type: 'number', 'x-mcp-header': 'S' } } },
      },
      { name: 'plain', inputSchema: { type: 'object' } },
    ];
    const server = await serve((request, res) => {
      if (request.rpc.method === 'tools/list')
        json(res, result(request.rpc.id, { tools, resultType: 'complete' }));
      else json(res, result(request.rpc.id, { content: [], resultType: 'complete' }));
    });
    const o = owner();
    const transport = transportFor(server, o);
    transport.send(modernRequest(1, 'tools/list'));
    await until(() => o.messages.length === 1, 'tools/list');
    const delivered = JSON.parse(o.messages[0]!);
    expect(delivered.result.tools.map((tool: { name: string }) => tool.name)).toEqual([
      'execute_sql',
      'plain',
    ]);
    expect(delivered.result.resultType).toBe('complete');
    expect(o.warnings).toHaveLength(1);
    expect(o.warnings[0]).toMatch(
      /^Rejected tool "bad_number": x-mcp-header at \/properties\/s must annotate/,
    );

    transport.send(
      modernRequest(2, 'tools/call', {
        name: 'execute_sql',
        arguments: { region: 'Hello, 世界', priority: 42, verbose: null, query: 'SELECT 1' },
      }),
    );
    await until(() => o.messages.length === 2, 'tools/call');
    const call = server.posts('tools/call')[0]!;
    expect(call.headers['mcp-param-region']).toBe('=?base64?SGVsbG8sIOS4lueVjA==?=');
    expect(call.headers['mcp-param-priority']).toBe('42');
    expect(call.headers['mcp-param-verbose']).toBeUndefined();
    expect(call.headers['mcp-param-query']).toBeUndefined();
    expect(call.headers['mcp-name']).toBe('execute_sql');
    await transport.close();
  });

  it('cancels a request by closing its stream, never by POSTing notifications/cancelled', async () => {
    const server = await serve((request, res) => {
      if (request.rpc.method === 'server/discover') {
        json(
          res,
          result(request.rpc.id, {
            supportedVersions: ['2026-07-28'],
            capabilities: { tools: {} },
            resultType: 'complete',
            ttlMs: 0,
            cacheScope: 'private',
          }),
        );
        return;
      }
      openSse(res); // tools/call: never answered
    });
    const mcpClient = new Client({ name: 'test', version: '1' });
    const client = await mcpClient.connect(new StreamableHttpClientTransport(server.url), {
      revision: '2026-07-28',
    });
    const controller = new AbortController();
    const call = client.callTool({ name: 'slow' }, { signal: controller.signal });
    await until(() => server.posts('tools/call').length === 1, 'the tools/call POST');
    controller.abort(new Error('user gave up'));
    await expect(call).rejects.toBeInstanceOf(RequestAbortedError);
    await server.posts('tools/call')[0]!.closed;
    await client.close();
    expect(server.requests.map((r) => r.rpc?.method ?? r.method)).toEqual(['server/discover', 'tools/call']);
  });

  it('loses a request whose stream breaks before the response: modern streams are not resumed', async () => {
    const server = await serve((_request, res) => {
      openSse(res);
      res.write('id: 1\nretry: 1\ndata: \n\n');
      setTimeout(() => res.destroy(), 5);
    });
    const o = owner();
    const transport = transportFor(server, o);
    transport.send(modernRequest(3, 'tools/call', { name: 'x' }));
    await until(() => o.failures.length === 1, 'the failure');
    const [id, error] = o.failures[0]!;
    expect(id).toBe(3);
    expect(error).toBeInstanceOf(HttpTransportError);
    expect((error as HttpTransportError).reason).toBe('stream-ended');
    expect(error.message).toContain('2026-07-28 streams cannot be resumed');
    expect(server.requests.map((r) => r.method)).toEqual(['POST']);
    await transport.close();
  });

  it('delivers a JSON-RPC error that answers the request, whatever the HTTP status', async () => {
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: 4,
      error: { code: -32022, message: 'Unsupported protocol version', data: { supported: ['2026-07-28'] } },
    });
    const server = await serve((_request, res) => json(res, body, {}, 400));
    const o = owner();
    const transport = transportFor(server, o);
    transport.send(modernRequest(4, 'server/discover'));
    await until(() => o.messages.length === 1, 'the error');
    expect(o.messages).toEqual([body]);
    expect(o.failures).toEqual([]);
    await transport.close();
  });

  it('fails a request with HttpError when the status carries no JSON-RPC answer to it', async () => {
    let call = 0;
    const server = await serve((_request, res) => {
      call++;
      if (call === 1) {
        res.writeHead(500, { 'Content-Type': 'text/plain' });
        res.end('boom');
      } else {
        json(
          res,
          {
            jsonrpc: '2.0',
            id: null,
            error: { code: -32000, message: 'Bad Request: Server not initialized' },
          },
          {},
          400,
        );
      }
    });
    const o = owner();
    const transport = transportFor(server, o);
    transport.send(modernRequest(1, 'tools/list'));
    await until(() => o.failures.length === 1, 'the first failure');
    transport.send(modernRequest(2, 'tools/list'));
    await until(() => o.failures.length === 2, 'the second failure');
    const [first, second] = o.failures.map(([, error]) => error as HttpError);
    expect(first).toBeInstanceOf(HttpError);
    expect([first!.status, first!.body]).toEqual([500, 'boom']);
    expect(second!.status).toBe(400);
    expect(second!.message).toContain('HTTP 400 Bad Request');
    expect(o.messages).toEqual([]);
    await transport.close();
  });

  it('refuses malformed and oversized answers cleanly, and keeps working', async () => {
    const answers: ((id: RequestId, res: ServerResponse) => void)[] = [
      (_id, res) => json(res, '{not json'),
      (_id, res) => {
        res.writeHead(200, { 'Content-Type': 'text/html' });
        res.end('<html></html>');
      },
      (_id, res) => {
        res.writeHead(202);
        res.end();
      },
      (id, res) => json(res, result(id, { padding: 'x'.repeat(2_000) })),
      (id, res) => {
        openSse(res);
        res.write(`data: ${result(id, { padding: 'x'.repeat(2_000) })}\n\n`);
        res.end();
      },
      (id, res) => json(res, result(id, { tools: [] })),
    ];
    const server = await serve((request, res) => answers[request.rpc.id - 1]!(request.rpc.id, res));
    const o = owner();
    const transport = transportFor(server, o, { maxMessageBytes: 1_000 });
    for (let id = 1; id <= answers.length; id++) transport.send(modernRequest(id, 'tools/list'));
    await until(() => o.failures.length === 5 && o.messages.length === 1, 'every outcome');

    const reasons = new Map(o.failures.map(([id, error]) => [id, (error as HttpTransportError).reason]));
    expect(Object.fromEntries(reasons)).toEqual({
      1: 'invalid-response',
      2: 'invalid-response',
      3: 'invalid-response',
      4: 'too-large',
      5: 'too-large',
    });
    expect(o.problems.map((problem) => problem.kind)).toEqual(['too-large', 'too-large']);
    expect(o.messages).toEqual([result(6, { tools: [] })]);
    await transport.close();
  });

  it('fails requests on network errors', async () => {
    const server = await serve(() => {});
    const url = server.url;
    await server.close();
    servers.pop();
    const o = owner();
    const transport = new StreamableHttpClientTransport(url);
    transport.start(o.handlers);
    transport.send(modernRequest(1, 'tools/list'));
    await until(() => o.failures.length === 1, 'the failure');
    expect((o.failures[0]![1] as HttpTransportError).reason).toBe('network');
    await transport.close();
  });

  it('uses a custom fetch and extra headers, which never override the protocol headers', async () => {
    const server = await serve((request, res) => json(res, result(request.rpc.id, {})));
    const o = owner();
    const seen: string[] = [];
    const transport = transportFor(server, o, {
      fetch: (url, init) => {
        seen.push(`${init.method} ${url.pathname}`);
        return fetch(url, init);
      },
      headers: async () => ({
        Authorization: 'Bearer token-1',
        Accept: 'text/plain',
        'Mcp-Method': 'forged',
      }),
    });
    transport.send(modernRequest(1, 'tools/list'));
    await until(() => o.messages.length === 1, 'the answer');
    expect(seen).toEqual(['POST /mcp']);
    const headers = server.requests[0]!.headers;
    expect(headers.authorization).toBe('Bearer token-1');
    expect(headers.accept).toBe('application/json, text/event-stream');
    expect(headers['mcp-method']).toBe('tools/list');
    await transport.close();
  });

  it('times out a notification POST that gets no response headers, with a warning', async () => {
    const server = await serve(() => {
      // Never answers.
    });
    const o = owner();
    const transport = transportFor(server, o, { timeoutMs: 50 });
    transport.send(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/roots/list_changed' }));
    await until(() => o.warnings.length === 1, 'the warning');
    expect(o.warnings[0]).toBe('POST notifications/roots/list_changed: no response within 50 ms');
    await server.requests[0]!.closed; // the client gave up on the connection
    await transport.close();
  });

  it('refuses to send before start and after close', async () => {
    const transport = new StreamableHttpClientTransport('http://127.0.0.1:1/mcp');
    expect(() => transport.send('{}')).toThrow('not started');
    transport.start(owner().handlers);
    await transport.close();
    expect(() => transport.send('{}')).toThrow('closed');
  });
});

// ── legacy era ─────────────────────────────────────────────────────────────────────────────────────────

interface LegacyScript {
  /** The revision answered to initialize. Default 2025-11-25. */
  revision?: string;
  /** Answers everything but initialize, notifications and GET/DELETE. Default: an empty tools list. */
  onRequest?: (request: Recorded, res: ServerResponse, session: string) => void;
  /** GET: default 405. */
  onGet?: (request: Recorded, res: ServerResponse) => void;
}

/** A legacy Streamable HTTP server with sessions s1, s2, … and an optional way to end them. */
async function legacyServer(script: LegacyScript = {}) {
  let sessions = 0;
  const live = new Set<string>();
  const server = await serve((request, res) => {
    if (request.method === 'GET') {
      if (script.onGet) script.onGet(request, res);
      else {
        res.writeHead(405);
        res.end();
      }
      return;
    }
    if (request.method === 'DELETE') {
      live.delete(String(request.headers['mcp-session-id']));
      res.writeHead(200);
      res.end();
      return;
    }
    const rpc = request.rpc;
    if (rpc.method === 'initialize') {
      const session = `s${++sessions}`;
      live.add(session);
      json(
        res,
        result(rpc.id, {
          protocolVersion: script.revision ?? '2025-11-25',
          capabilities: { tools: {} },
          serverInfo: { name: 'legacy', version: '1' },
        }),
        { 'Mcp-Session-Id': session },
      );
      return;
    }
    const session = String(request.headers['mcp-session-id']);
    if (!live.has(session)) {
      res.writeHead(404);
      res.end();
      return;
    }
    if (rpc.id === undefined) {
      res.writeHead(202);
      res.end();
      return;
    }
    if (script.onRequest) script.onRequest(request, res, session);
    else json(res, result(rpc.id, { tools: [] }));
  });
  return { server, live, end: (session: string) => live.delete(session) };
}

describe('legacy era (2025-03-26 … 2025-11-25)', () => {
  it('sends the session id and the negotiated version after initialize, opens the standalone stream, DELETEs on close', async () => {
    const { server } = await legacyServer();
    const warnings: string[] = [];
    const mcpClient = new Client({ name: 'test', version: '1' });
    const transport = new StreamableHttpClientTransport(server.url, {
      logger: { warn: (m) => warnings.push(m) },
    });
    const client = await mcpClient.connect(transport, { revision: '2025-11-25' });
    await client.listTools();
    await until(() => server.requests.some((r) => r.method === 'GET'), 'the standalone GET');
    await client.close();

    const summary = server.requests.map((r) => [
      r.method,
      r.rpc?.method,
      r.headers['mcp-session-id'],
      r.headers['mcp-protocol-version'],
    ]);
    expect(summary.slice(0, 2)).toEqual([
      ['POST', 'initialize', undefined, undefined],
      ['POST', 'notifications/initialized', 's1', '2025-11-25'],
    ]);
    expect(summary.slice(2, 4)).toEqual(
      expect.arrayContaining([
        ['GET', undefined, 's1', '2025-11-25'],
        ['POST', 'tools/list', 's1', '2025-11-25'],
      ]),
    );
    expect(summary[4]).toEqual(['DELETE', undefined, 's1', '2025-11-25']);
    expect(server.requests.find((r) => r.method === 'GET')!.headers.accept).toBe('text/event-stream');
    expect(server.requests.some((r) => r.headers['mcp-method'] !== undefined)).toBe(false);
    expect(warnings).toEqual([]); // a 405 on the standalone GET is the server's right
  });

  it('sends no MCP-Protocol-Version header at 2025-03-26, which did not define it', async () => {
    const { server } = await legacyServer({ revision: '2025-03-26' });
    const mcpClient = new Client({ name: 'test', version: '1' });
    const client = await mcpClient.connect(
      new StreamableHttpClientTransport(server.url, { standaloneStream: false }),
      {
        revision: '2025-03-26',
      },
    );
    await client.listTools();
    await client.close();
    expect(server.posts('tools/list')[0]!.headers['mcp-protocol-version']).toBeUndefined();
    expect(server.posts('tools/list')[0]!.headers['mcp-session-id']).toBe('s1');
  });

  it('leaves tools/list results alone: x-mcp-header belongs to 2026-07-28', async () => {
    const tools = [
      {
        name: 'n',
        inputSchema: { type: 'object', properties: { s: { type: 'number', 'x-mcp-header': 'S' } } },
      },
    ];
    const { server } = await legacyServer({
      onRequest: (request, res) => json(res, result(request.rpc.id, { tools })),
    });
    const mcpClient = new Client({ name: 'test', version: '1' });
    const client = await mcpClient.connect(
      new StreamableHttpClientTransport(server.url, { standaloneStream: false }),
      {
        revision: '2025-11-25',
      },
    );
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['n']);
    await client.close();
  });

  it('resumes a stream that ends before the response: GET with Last-Event-ID, after the server retry', async () => {
    const response = result(2, { content: [{ type: 'text', text: 'resumed' }] });
    const server = await serve((request, res) => {
      if (request.method === 'POST') {
        openSse(res);
        res.end('id: e1\nretry: 5\ndata: \n\n');
        return;
      }
      openSse(res);
      res.write(`id: e2\ndata: ${response}\n\n`);
    });
    const o = owner();
    const transport = transportFor(server, o, { sessionId: 'abc' });
    transport.send(legacyRequest(2, 'tools/call', { name: 'slow' }));
    await until(() => o.messages.length === 1, 'the resumed response');
    expect(o.messages).toEqual([response]);
    const get = server.requests[1]!;
    expect([
      get.method,
      get.headers['last-event-id'],
      get.headers['mcp-session-id'],
      get.headers.accept,
    ]).toEqual(['GET', 'e1', 'abc', 'text/event-stream']);
    await get.closed; // answered: the resumed stream is closed by the client
    await transport.close();
  });

  it('gives up resuming after the configured number of attempts', async () => {
    const server = await serve((request, res) => {
      if (request.method === 'POST') {
        openSse(res);
        res.end('id: e1\ndata: \n\n');
        return;
      }
      res.writeHead(503);
      res.end();
    });
    const o = owner();
    const transport = transportFor(server, o, { reconnect: { maxAttempts: 2, initialDelayMs: 1 } });
    transport.send(legacyRequest(1, 'tools/call', { name: 'slow' }));
    await until(() => o.failures.length === 1, 'the failure');
    expect(o.failures[0]![1].message).toContain('could not be resumed after 2 attempts');
    expect(server.requests.map((r) => r.method)).toEqual(['POST', 'GET', 'GET']);
    await transport.close();
  });

  it('fails at once when the broken stream gave no event id to resume from', async () => {
    const server = await serve((_request, res) => {
      openSse(res);
      res.end(': nothing\n\n');
    });
    const o = owner();
    const transport = transportFor(server, o);
    transport.send(legacyRequest(1, 'tools/call', { name: 'slow' }));
    await until(() => o.failures.length === 1, 'the failure');
    expect(o.failures[0]![1].message).toContain('without an event id to resume from');
    expect(server.requests.map((r) => r.method)).toEqual(['POST']);
    await transport.close();
  });

  it('keeps the standalone stream: reconnects with Last-Event-ID and delivers server messages', async () => {
    const notification = JSON.stringify({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' });
    let gets = 0;
    const { server } = await legacyServer({
      onGet: (_request, res) => {
        openSse(res);
        if (++gets === 1) res.end(`id: g1\ndata: ${notification}\n\n`);
      },
    });
    const changed: unknown[] = [];
    const client = await new Client({ name: 'test', version: '1' }).connect(
      new StreamableHttpClientTransport(server.url, { reconnect: { initialDelayMs: 1 } }),
      { revision: '2025-11-25' },
    );
    client.onNotification('notifications/tools/list_changed', (params) => changed.push(params));
    await until(() => gets === 2, 'the reconnection');
    expect(changed).toEqual([{}]);
    const [first, second] = server.requests.filter((r) => r.method === 'GET');
    expect(first!.headers['last-event-id']).toBeUndefined();
    expect(second!.headers['last-event-id']).toBe('g1');
    await client.close();
    await second!.closed;
  });

  it('cancels with notifications/cancelled in the session, and drops the stream', async () => {
    const server = await serve((request, res) => {
      if (request.rpc?.method === 'tools/call') openSse(res);
      else {
        res.writeHead(202);
        res.end();
      }
    });
    const o = owner();
    const transport = transportFor(server, o, { sessionId: 'abc' });
    transport.send(legacyRequest(5, 'tools/call', { name: 'slow' }));
    await until(() => server.requests.length === 1, 'the call');
    const cancel = JSON.stringify({
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: 5, reason: 'bored' },
    });
    transport.send(cancel);
    await until(() => server.requests.length === 2, 'the cancellation');
    expect(server.requests[1]!.body).toBe(cancel);
    expect(server.requests[1]!.headers['mcp-session-id']).toBe('abc');
    await server.requests[0]!.closed;
    expect(o.failures).toEqual([]);
    await transport.close();
  });
});

describe('session expiry (HTTP 404)', () => {
  it('re-initializes through the client and sends the request again in the new session', async () => {
    const legacy = await legacyServer();
    const mcpClient = new Client({ name: 'test', version: '1' });
    const client = await mcpClient.connect(
      new StreamableHttpClientTransport(legacy.server.url, { standaloneStream: false }),
      {
        revision: '2025-11-25',
      },
    );
    await client.listTools();
    legacy.end('s1');
    expect((await client.listTools()).tools).toEqual([]);
    await client.close();
    const summary = legacy.server.requests.map((r) => [r.method, r.rpc?.method, r.headers['mcp-session-id']]);
    expect(summary).toEqual([
      ['POST', 'initialize', undefined],
      ['POST', 'notifications/initialized', 's1'],
      ['POST', 'tools/list', 's1'],
      ['POST', 'tools/list', 's1'], // 404
      ['POST', 'initialize', undefined],
      ['POST', 'notifications/initialized', 's2'],
      ['POST', 'tools/list', 's2'],
      ['DELETE', undefined, 's2'],
    ]);
    // The retry is the same request, id included.
    expect(legacy.server.requests[6]!.body).toBe(legacy.server.requests[3]!.body);
  });

  it('restores the log level and resource subscriptions in the renewed session', async () => {
    const legacy = await legacyServer();
    const client = await new Client({ name: 'test', version: '1' }).connect(
      new StreamableHttpClientTransport(legacy.server.url, { standaloneStream: false }),
      { revision: '2025-11-25' },
    );
    await client.setLogLevel('debug');
    await client.subscribeResource('test://a');
    await client.subscribeResource('test://b');
    await client.unsubscribeResource('test://b');
    legacy.end('s1');
    await client.listTools();
    await until(() => legacy.server.posts('resources/subscribe').length === 3, 'the restored subscription');
    const inS2 = legacy.server.requests
      .filter((r) => r.headers['mcp-session-id'] === 's2' && r.rpc?.id !== undefined)
      .map((r) => [r.rpc?.method, r.rpc?.params]);
    expect(inS2).toEqual(
      expect.arrayContaining([
        ['logging/setLevel', { level: 'debug' }],
        ['resources/subscribe', { uri: 'test://a' }],
        ['tools/list', {}],
      ]),
    );
    expect(inS2).toHaveLength(3);
    await client.close();
  });

  it('sends a request again only once: a second 404 fails it with SessionExpiredError', async () => {
    let initialized = false;
    const server = await serve((request, res) => {
      if (request.rpc?.method === 'initialize') {
        json(
          res,
          result(request.rpc.id, {
            protocolVersion: '2025-11-25',
            capabilities: {},
            serverInfo: { name: 's', version: '1' },
          }),
          {
            'Mcp-Session-Id': `s${server.posts('initialize').length}`,
          },
        );
        return;
      }
      if (request.rpc?.method === 'notifications/initialized' && !initialized) {
        initialized = true;
        res.writeHead(202);
        res.end();
        return;
      }
      res.writeHead(request.rpc?.id === undefined ? 202 : 404);
      res.end();
    });
    const mcpClient = new Client({ name: 'test', version: '1' });
    const client = await mcpClient.connect(
      new StreamableHttpClientTransport(server.url, { standaloneStream: false }),
      {
        revision: '2025-11-25',
      },
    );
    const error = await client.listTools().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SessionExpiredError);
    expect((error as SessionExpiredError).sessionId).toBe('s2');
    expect((error as Error).message).toContain('answered 404 in the new session too');
    await client.close();
  });

  it('holds what is sent while the owner opens the new session, and drops what belonged to the old one', async () => {
    const server = await serve((request, res) => {
      const rpc = request.rpc ?? {};
      if (request.headers['mcp-session-id'] === 'old') {
        res.writeHead(404);
        res.end();
      } else if (rpc.method === 'initialize') {
        json(
          res,
          result(rpc.id, {
            protocolVersion: '2025-11-25',
            capabilities: {},
            serverInfo: { name: 's', version: '1' },
          }),
          {
            'Mcp-Session-Id': 'new',
          },
        );
      } else if (rpc.id === undefined) {
        res.writeHead(202);
        res.end();
      } else {
        json(res, result(rpc.id, { tools: [] }));
      }
    });
    const o = owner();
    let expired = 0;
    o.handlers.sessionExpired = () => expired++;
    const transport = transportFor(server, o, { sessionId: 'old', standaloneStream: false });
    transport.send(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/roots/list_changed' }));
    await until(() => expired === 1, 'the expiry');
    transport.send(legacyRequest(2, 'tools/list')); // held: there is no session to send it in
    transport.send(
      legacyRequest(1, 'initialize', {
        protocolVersion: '2025-11-25',
        capabilities: {},
        clientInfo: { name: 'c', version: '1' },
      }),
    );
    await until(() => o.messages.length === 1, 'the initialize result');
    transport.send(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
    await until(() => o.messages.length === 2, 'the held request');
    expect(server.requests.map((r) => [r.rpc.method, r.headers['mcp-session-id']])).toEqual([
      ['notifications/roots/list_changed', 'old'],
      ['initialize', undefined],
      ['notifications/initialized', 'new'],
      ['tools/list', 'new'],
    ]);
    expect(o.failures).toEqual([]);
    await transport.close();
  });

  it('without a sessionExpired handler, fails the request with SessionExpiredError', async () => {
    const server = await serve((_request, res) => {
      res.writeHead(404);
      res.end();
    });
    const o = owner();
    const transport = transportFor(server, o, { sessionId: 'gone' });
    transport.send(legacyRequest(1, 'tools/list'));
    await until(() => o.failures.length === 1, 'the failure');
    expect(o.failures[0]![1]).toBeInstanceOf(SessionExpiredError);
    expect(transport.sessionId).toBeUndefined();
    await transport.close();
  });
});

describe('era detection over HTTP', () => {
  it('falls back to initialize when server/discover gets a 400 without a modern JSON-RPC error', async () => {
    const server = await serve((request, res) => {
      if (request.rpc?.method === 'server/discover') {
        json(
          res,
          { jsonrpc: '2.0', id: null, error: { code: -32000, message: 'Bad Request: No valid session ID' } },
          {},
          400,
        );
        return;
      }
      if (request.rpc?.method === 'initialize') {
        json(
          res,
          result(request.rpc.id, {
            protocolVersion: '2025-06-18',
            capabilities: {},
            serverInfo: { name: 'old', version: '1' },
          }),
        );
        return;
      }
      res.writeHead(request.method === 'GET' ? 405 : 202);
      res.end();
    });
    const mcpClient = new Client({ name: 'test', version: '1' });
    const client = await mcpClient.connect(new StreamableHttpClientTransport(server.url));
    expect([client.era, client.revision]).toEqual(['legacy', '2025-06-18']);
    await until(() => server.posts('notifications/initialized').length === 1, 'the initialized notification');
    expect(
      server
        .posts()
        .map((r) => r.rpc.method)
        .slice(0, 3),
    ).toEqual(['server/discover', 'initialize', 'notifications/initialized']);
    await client.close();
  });

  it('stays modern on a 400 UnsupportedProtocolVersion, retrying with a listed version', async () => {
    const server = await serve((request, res) => {
      const version = request.headers['mcp-protocol-version'];
      if (request.rpc?.method === 'server/discover' && server.posts().length === 1) {
        json(
          res,
          {
            jsonrpc: '2.0',
            id: request.rpc.id,
            error: {
              code: -32022,
              message: 'Unsupported protocol version',
              data: { supported: ['2026-07-28'], requested: version },
            },
          },
          {},
          400,
        );
        return;
      }
      json(
        res,
        result(request.rpc.id, {
          supportedVersions: ['2026-07-28'],
          capabilities: {},
          resultType: 'complete',
          ttlMs: 0,
          cacheScope: 'private',
        }),
      );
    });
    const mcpClient = new Client({ name: 'test', version: '1' });
    const client = await mcpClient.connect(new StreamableHttpClientTransport(server.url));
    expect(client.era).toBe('modern');
    expect(server.posts().map((r) => r.rpc.method)).toEqual(['server/discover', 'server/discover']);
    await client.close();
  });

  it('reports an answer that is the server error to the client as a RemoteError', async () => {
    const server = await serve((request, res) => {
      json(
        res,
        { jsonrpc: '2.0', id: request.rpc.id, error: { code: -32601, message: 'Method not found' } },
        {},
        404,
      );
    });
    const mcpClient = new Client({ name: 'test', version: '1' });
    const failure = await mcpClient
      .connect(new StreamableHttpClientTransport(server.url), { revision: '2026-07-28' })
      .catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(RemoteError);
    expect((failure as RemoteError).code).toBe(-32601);
  });
});

describe('reconnectDelay', () => {
  it('uses the server retry value exactly, whatever the attempt', () => {
    expect(reconnectDelay(0, 500)).toBe(500);
    expect(reconnectDelay(5, 0)).toBe(0);
  });

  it('backs off exponentially without one, up to the cap', () => {
    const options = { initialDelayMs: 100, factor: 2, maxDelayMs: 500 };
    expect([0, 1, 2, 3, 4].map((attempt) => reconnectDelay(attempt, undefined, options))).toEqual([
      100, 200, 400, 500, 500,
    ]);
    expect(reconnectDelay(1, undefined)).toBe(1_500);
  });
});
