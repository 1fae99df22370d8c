// A small, correct MCP server written with raw JSON-RPC, for the validator's corpus. Every corpus entry starts it
// with one hook that breaks exactly one requirement; with no hook it must pass the validator with zero failures.
//
//   node corpus/correct.mjs                  stdio
//   node corpus/correct.mjs --http --port N  Streamable HTTP at /mcp (port 0: any free port)
//   node corpus/correct.mjs --sse --port N   HTTP+SSE (2024-11-05) at /sse
// On HTTP the server announces its URL on stderr: `corpus server on <url>`.
//
// Hooks (all optional):
//   request(message, ctx, next)   -> a response object (or undefined for none); `next(m?)` is the correct answer
//   line(text, ctx, next)         -> handle a raw stdin line / HTTP body (`next()` handles it correctly)
//   http(req, res, body, next)    -> handle an HTTP exchange (`next()` handles it correctly)
//   callTool(name, args, ctx, id, params) -> a response to tools/call (undefined: the default handling)
//   afterInitialize(ctx)          -> runs after the initialize response is written ({ state, send, message })
//   modernStatus(code, status)    -> Streamable HTTP, 2026-07-28: the status for a response (error code or undefined)
//   sseOpen(event)                -> HTTP+SSE: runs when a stream opens, before the endpoint event
//   tools / resources / prompts   -> replace the default lists
//   onEnd()                       -> stdin ended (default: exit)
import { createServer as createHttpServer } from 'node:http';
import { randomUUID } from 'node:crypto';

export const LEGACY = ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25'];
export const MODERN = '2026-07-28';
const META_VERSION = 'io.modelcontextprotocol/protocolVersion';
const META_CAPABILITIES = 'io.modelcontextprotocol/clientCapabilities';
const META_LEVEL = 'io.modelcontextprotocol/logLevel';
const META_SUBSCRIPTION = 'io.modelcontextprotocol/subscriptionId';
export const SERVER_INFO = { name: 'corpus-server', version: '1.0.0' };
const LEVELS = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'];

export const ECHO_TOOL = {
  name: 'echo',
  description: 'Echoes the text it is given',
  inputSchema: {
    type: 'object',
    properties: { text: { type: 'string', description: 'What to echo' } },
    required: ['text'],
    additionalProperties: false,
  },
  annotations: { readOnlyHint: true },
};
export const RESOURCE = { uri: 'test://corpus/readme', name: 'readme', mimeType: 'text/plain' };
export const TEMPLATE = { uriTemplate: 'test://corpus/items/{id}', name: 'items', mimeType: 'text/plain' };
export const PROMPT = {
  name: 'greeting',
  description: 'A greeting for someone',
  arguments: [{ name: 'person', description: 'Who to greet', required: true }],
};

/** Parses a line; `undefined` when it is not JSON (hooks then leave it to the correct handling). */
export function tryParse(text) {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

const error = (id, code, message, data) => ({
  jsonrpc: '2.0',
  id,
  error: data === undefined ? { code, message } : { code, message, data },
});
const result = (id, value) => ({ jsonrpc: '2.0', id, result: value });
const isObject = (v) => typeof v === 'object' && v !== null && !Array.isArray(v);

/** An error response (`data` only when given). */
export { error as errorResponse };

/**
 * A result as the era of `ctx` wants it: in 2026-07-28 (`ctx.modern`) with resultType and the server's identity
 * in _meta, and with cache hints when `cacheable`; unchanged before.
 */
function withResultType(value, ctx, cacheable = false) {
  if (!ctx.modern) return value;
  const out = {
    ...value,
    resultType: 'complete',
    _meta: { ...(value._meta ?? {}), 'io.modelcontextprotocol/serverInfo': SERVER_INFO },
  };
  if (cacheable) Object.assign(out, { ttlMs: 0, cacheScope: 'public' });
  return out;
}

/** The response carrying `value` as the result of request `id`, in the era of `ctx` (see `withResultType`). */
export function resultResponse(id, value, ctx, cacheable = false) {
  return result(id, withResultType(value, ctx, cacheable));
}

/** A tool without arguments (an empty input object), read-only; `extra` adds fields such as outputSchema. */
export function noArgumentTool(name, description, extra = {}) {
  return {
    name,
    description,
    inputSchema: { type: 'object', additionalProperties: false },
    annotations: { readOnlyHint: true },
    ...extra,
  };
}

/** A notifications/progress message. */
export function progressNotification(progressToken, progress, total) {
  return { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken, progress, total } };
}

