/**
 * Options of the Streamable HTTP server handler, with secure, bounded defaults.
 */
import type { JsonObject } from '../../protocol/types.js';
import type { AuthInfo } from '../../server/context.js';
import { CorsPolicy, type CorsOptions } from './cors.js';
import { MemoryEventStore, type EventStore } from './event-store.js';
import { peerAddress } from './server-request.js';
import { HostPolicy, LOOPBACK_HOSTS } from './security.js';
import type { SharedState } from './shared.js';

export interface SessionOptions {
  /** Legacy sessions (Streamable HTTP and HTTP+SSE together) open at once; beyond it `initialize` gets 503. Default 1000. */
  max?: number;
  /** A session with no request, no open stream and no message for this long is closed. Default 10 minutes. */
  idleTimeoutMs?: number;
  /** Open HTTP responses per session (pending POSTs and SSE connections); beyond it 429. Default 32. */
  maxStreams?: number;
  /** Requests being processed per session (a disconnect does not cancel them); beyond it 429. Default 64. */
  maxInflight?: number;
  /**
   * Sessions one principal may hold at once (Streamable HTTP and HTTP+SSE together); anonymous callers are
   * counted per peer address (see `peerOf`). Beyond it, the caller's idle never-used sessions are closed, or
   * the new session is refused with 429. Default 100.
   */
  maxPerPrincipal?: number;
  /**
   * The peer address anonymous sessions are counted by. Default: the socket's remote address behind
   * `toNodeHandler`/`serveHttp`, none otherwise (then every anonymous caller shares one quota). Behind a
   * trusted proxy, read the address it forwards.
   */
  peerOf?: (request: Request) => string | undefined;
}

export interface McpHttpHandlerOptions {
  /** Path of the MCP endpoint; other paths get 404. Default: every path (mount the handler where you like). */
  path?: string;
  /**
   * Also serve the deprecated 2024-11-05 HTTP+SSE transport: `GET ssePath` opens the event stream, whose
   * `endpoint` event names `messagesPath?sessionId=…` for the client's POSTs. Default off.
   */
  legacySse?: boolean | { ssePath?: string; messagesPath?: string };
  /**
   * Accepted `Host` values (DNS-rebinding protection): `host` (any port) or `host:port`. Default: localhost,
   * 127.0.0.1 and [::1] on any port. `false` turns the check off (only behind a proxy that checks Host).
   */
  allowedHosts?: readonly string[] | false;
  /** Accepted `Origin` values, when present. Default: http(s) origins whose host passes the Host check. */
  allowedOrigins?: readonly string[];
  /**
   * CORS for browser-based clients: pages of these origins may call the endpoint (preflights are answered,
   * `Mcp-Session-Id` and `WWW-Authenticate` exposed). Default off. The Host/Origin check still applies: an
   * origin must pass it too (list it in `allowedOrigins` unless it is a loopback origin).
   */
  cors?: CorsOptions;
  /**
   * Identifies the caller. Return `AuthInfo`, `undefined` (anonymous), or a `Response` to send instead (a 401
   * with `WWW-Authenticate`, say). Sessions are bound to the principal that opened them.
   */
  authenticate?: (
    request: Request,
  ) => AuthInfo | undefined | Response | Promise<AuthInfo | undefined | Response>;
  /**
   * Decides per JSON-RPC request, before it runs, whether the caller may make it (a tool needing a scope the
   * token lacks, say): return a `Response` to answer the whole HTTP request with (a 403 with
   * `WWW-Authenticate`), or undefined to go on. See `mcpengine/auth`.
   */
  authorize?: (
    message: { readonly method: string; readonly params: JsonObject | undefined },
    auth: AuthInfo | undefined,
  ) => Response | undefined;
  /**
   * Answers requests that are not MCP traffic before any other check (OAuth Protected Resource Metadata, say):
   * return a `Response`, or undefined to go on. Whatever it serves is public.
   */
  routes?: (request: Request, url: URL) => Response | undefined | Promise<Response | undefined>;
  /** Largest request body in bytes; beyond it 413. Default 4 MiB. */
  maxBodyBytes?: number;
  /** Time allowed to receive a request body; beyond it 408. Default 30 s. */
  bodyTimeoutMs?: number;
  sessions?: SessionOptions;
  /** Modern (stateless) requests processed at once, subscriptions included; beyond it 503. Default 1024. */
  maxModernInflight?: number;
  /** Legacy era: offer the standalone GET stream. Without it GET answers 405. Default true. */
  standaloneStream?: boolean;
  /** Legacy era: where SSE events are kept for `Last-Event-ID` replay; `false` makes streams non-resumable. */
  eventStore?: EventStore | false;
  /**
   * Scale-out: serve as one of several processes behind a plain load balancer, sticky or not. Legacy sessions,
   * resumable streams and server→client traffic go through this shared state (`@mcpengine/redis` makes one on
   * Redis); its `events` replace `eventStore`, and the store's expiry of a session is `sessions.idleTimeoutMs`.
   * Give the server the matching task store too (`new McpServer({ tasks: { store } })`). Default: none, every
   * session lives in this process. See docs/scale-out.md.
   */
  shared?: SharedState;
  /** The `retry` hint (ms) sent with priming events and before the server closes a stream. Default 1000. */
  retryMs?: number;
  /** An SSE comment is sent on a stream quiet for this long. Default 15 s. */
  keepAliveMs?: number;
  /** A request still unanswered after this long is switched to an SSE stream. Default 1000 ms. */
  streamAfterMs?: number;
  /** Bytes an SSE connection may queue for a slow reader before it is dropped. Default 4 MiB. */
  maxBufferedBytes?: number;
  /** Receives internal errors of the transport. Default: the server's `onError`. */
  onError?: (error: unknown, where: string) => void;
}

