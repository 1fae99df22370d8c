/**
 * Node.js `http` glue: `toNodeHandler` adapts a web-standard handler to a `(req, res)` listener (streaming
 * bodies with backpressure, client disconnects wired to `Request.signal` and to stream cancellation), and
 * `serveHttp` runs an `McpServer` on a port with secure defaults (loopback, DNS-rebinding checks, timeouts
 * against slow clients).
 */
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { McpServer } from '../../server/server.js';
import { closedSignal, type Serving } from '../../server/serving.js';
import { jsonReplyOf } from './json-reply.js';
import { NodeRequest, nodeRequestUrl, rawHost } from './node-request.js';
import { answerOf, createMcpHttpHandler, type McpHttpHandler } from './server-handler.js';
import type { McpHttpHandlerOptions } from './server-options.js';
import { LOOPBACK_HOSTS } from './security.js';

export type NodeRequestListener = (req: IncomingMessage, res: ServerResponse) => void;

/** Methods the fetch standard forbids in a `Request`. */
const UNSUPPORTED_METHODS = new Set(['CONNECT', 'TRACE', 'TRACK']);

export interface NodeHandlerOptions {
  /** Receives failures of the handler itself (answered 500). Default: a line on stderr. */
  onError?: (error: unknown) => void;
}

/** Adapts a `(Request) => Promise<Response>` handler to Node's `http` server. */
export function toNodeHandler(
  handler: (request: Request) => Promise<Response>,
  options: NodeHandlerOptions = {},
): NodeRequestListener {
  const onError =
    options.onError ??
    ((error: unknown) => console.error(`[mcpengine] http handler failed: ${String(error)}`));
  // The engine's own handler can answer synchronously: its answer is then written in the same turn.
  const answer = answerOf(handler) ?? handler;
  const targets = new TargetCache();
  return (req, res) => {
    const fail = (error: unknown) => {
      onError(error);
      if (!res.headersSent) res.writeHead(500).end();
      else res.destroy();
    };
    try {
      const written = serve(answer, targets, req, res);
      if (written !== undefined) written.catch(fail);
    } catch (error) {
      fail(error);
    }
  };
}

/**
 * The request target and Host seen last, and the path they resolve to. A client sends the same pair with every
 * request, so the URL is parsed (and validated) once per pair rather than once per request.
 */
class TargetCache {
  private target: string | undefined;
  private host: string | undefined;
  private pathname = '';

  /** The path for this target and Host, when they are the pair validated last. */
  knownPath(target: string, host: string | undefined): string | undefined {
    return target === this.target && host === this.host ? this.pathname : undefined;
  }

  remember(target: string, host: string | undefined, pathname: string): void {
    this.target = target;
    this.host = host;
    this.pathname = pathname;
  }
}

/** Serves one request; returns a promise only when something had to wait. */
function serve(
  answer: (request: Request) => Response | Promise<Response>,
  targets: TargetCache,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> | undefined {
  let request: NodeRequest;
  try {
    // What `new Request` would refuse. Raw headers keep duplicates visible (joined with ", "), so a repeated
    // singleton header fails its check; Node's parser has already refused names and values Headers would.
    if (UNSUPPORTED_METHODS.has(req.method ?? 'GET')) throw new TypeError('not a valid Request');
    const target = req.url ?? '/';
    const host = rawHost(req);
    const pathname = targets.knownPath(target, host);
    if (pathname !== undefined) {
      request = new NodeRequest(req, pathname);
    } else {
      const url = nodeRequestUrl(req);
      if (url.username !== '' || url.password !== '') throw new TypeError('not a valid Request');
      targets.remember(target, host, url.pathname);
      request = new NodeRequest(req, url.pathname, url);
    }
  } catch {
    res.writeHead(400, { 'content-type': 'text/plain', connection: 'close' }).end('Bad Request');
    return undefined;
  }
  // The client went away before the response was complete: the request is aborted (its streams cancelled).
  res.on('close', () => {
    if (!res.writableFinished) NodeRequest.abort(request);
  });

  const response = answer(request as unknown as Request);
  // A thenable, not necessarily a native Promise: the handler may be anyone's.
  return typeof (response as Partial<PromiseLike<Response>>).then === 'function'
    ? Promise.resolve(response).then((r) => write(req, res, r))
    : write(req, res, response as Response);
}

/** Writes a response; returns a promise only for a streamed body. */
function write(req: IncomingMessage, res: ServerResponse, response: Response): Promise<void> | undefined {
  const reply = jsonReplyOf(response);
  if (reply !== undefined) {
    // A light JSON answer (json-reply.ts): its text goes out as is, with its length; a large cached result in
    // its pre-encoded pieces, so that it is neither copied into one string nor encoded again.
    const parts = reply.parts;
    let length = 0;
    if (parts)
      for (const part of parts)
        length += typeof part === 'string' ? Buffer.byteLength(part) : part.byteLength;
    else length = Buffer.byteLength(reply.json);
    const head: Record<string, string> = { ...reply.headers, 'content-length': String(length) };
    if (!req.complete && req.method !== 'GET' && req.method !== 'HEAD') head.connection = 'close';
    if (!parts) {
      res.writeHead(reply.status, head).end(reply.json);
      return undefined;
    }
    res.cork();
    res.writeHead(reply.status, head);
    for (const part of parts) res.write(part);
    res.end();
    res.uncork();
    return undefined;
  }
  return writeWebResponse(req, res, response);
}

async function writeWebResponse(
  req: IncomingMessage,
  res: ServerResponse,
  response: Response,
): Promise<void> {
  const head: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => {
    head[name] = name === 'set-cookie' ? response.headers.getSetCookie() : value;
  });
  // A body we did not read (refused early, e.g. 413) is not drained: the connection closes after the answer.
  if (!req.complete && req.method !== 'GET' && req.method !== 'HEAD') head.connection = 'close';
  if (!response.body) {
    res.writeHead(response.status, head).end();
    return;
  }
  const type = response.headers.get('content-type') ?? '';
  if (type.startsWith('application/json')) {
    // A complete JSON answer: send it with its length rather than chunked.
    const body = Buffer.from(await response.arrayBuffer());
    head['content-length'] = String(body.byteLength);
    res.writeHead(response.status, head).end(body);
    return;
  }
  res.writeHead(response.status, head);
  if (type.startsWith('text/event-stream')) res.flushHeaders();

  const reader = response.body.getReader();
  const cancel = () => void reader.cancel().catch(() => {});
  res.on('close', cancel);
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      if (res.destroyed) return;
      if (!res.write(value)) {
        // Backpressure: wait until the socket drains (or closes) before reading more.
        await drainedOrClosed(res);
        if (res.destroyed) return;
      }
    }
    res.end();
  } catch {
    // The stream was aborted (slow reader dropped, or server shutdown): cut the connection.
    res.destroy();
  } finally {
    res.off('close', cancel);
  }
}