/** Strips the fields a revision does not know (annotations came in 2025-03-26, title/outputSchema in 2025-06-18). */
function toolFor(tool, revision) {
  const copy = { ...tool };
  if (revision < '2025-03-26') delete copy.annotations;
  if (revision < '2025-06-18') {
    delete copy.outputSchema;
    delete copy.title;
  }
  if (revision < '2025-11-25') delete copy.execution;
  return copy;
}

export function createCorpusServer(hooks = {}) {
  const revisions = hooks.revisions ?? ['2025-11-25', MODERN];
  const legacy = revisions.filter((r) => r !== MODERN);
  const modern = revisions.includes(MODERN);
  const tools = hooks.tools ?? [ECHO_TOOL];
  const resources = hooks.resources ?? [RESOURCE];
  const prompts = hooks.prompts ?? [PROMPT];
  const capabilities = hooks.capabilities ?? {
    tools: {},
    resources: { subscribe: true },
    prompts: {},
    logging: {},
    completions: {},
  };

  /** Per-connection (stdio) or per-session (HTTP) state. */
  function newState(send) {
    return {
      send,
      revision: undefined,
      initialized: false,
      inFlight: new Map(),
      cancelled: new Set(),
      level: undefined,
    };
  }

  const callTool = (params, ctx, id) => {
    const name = params.name;
    const tool = tools.find((t) => t.name === name);
    if (tool === undefined) return error(id, -32602, `Unknown tool: ${String(name)}`);
    if (hooks.callTool) {
      const answer = hooks.callTool(name, params.arguments ?? {}, ctx, id, params);
      if (answer !== undefined) return answer;
    }
    const args = params.arguments ?? {};
    const valid =
      isObject(args) && typeof args.text === 'string' && Object.keys(args).every((k) => k === 'text');
    if (!valid) {
      // Invalid arguments: a protocol error before 2025-11-25, a tool execution error from then on (SEP-1303).
      const revision = ctx.revision ?? MODERN;
      if (revision >= '2025-11-25')
        return resultResponse(
          id,
          {
            content: [{ type: 'text', text: 'Invalid arguments: text (string) is required' }],
            isError: true,
          },
          ctx,
        );
      return error(id, -32602, 'Invalid arguments: text (string) is required');
    }
    return resultResponse(id, { content: [{ type: 'text', text: args.text }] }, ctx);
  };

  const list = (key, items, params, ctx, id) => {
    if (params.cursor !== undefined) return error(id, -32602, 'Invalid cursor');
    return resultResponse(id, { [key]: items }, ctx, true);
  };

  /** The correct answer to a request (`ctx.modern` tells the era of this request). */
  function answer(message, ctx) {
    const { id, method } = message;
    const params = isObject(message.params) ? message.params : {};
    const revision = ctx.revision;
    const gate = (capability) => capabilities[capability] !== undefined;
    switch (method) {
      case 'ping':
        return ctx.modern ? error(id, -32601, 'Method not found: ping') : result(id, {});
      case 'server/discover':
        return resultResponse(id, { supportedVersions: [...revisions].reverse(), capabilities }, ctx, true);
      case 'tools/list':
        if (!gate('tools')) return error(id, -32601, 'Method not found');
        return list(
          'tools',
          tools.map((t) => toolFor(t, revision)),
          params,
          ctx,
          id,
        );
      case 'tools/call':
        if (!gate('tools')) return error(id, -32601, 'Method not found');
        return callTool(params, ctx, id);
      case 'resources/list':
        if (!gate('resources')) return error(id, -32601, 'Method not found');
        return list('resources', resources, params, ctx, id);
      case 'resources/templates/list':
        if (!gate('resources')) return error(id, -32601, 'Method not found');
        return list('resourceTemplates', [TEMPLATE], params, ctx, id);
      case 'resources/read': {
        if (!gate('resources')) return error(id, -32601, 'Method not found');
        const found = resources.find((r) => r.uri === params.uri);
        if (found === undefined)
          return error(id, ctx.modern ? -32602 : -32002, `Resource not found: ${String(params.uri)}`);
        return resultResponse(
          id,
          { contents: [{ uri: found.uri, mimeType: 'text/plain', text: 'Hello from the corpus.' }] },
          ctx,
          true,
        );
      }
      case 'resources/subscribe':
      case 'resources/unsubscribe':
        if (ctx.modern || !capabilities.resources?.subscribe) return error(id, -32601, 'Method not found');
        return result(id, {});
      case 'prompts/list':
        if (!gate('prompts')) return error(id, -32601, 'Method not found');
        return list('prompts', prompts, params, ctx, id);
      case 'prompts/get': {
        if (!gate('prompts')) return error(id, -32601, 'Method not found');
        const prompt = prompts.find((p) => p.name === params.name);
        if (prompt === undefined) return error(id, -32602, `Unknown prompt: ${String(params.name)}`);
        const args = isObject(params.arguments) ? params.arguments : {};
        for (const arg of prompt.arguments ?? []) {
          if (arg.required && typeof args[arg.name] !== 'string')
            return error(id, -32602, `Missing required argument: ${arg.name}`);
        }
        return resultResponse(
          id,
          {
            messages: [{ role: 'user', content: { type: 'text', text: `Hello, ${String(args.person)}!` } }],
          },
          ctx,
        );
      }
      case 'completion/complete': {
        if (revision !== '2024-11-05' && !gate('completions')) return error(id, -32601, 'Method not found');
        const ref = isObject(params.ref) ? params.ref : {};
        if (ref.type === 'ref/prompt' && !prompts.some((p) => p.name === ref.name))
          return error(id, -32602, `Unknown prompt: ${String(ref.name)}`);
        return resultResponse(
          id,
          { completion: { values: hooks.completions ?? ['Alice', 'Bob'], hasMore: false } },
          ctx,
        );
      }
      case 'logging/setLevel':
        if (ctx.modern || !gate('logging')) return error(id, -32601, 'Method not found');
        if (!LEVELS.includes(params.level))
          return error(id, -32602, `Invalid log level: ${String(params.level)}`);
        ctx.state.level = params.level;
        return result(id, {});
      default:
        return error(id, -32601, `Method not found: ${String(method)}`);
    }
  }

  /** Handles one parsed message on a connection; writes through `state.send`. */
  function handleMessage(message, state, transport) {
    const send = (m) => m !== undefined && state.send(m);
    if (Array.isArray(message)) {
      const batching = (state.revision ?? revisions[0]) === '2025-03-26' && state.initialized;
      if (!batching || message.length === 0)
        return send(error(null, -32600, 'Invalid Request: batches are not supported'));
      const replies = [];
      for (const element of message) {
        const sub = { ...state, send: (m) => replies.push(m) };
        handleMessage(element, sub, transport);
      }
      if (replies.length > 0) state.send(replies);
      return;
    }
    if (!isObject(message)) return send(error(null, -32600, 'Invalid Request'));
    const hasId = 'id' in message;
    const idOk = typeof message.id === 'string' || typeof message.id === 'number';
    if (message.jsonrpc !== '2.0' || typeof message.method !== 'string') {
      if ('result' in message || 'error' in message) return; // a response to one of our requests
      return send(error(idOk ? message.id : null, -32600, 'Invalid Request'));
    }
    const params = isObject(message.params) ? message.params : {};
    const meta = isObject(params._meta) ? params._meta : undefined;
    if (!hasId) {
      // Notifications: never answered.
      if (message.method === 'notifications/initialized') state.initialized = true;
      if (message.method === 'notifications/cancelled' && isObject(message.params)) {
        const target = message.params.requestId;
        state.cancelled.add(target);
        const listen = state.inFlight.get(target);
        if (listen) listen.stop();
      }
      return;
    }
    if (!idOk) return send(error(null, -32600, 'Invalid Request: id must be a string or an integer'));
    const ctx = { state, revision: state.revision, modern: false, transport };
    const run = () => {
      // Modern requests name their version in _meta.
      if (meta !== undefined && META_VERSION in meta) {
        if (!modern) return error(message.id, -32601, 'Method not found');
        const version = meta[META_VERSION];
        if (typeof version !== 'string' || !isObject(meta[META_CAPABILITIES]))
          return error(message.id, -32602, 'Invalid params: missing _meta fields');
        if (version !== MODERN)
          return error(message.id, -32022, 'Unsupported protocol version', {
            supported: [MODERN],
            requested: version,
          });
        if (META_LEVEL in meta && !LEVELS.includes(meta[META_LEVEL]))
          return error(message.id, -32602, 'Invalid log level');
        const modernCtx = {
          ...ctx,
          revision: MODERN,
          modern: true,
          clientCapabilities: meta[META_CAPABILITIES],
        };
        if (message.method === 'subscriptions/listen') return listen(message, modernCtx);
        if (
          message.method === 'initialize' ||
          message.method === 'ping' ||
          message.method.startsWith('logging/')
        ) {
          return error(message.id, -32601, `Method not found: ${message.method}`);
        }
        return hooks.request
          ? hooks.request(message, modernCtx, (m = message) => answer(m, modernCtx))
          : answer(message, modernCtx);
      }
      if (message.method === 'initialize') {
        if (state.revision !== undefined) return error(message.id, -32600, 'Already initialized');
        const requested = params.protocolVersion;
        if (typeof requested !== 'string')
          return error(message.id, -32602, 'Invalid params: protocolVersion must be a string');
        if (legacy.length === 0)
          return error(message.id, -32601, `This server supports ${MODERN} only`, { supported: [MODERN] });
        const version = legacy.includes(requested) ? requested : legacy[legacy.length - 1];
        state.revision = version;
        const caps = { ...capabilities };
        if (version === '2024-11-05') delete caps.completions;
        return result(message.id, { protocolVersion: version, capabilities: caps, serverInfo: SERVER_INFO });
      }
      if (message.method === 'ping' && state.revision === undefined) return result(message.id, {});
      if (state.revision === undefined) {
        if (message.method === 'server/discover' && !modern)
          return error(message.id, -32601, 'Method not found');
        return error(
          message.id,
          -32602,
          'Invalid params: send initialize first, or name the protocol version in _meta',
        );
      }
      if (!legacy.includes(state.revision)) return error(message.id, -32601, 'Method not found');
      const legacyCtx = { ...ctx, revision: state.revision };
      if (message.method === 'server/discover') return error(message.id, -32601, 'Method not found');
      return hooks.request
        ? hooks.request(message, legacyCtx, (m = message) => answer(m, legacyCtx))
        : answer(message, legacyCtx);
    };
    const reply = run();
    if (reply === undefined || reply === null || reply === LISTENING) return;
    send(reply);
    if (message.method === 'initialize' && 'result' in reply && hooks.afterInitialize)
      hooks.afterInitialize({ state, send, message });
  }

  const LISTENING = Symbol('listening');
  function listen(message, ctx) {
    const filter = isObject(message.params?.notifications) ? message.params.notifications : {};
    const acknowledged = {};
    for (const key of ['toolsListChanged', 'promptsListChanged', 'resourcesListChanged'])
      if (filter[key] === true) acknowledged[key] = true;
    const state = ctx.state;
    state.send({
      jsonrpc: '2.0',
      method: 'notifications/subscriptions/acknowledged',
      params: { _meta: { [META_SUBSCRIPTION]: message.id }, notifications: acknowledged },
    });
    state.inFlight.set(message.id, { stop: () => state.inFlight.delete(message.id) });
    if (state.onListen) state.onListen(message.id);
    return LISTENING;
  }

  return { hooks, revisions, legacy, modern, newState, handleMessage, answer, error, result };
}