export interface ResolvedOptions {
  readonly path: string | undefined;
  readonly ssePath: string | undefined;
  readonly messagesPath: string | undefined;
  readonly hosts: HostPolicy;
  readonly cors: CorsPolicy | undefined;
  readonly authenticate: McpHttpHandlerOptions['authenticate'];
  readonly authorize: McpHttpHandlerOptions['authorize'];
  readonly routes: McpHttpHandlerOptions['routes'];
  readonly maxBodyBytes: number;
  readonly bodyTimeoutMs: number;
  readonly maxSessions: number;
  readonly idleTimeoutMs: number;
  readonly maxStreams: number;
  readonly maxInflight: number;
  readonly maxPerPrincipal: number;
  readonly peerOf: (request: Request) => string | undefined;
  readonly maxModernInflight: number;
  readonly standaloneStream: boolean;
  readonly eventStore: EventStore | undefined;
  readonly shared: SharedState | undefined;
  readonly retryMs: number;
  readonly keepAliveMs: number;
  readonly streamAfterMs: number;
  readonly maxBufferedBytes: number;
}

function positive(name: string, value: number | undefined, fallback: number): number {
  const resolved = value ?? fallback;
  if (!(resolved > 0)) throw new TypeError(`${name} must be a positive number`);
  return resolved;
}

export function resolveOptions(options: McpHttpHandlerOptions): ResolvedOptions {
  const sse = options.legacySse === true ? {} : options.legacySse || undefined;
  const sessions = options.sessions ?? {};
  return {
    path: options.path,
    ssePath: sse ? (sse.ssePath ?? '/sse') : undefined,
    messagesPath: sse ? (sse.messagesPath ?? '/messages') : undefined,
    hosts: new HostPolicy(options.allowedHosts ?? LOOPBACK_HOSTS, options.allowedOrigins),
    cors: options.cors ? new CorsPolicy(options.cors) : undefined,
    authenticate: options.authenticate,
    authorize: options.authorize,
    routes: options.routes,
    maxBodyBytes: positive('maxBodyBytes', options.maxBodyBytes, 4 * 1024 * 1024),
    bodyTimeoutMs: positive('bodyTimeoutMs', options.bodyTimeoutMs, 30_000),
    maxSessions: positive('sessions.max', sessions.max, 1000),
    idleTimeoutMs: positive('sessions.idleTimeoutMs', sessions.idleTimeoutMs, 10 * 60_000),
    maxStreams: positive('sessions.maxStreams', sessions.maxStreams, 32),
    maxInflight: positive('sessions.maxInflight', sessions.maxInflight, 64),
    maxPerPrincipal: positive('sessions.maxPerPrincipal', sessions.maxPerPrincipal, 100),
    peerOf: sessions.peerOf ?? peerAddress,
    maxModernInflight: positive('maxModernInflight', options.maxModernInflight, 1024),
    standaloneStream: options.standaloneStream ?? true,
    eventStore: options.shared
      ? options.shared.events
      : options.eventStore === false
        ? undefined
        : (options.eventStore ?? new MemoryEventStore()),
    shared: options.shared,
    retryMs: positive('retryMs', options.retryMs, 1000),
    keepAliveMs: positive('keepAliveMs', options.keepAliveMs, 15_000),
    streamAfterMs: options.streamAfterMs ?? 1000,
    maxBufferedBytes: positive('maxBufferedBytes', options.maxBufferedBytes, 4 * 1024 * 1024),
  };
}