export interface ServeHttpOptions extends McpHttpHandlerOptions {
  /** Interface to bind. Default 127.0.0.1 (a local server must not listen on every interface). */
  host?: string;
  /** Port; 0 picks a free one. Default 0. */
  port?: number;
  /** The MCP endpoint path. Default `/mcp`. */
  path?: string;
  /** Time to receive the request headers (slowloris protection). Default 10 s. */
  headersTimeoutMs?: number;
  /** Time to receive a whole request, body included. Default 30 s. */
  requestTimeoutMs?: number;
  /** Idle keep-alive connections are closed after this long. Default 5 s. */
  keepAliveTimeoutMs?: number;
  /** Open TCP connections at most. Default 2048. */
  maxConnections?: number;
}

export interface HttpServing extends Serving {
  /** The Streamable HTTP endpoint, e.g. `http://127.0.0.1:3000/mcp`. */
  readonly url: string;
  /** The HTTP+SSE endpoint, when `legacySse` is on. */
  readonly sseUrl: string | undefined;
  readonly port: number;
  readonly server: Server;
  readonly handler: McpHttpHandler;
  /**
   * Ends sessions and streams (after in-flight requests, up to `drainTimeoutMs`), stops listening, and closes
   * the server.
   */
  close(options?: { drainTimeoutMs?: number }): Promise<void>;
}

function isWildcard(host: string): boolean {
  return host === '0.0.0.0' || host === '::' || host === '';
}

function urlHost(host: string): string {
  if (isWildcard(host)) return '127.0.0.1';
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}

/** Runs an `McpServer` over HTTP on `host:port`. */
export async function serveHttp(mcp: McpServer, options: ServeHttpOptions = {}): Promise<HttpServing> {
  const host = options.host ?? '127.0.0.1';
  const path = options.path ?? '/mcp';
  const requestTimeout = options.requestTimeoutMs ?? 30_000;
  const headersTimeout = Math.min(options.headersTimeoutMs ?? 10_000, requestTimeout);
  const server = createServer({
    headersTimeout,
    requestTimeout,
    keepAliveTimeout: options.keepAliveTimeoutMs ?? 5_000,
    // How often Node checks the two timeouts above.
    connectionsCheckingInterval: Math.min(1_000, headersTimeout),
  });
  server.maxConnections = options.maxConnections ?? 2048;
  server.listen(options.port ?? 0, host);
  await once(server, 'listening');
  const port = (server.address() as AddressInfo).port;

  const allowedHosts =
    options.allowedHosts ??
    (LOOPBACK_HOSTS.includes(urlHost(host)) || isWildcard(host)
      ? LOOPBACK_HOSTS
      : [...LOOPBACK_HOSTS, `${urlHost(host)}:${port}`]);
  const handler = createMcpHttpHandler(mcp, { ...options, path, allowedHosts });
  // Attached in the same turn as 'listening': no request can arrive before it.
  server.on('request', toNodeHandler(handler));

  const { closed, settle } = closedSignal();
  let closing: Promise<void> | undefined;
  const close = (closeOptions: { drainTimeoutMs?: number } = {}): Promise<void> =>
    (closing ??= (async () => {
      try {
        await handler.close(closeOptions);
        await mcp.close(closeOptions);
        const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeAllConnections();
        await stopped;
      } finally {
        settle();
      }
    })());

  const base = `http://${urlHost(host)}:${port}`;
  const sse =
    options.legacySse === true
      ? '/sse'
      : options.legacySse
        ? (options.legacySse.ssePath ?? '/sse')
        : undefined;
  return {
    url: `${base}${path}`,
    sseUrl: sse === undefined ? undefined : `${base}${sse}`,
    port,
    server,
    handler,
    closed,
    close,
  };
}

/**
 * Resolves when `res` drains, closes or fails, and removes its listeners then: `Promise.race` over `once()`
 * would leave the losers' listeners on the response, one set per wait (MaxListenersExceededWarning on a long
 * stream to a slow reader).
 */
function drainedOrClosed(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      res.off('drain', done);
      res.off('close', done);
      res.off('error', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
    res.on('error', done);
  });
}