/** Serves the corpus server on stdio: one JSON-RPC message per line. */
export function serveStdio(server) {
  const { hooks } = server;
  const state = server.newState((message) => process.stdout.write(`${JSON.stringify(message)}\n`));
  let buffer = '';
  const handleLine = (line) => {
    if (line.trim() === '') return;
    let parsed;
    try {
      parsed = JSON.parse(line);
    } catch {
      state.send(server.error(null, -32700, 'Parse error'));
      return;
    }
    server.handleMessage(parsed, state, 'stdio');
  };
  process.stdin.setEncoding('utf8');
  process.stdin.on('data', (chunk) => {
    buffer += chunk;
    let index;
    while ((index = buffer.indexOf('\n')) !== -1) {
      const line = buffer.slice(0, index).replace(/\r$/, '');
      buffer = buffer.slice(index + 1);
      if (hooks.line) hooks.line(line, state, () => handleLine(line));
      else handleLine(line);
    }
  });
  process.stdin.on('end', () => {
    if (hooks.onEnd) hooks.onEnd();
    else process.exit(0);
  });
}

/** Serves the corpus server over Streamable HTTP at /mcp (sessions for legacy revisions, stateless modern). */
export function serveHttp(server, port) {
  const { hooks } = server;
  const sessions = new Map();
  const handle = (req, res, body) => {
    const origin = req.headers.origin;
    if (origin !== undefined && !/^https?:\/\/(localhost|127\.0\.0\.1)(:\d+)?$/.test(origin)) {
      res.writeHead(403, { 'content-type': 'application/json' });
      return res.end(
        JSON.stringify({ jsonrpc: '2.0', error: { code: -32600, message: 'Forbidden origin' } }),
      );
    }
    if (req.url !== '/mcp') {
      res.writeHead(404);
      return res.end();
    }
    const sessionId = req.headers['mcp-session-id'];
    if (req.method === 'GET' || req.method === 'DELETE') {
      if (sessionId !== undefined && sessions.has(sessionId)) {
        if (req.method === 'DELETE') {
          sessions.delete(sessionId);
          res.writeHead(200);
          return res.end();
        }
      }
      res.writeHead(405, { allow: 'POST' });
      return res.end();
    }
    let parsed;
    try {
      parsed = JSON.parse(body);
    } catch {
      res.writeHead(400, { 'content-type': 'application/json' });
      return res.end(JSON.stringify(server.error(null, -32700, 'Parse error')));
    }
    if (isObject(parsed) && parsed.method === 'subscriptions/listen' && 'id' in parsed) {
      // A subscription is an open event stream: the acknowledgment first, then nothing until the client leaves.
      const filter = isObject(parsed.params?.notifications) ? parsed.params.notifications : {};
      const acknowledged = {};
      for (const key of ['toolsListChanged', 'promptsListChanged', 'resourcesListChanged'])
        if (filter[key] === true) acknowledged[key] = true;
      res.writeHead(200, {
        'content-type': 'text/event-stream',
        'x-accel-buffering': 'no',
        'cache-control': 'no-cache',
      });
      const ack = {
        jsonrpc: '2.0',
        method: 'notifications/subscriptions/acknowledged',
        params: {
          _meta: { 'io.modelcontextprotocol/subscriptionId': parsed.id },
          notifications: acknowledged,
        },
      };
      res.write(`event: message\ndata: ${JSON.stringify(ack)}\n\n`);
      req.on('close', () => res.end());
      return;
    }
    const replies = [];
    const collect = (message) => replies.push(message);
    const params = isObject(parsed) && isObject(parsed.params) ? parsed.params : {};
    const meta = isObject(params._meta) ? params._meta : undefined;
    const modernRequest =
      (meta !== undefined && 'io.modelcontextprotocol/protocolVersion' in meta) ||
      req.headers['mcp-protocol-version'] === MODERN;
    let state;
    let status = 200;
    const extraHeaders = {};
    if (modernRequest || (!isObject(parsed) && !Array.isArray(parsed))) {
      state = server.newState(collect);
      if (
        isObject(parsed) &&
        typeof parsed.method === 'string' &&
        meta !== undefined &&
        'io.modelcontextprotocol/protocolVersion' in meta
      ) {
        const headerVersion = req.headers['mcp-protocol-version'];
        const headerMethod = req.headers['mcp-method'];
        const named = ['tools/call', 'resources/read', 'prompts/get'].includes(parsed.method);
        const bodyName = parsed.method === 'resources/read' ? params.uri : params.name;
        let headerName = req.headers['mcp-name'];
        if (
          typeof headerName === 'string' &&
          headerName.startsWith('=?base64?') &&
          headerName.endsWith('?=')
        ) {
          headerName = Buffer.from(headerName.slice(9, -2), 'base64').toString('utf8');
        }
        const mismatch =
          headerVersion === undefined || headerMethod === undefined || (named && headerName === undefined)
            ? 'a required header is missing'
            : headerVersion !== meta['io.modelcontextprotocol/protocolVersion']
              ? 'MCP-Protocol-Version does not match the body'
              : headerMethod !== parsed.method
                ? 'Mcp-Method does not match the body'
                : named && headerName !== bodyName
                  ? 'Mcp-Name does not match the body'
                  : undefined;
        if (mismatch !== undefined && 'id' in parsed) {
          res.writeHead(400, { 'content-type': 'application/json' });
          return res.end(JSON.stringify(server.error(parsed.id, -32020, `Header mismatch: ${mismatch}`)));
        }
      }
    } else if (isObject(parsed) && parsed.method === 'initialize') {
      state = server.newState(collect);
    } else {
      if (sessionId === undefined) {
        res.writeHead(400, { 'content-type': 'application/json' });
        return res.end(JSON.stringify(server.error(null, -32600, 'Missing Mcp-Session-Id')));
      }
      state = sessions.get(sessionId);
      if (state === undefined) {
        res.writeHead(404);
        return res.end();
      }
      const version = req.headers['mcp-protocol-version'];
      if (state.revision >= '2025-06-18' && version !== undefined && version !== state.revision) {
        res.writeHead(400, { 'content-type': 'application/json' });
        return res.end(JSON.stringify(server.error(null, -32600, 'Unsupported MCP-Protocol-Version')));
      }
      state.send = collect;
    }
    server.handleMessage(parsed, state, 'http');
    if (isObject(parsed) && parsed.method === 'initialize' && replies[0]?.result) {
      const id = randomUUID();
      sessions.set(id, state);
      extraHeaders['mcp-session-id'] = id;
    }
    const isRequest =
      (isObject(parsed) && 'id' in parsed && typeof parsed.method === 'string') ||
      (Array.isArray(parsed) && parsed.some((m) => isObject(m) && 'id' in m));
    if (!isRequest) {
      if (replies.length > 0) {
        res.writeHead(400, { 'content-type': 'application/json' });
        return res.end(JSON.stringify(replies[0]));
      }
      res.writeHead(202);
      return res.end();
    }
    const reply = replies.length === 1 ? replies[0] : replies;
    const code = reply?.error?.code;
    if (modernRequest)
      status = code === -32601 ? 404 : code === -32602 || code === -32022 || code === -32021 ? 400 : 200;
    if (modernRequest && hooks.modernStatus) status = hooks.modernStatus(code, status);
    res.writeHead(status, { 'content-type': 'application/json', ...extraHeaders });
    res.end(JSON.stringify(reply));
  };
  const http = createHttpServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      if (hooks.http) hooks.http(req, res, body, () => handle(req, res, body));
      else handle(req, res, body);
    });
  });
  http.listen(port, '127.0.0.1', () =>
    process.stderr.write(`corpus server on http://127.0.0.1:${http.address().port}/mcp\n`),
  );
  const stop = () => http.close(() => process.exit(0));
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

/**
 * Serves the corpus server over the 2024-11-05 HTTP+SSE transport: GET /sse opens the event stream (its first
 * event names the endpoint), POST /messages?sessionId=… carries client messages; answers go out on the stream.
 */
export function serveSse(server, port) {
  const { hooks } = server;
  const sessions = new Map();
  const foreign = (req) => {
    const origin = req.headers.origin;
    return origin !== undefined && !/^https?:\/\/(localhost|127\.0\.0\.1)(:\d+)?$/.test(origin);
  };
  const http = createHttpServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const handle = () => {
        if (foreign(req)) {
          res.writeHead(403, { 'content-type': 'text/plain' });
          return res.end('Forbidden origin');
        }
        if (req.method === 'GET' && url.pathname === '/sse') {
          const id = randomUUID();
          res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
          const event = (name, data) => res.write(`event: ${name}\ndata: ${data}\n\n`);
          const state = server.newState((message) => event('message', JSON.stringify(message)));
          sessions.set(id, state);
          if (hooks.sseOpen) hooks.sseOpen(event);
          event('endpoint', `/messages?sessionId=${id}`);
          req.socket.on('close', () => sessions.delete(id));
          return;
        }
        if (req.method === 'POST' && url.pathname === '/messages') {
          const state = sessions.get(url.searchParams.get('sessionId') ?? '');
          if (state === undefined) {
            res.writeHead(404, { 'content-type': 'text/plain' });
            return res.end('Unknown session');
          }
          res.writeHead(202, { 'content-type': 'text/plain' });
          res.end('Accepted');
          let parsed;
          try {
            parsed = JSON.parse(body);
          } catch {
            return state.send(server.error(null, -32700, 'Parse error'));
          }
          return server.handleMessage(parsed, state, 'sse');
        }
        res.writeHead(404);
        res.end();
      };
      if (hooks.http) hooks.http(req, res, body, handle);
      else handle();
    });
  });
  http.listen(port, '127.0.0.1', () =>
    process.stderr.write(`corpus server on http://127.0.0.1:${http.address().port}/sse\n`),
  );
  const stop = () => {
    http.closeAllConnections();
    http.close(() => process.exit(0));
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

/** Starts the server the way the command line asks (stdio by default). */
export function main(hooks = {}) {
  const server = createCorpusServer(hooks);
  const args = process.argv.slice(2);
  const portIndex = args.indexOf('--port');
  if (args.includes('--http')) serveHttp(server, Number(args[portIndex + 1] ?? 0));
  else if (args.includes('--sse')) serveSse(server, Number(args[portIndex + 1] ?? 0));
  else serveStdio(server);
  return server;
}
