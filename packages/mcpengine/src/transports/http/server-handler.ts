/**
 * `createMcpHttpHandler`: an `McpServer` as a web-standard `(Request) => Promise<Response>` handler, serving
 * Streamable HTTP in both eras on one endpoint (and, optionally, the 2024-11-05 HTTP+SSE transport).
 *
 * Every request passes the same gate first: Host/Origin (403), authentication, then the media types (415/406)
 * and a bounded body (413/408). Then the era is decided per message: a request whose `params._meta` names its
 * protocol version, or one sent without a session under a non-legacy `MCP-Protocol-Version`, is modern
 * (stateless); anything else is legacy and, except `initialize`, needs its `Mcp-Session-Id`.
 */
import { ErrorCode } from '../../protocol/errors.js';
import { parseInbound, type InboundMessage } from '../../protocol/jsonrpc.js';
import { declaresModernMeta } from '../../protocol/meta.js';
import { isRevision, REVISION_SPECS } from '../../protocol/revisions.js';
import type { AuthInfo } from '../../server/context.js';
import type { ServerCore } from '../../server/core.js';
import { coreOf, principalOf } from '../../internal/server.js';
import type { McpServer } from '../../server/server.js';
import type { HttpContext } from './server-context.js';
import { LegacyEndpoint, SESSION_HEADER } from './server-legacy.js';
import type { HttpSession } from './session-store.js';
import { ModernEndpoint } from './server-modern.js';
import { resolveOptions, type McpHttpHandlerOptions, type ResolvedOptions } from './server-options.js';
import { emptyResponse, errorResponse, TRANSPORT_ERROR } from './server-responses.js';
import { HttpSseEndpoint } from './server-sse.js';
import { quotaKey, SessionQuota } from './session-quota.js';
import { Deadlines } from './deadlines.js';
import { bodyCollector, requestPathname, requestUrl } from './server-request.js';
import { accepts, isJsonContentType } from './security.js';
import { SseConnection } from './sse-writer.js';

export interface HttpHandlerStats {
  /** Legacy Streamable HTTP sessions. */
  readonly sessions: number;
  /** HTTP+SSE (2024-11-05) sessions. */
  readonly sseSessions: number;
  /** Open SSE connections of every kind. */
  readonly streams: number;
  /** Modern requests being processed. */
  readonly modernInflight: number;
  /** Legacy requests being processed. */
  readonly legacyInflight: number;
}

export interface McpHttpHandler {
  (request: Request): Promise<Response>;
  /** Stops accepting requests (503), waits for requests in flight (up to `drainTimeoutMs`), then ends every session and stream. */
  close(options?: { drainTimeoutMs?: number }): Promise<void>;
  stats(): HttpHandlerStats;
}

const decoder = new TextDecoder('utf-8', { fatal: true });

/** Serves a request with its session, or answers the refusal; synchronous when the lookup is (in process). */
function withSession(
  found: HttpSession | Response | Promise<HttpSession | Response>,
  use: (session: HttpSession) => Response | Promise<Response>,
): Response | Promise<Response> {
  if (found instanceof Promise)
    return found.then((session) => (session instanceof Response ? session : use(session)));
  return found instanceof Response ? found : use(found);
}

class HttpServerState implements HttpContext {
  readonly core: ServerCore;
  readonly options: ResolvedOptions;
  readonly quota: SessionQuota;
  readonly report: (error: unknown, where: string) => void;
  private readonly connections = new Set<SseConnection>();
  private readonly modern: ModernEndpoint;
  private readonly legacy: LegacyEndpoint;
  private readonly sse: HttpSseEndpoint | undefined;
  private readonly ticker: ReturnType<typeof setInterval>;
  /** Body deadlines, checked on the ticker rather than with a timer per request. */
  private readonly deadlines: Deadlines;
  private closing = false;

  constructor(
    readonly server: McpServer,
    options: McpHttpHandlerOptions,
  ) {
    this.core = coreOf(server);
    this.options = resolveOptions(options);
    this.quota = new SessionQuota(this.options.maxPerPrincipal);
    this.report = options.onError ?? ((error, where) => this.core.settings.report(error, `http ${where}`));
    this.modern = new ModernEndpoint(this);
    this.legacy = new LegacyEndpoint(this, () => this.sse?.size ?? 0);
    this.sse =
      this.options.messagesPath === undefined
        ? undefined
        : new HttpSseEndpoint(this, this.options.messagesPath, () => this.legacy.sessions.size);
    const { keepAliveMs, idleTimeoutMs, bodyTimeoutMs } = this.options;
    const tick = Math.max(10, Math.min(5_000, keepAliveMs / 2, idleTimeoutMs / 2, bodyTimeoutMs / 4));
    this.deadlines = new Deadlines(tick);
    this.ticker = setInterval(() => this.tick(), tick);
    this.ticker.unref?.();
  }

  connection(): SseConnection {
    const connection = new SseConnection(this.options.maxBufferedBytes);
    this.connections.add(connection);
    connection.onClose(() => this.connections.delete(connection));
    return connection;
  }

  private tick(): void {
    this.deadlines.tick();
    const now = Date.now();
    const quiet = this.options.keepAliveMs;
    for (const connection of this.connections) {
      if (now - connection.lastWriteAt >= quiet) connection.keepAlive();
    }
    this.legacy.sessions.sweep(this.options.idleTimeoutMs, now);
    this.sse?.sweep(now);
  }

  stats(): HttpHandlerStats {
    let legacyInflight = 0;
    for (const session of this.legacy.sessions.values()) legacyInflight += session.running;
    return {
      sessions: this.legacy.sessions.size,
      sseSessions: this.sse?.size ?? 0,
      streams: this.connections.size,
      modernInflight: this.modern.inflight,
      legacyInflight,
    };
  }

  async close(drainTimeoutMs = 2_000): Promise<void> {
    this.closing = true;
    const deadline = Date.now() + drainTimeoutMs;
    while (Date.now() < deadline) {
      const stats = this.stats();
      if (stats.modernInflight === 0 && stats.legacyInflight === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    clearInterval(this.ticker);
    this.modern.abortAll('server shutting down');
    this.legacy.sessions.closeAll('server shutting down');
    this.sse?.closeAll();
    for (const connection of [...this.connections]) connection.close();
  }

  /**
   * Answers a request. The answer is synchronous when nothing on the way has to wait (no hook, body or handler
   * returned a promise): every promise between the socket and the handler costs an allocation and a turn.
   * Never throws: a failure of the engine is reported and answered 500; a throwing `routes` hook rejects.
   */
  handle(request: Request): Response | Promise<Response> {
    if (this.closing) {
      return errorResponse(503, undefined, { code: TRANSPORT_ERROR, message: 'Server shutting down' });
    }
    // Behind toNodeHandler the path is known without parsing the URL; the whole URL is parsed only when needed.
    let target: Target;
    const known = requestPathname(request);
    if (known !== undefined) {
      target = { request, pathname: known, url: undefined };
    } else {
      try {
        const url = requestUrl(request);
        target = { request, pathname: url.pathname, url };
      } catch {
        return errorResponse(400, undefined, {
          code: ErrorCode.InvalidRequest,
          message: 'Bad Request: bad URL',
        });
      }
    }
    return this.options.routes ? this.routed(target) : this.checked(target);
  }

  private async routed(target: Target): Promise<Response> {
    const answered = await this.options.routes!(target.request, fullUrl(target));
    return answered ?? this.checked(target);
  }

  /** Routes by path, checks Host and Origin, authenticates; then serves the route. */
  private checked(target: Target): Response | Promise<Response> {
    const { options } = this;
    const { request, pathname } = target;
    const route: Route | undefined =
      options.ssePath !== undefined && pathname === options.ssePath
        ? 'sse'
        : options.messagesPath !== undefined && pathname === options.messagesPath
          ? 'messages'
          : options.path === undefined || pathname === options.path
            ? 'mcp'
            : undefined;
    if (route === undefined) return emptyResponse(404);

    const refusal = options.hosts.check(
      request.headers.get('host') ?? fullUrl(target).host,
      request.headers.get('origin'),
    );
    if (refusal !== undefined) {
      return errorResponse(403, undefined, { code: TRANSPORT_ERROR, message: `Forbidden: ${refusal}` });
    }
    const origin = options.cors ? request.headers.get('origin') : null;
    if (options.cors?.allows(origin)) {
      const cors = options.cors;
      if (request.method === 'OPTIONS' && request.headers.has('access-control-request-method')) {
        return cors.preflight(request, origin);
      }
      const answer = this.authenticatedAndServed(target, route);
      return answer instanceof Promise
        ? answer.then((response) => cors.decorate(response, origin))
        : cors.decorate(answer, origin);
    }
    return this.authenticatedAndServed(target, route);
  }

  private authenticatedAndServed(target: Target, route: Route): Response | Promise<Response> {
    if (this.options.authenticate) return this.authenticated(target, route);
    return this.guarded(target, route, '', undefined);
  }

  private async authenticated(target: Target, route: Route): Promise<Response> {
    let auth: AuthInfo | undefined;
    try {
      const outcome = await this.options.authenticate!(target.request);
      if (outcome instanceof Response) return outcome;
      auth = outcome;
    } catch (error) {
      this.report(error, 'authenticate');
      return errorResponse(500, undefined, { code: ErrorCode.InternalError, message: 'Internal error' });
    }
    const principal = principalOf(auth);
    return this.guarded(target, route, principal, auth);
  }

  /** Serves the route; what it throws or rejects with is reported and answered 500. */
  private guarded(
    target: Target,
    route: Route,
    principal: string,
    auth: AuthInfo | undefined,
  ): Response | Promise<Response> {
    let answer: Response | Promise<Response>;
    try {
      answer = this.serve(target, route, principal, auth);
    } catch (error) {
      return this.failed(target, error);
    }
    return answer instanceof Promise ? answer.catch((error: unknown) => this.failed(target, error)) : answer;
  }

  private failed(target: Target, error: unknown): Response {
    this.report(error, `${target.request.method} ${target.pathname}`);
    return errorResponse(500, undefined, { code: ErrorCode.InternalError, message: 'Internal error' });
  }

  private serve(
    target: Target,
    route: Route,
    principal: string,
    auth: AuthInfo | undefined,
  ): Response | Promise<Response> {
    const { request } = target;
    switch (route) {
      case 'sse':
        if (request.method !== 'GET') return emptyResponse(405, { allow: 'GET' });
        if (request.headers.has('accept') && !accepts(request.headers.get('accept'), 'text/event-stream')) {
          return this.notAcceptable('text/event-stream');
        }
        return this.sse!.get(principal, auth, quotaKey(principal, this.options.peerOf(request)));
      case 'messages': {
        if (request.method !== 'POST') return emptyResponse(405, { allow: 'POST' });
        if (!isJsonContentType(request.headers.get('content-type'))) return this.unsupportedMediaType();
        return this.withBody(request, (body) =>
          this.sse!.post(fullUrl(target), principal, auth, body, (items) => this.refuse(items, auth)),
        );
      }
      case 'mcp':
        return this.mcp(request, principal, auth);
    }
  }

  private mcp(request: Request, principal: string, auth: AuthInfo | undefined): Response | Promise<Response> {
    switch (request.method) {
      case 'POST':
        return this.post(request, principal, auth);
      case 'GET':
      case 'DELETE': {
        // Without a session the endpoint is stateless (2026-07-28): no GET stream, nothing to delete.
        if (!request.headers.has(SESSION_HEADER)) return emptyResponse(405, { allow: 'POST' });
        if (request.method === 'GET' && !accepts(request.headers.get('accept'), 'text/event-stream')) {
          return this.notAcceptable('text/event-stream');
        }
        return withSession(this.legacy.session(request, principal, undefined), (session) =>
          request.method === 'GET' ? this.legacy.get(request, session) : this.legacy.delete(session),
        );
      }
      default:
        return emptyResponse(405, { allow: 'GET, POST, DELETE' });
    }
  }

  private post(
    request: Request,
    principal: string,
    auth: AuthInfo | undefined,
  ): Response | Promise<Response> {
    if (!isJsonContentType(request.headers.get('content-type'))) return this.unsupportedMediaType();
    const accept = request.headers.get('accept');
    if (!accepts(accept, 'application/json') || !accepts(accept, 'text/event-stream')) {
      return this.notAcceptable('both application/json and text/event-stream');
    }
    return this.withBody(request, (body) => this.posted(request, body, principal, auth));
  }

  /** A POST to the MCP endpoint, its body read. */
  private posted(
    request: Request,
    body: string,
    principal: string,
    auth: AuthInfo | undefined,
  ): Response | Promise<Response> {
    const parsed = parseInbound(body);
    if (parsed.kind === 'unparseable') return errorResponse(400, null, parsed.error);
    const hasSession = request.headers.has(SESSION_HEADER);
    if (parsed.kind === 'batch') {
      if (!hasSession) {
        return errorResponse(400, null, {
          code: ErrorCode.InvalidRequest,
          message: 'Invalid Request: batches exist only within a 2025-03-26 session',
        });
      }
      return withSession(this.legacy.session(request, principal, null), (session) => {
        const refused = this.refuse(parsed.items, auth);
        if (refused) return refused;
        return this.legacy.post(request, session, parsed.items, true, auth);
      });
    }

    const item = parsed;
    if (item.kind === 'invalid') {
      return errorResponse(400, item.answerable ? item.id : undefined, item.error);
    }
    const refused = this.refuse([item], auth);
    if (refused) return refused;
    if (this.isModern(item, request, hasSession)) {
      if (item.kind === 'request') return this.modern.request(request, item.message, auth);
      if (item.kind === 'notification') return emptyResponse(202);
      return errorResponse(400, undefined, {
        code: ErrorCode.InvalidRequest,
        message: 'Invalid Request: clients do not send responses in protocol revision 2026-07-28',
      });
    }
    if (item.kind === 'request' && item.message.method === 'initialize') {
      const key = quotaKey(principal, this.options.peerOf(request));
      return this.legacy.initialize(item.message, principal, key, hasSession);
    }
    return withSession(
      this.legacy.session(request, principal, item.kind === 'request' ? item.message.id : undefined),
      (session) => this.legacy.post(request, session, [item], false, auth),
    );
  }

  /** The `authorize` hook's refusal of the first request it refuses, if any. */
  private refuse(items: readonly InboundMessage[], auth: AuthInfo | undefined): Response | undefined {
    const authorize = this.options.authorize;
    if (!authorize) return undefined;
    for (const item of items) {
      if (item.kind !== 'request') continue;
      const refusal = authorize({ method: item.message.method, params: item.message.params }, auth);
      if (refusal) return refusal;
    }
    return undefined;
  }

  private isModern(item: InboundMessage, request: Request, hasSession: boolean): boolean {
    if (this.core.modernRevisions.length === 0) return false;
    if (
      (item.kind === 'request' || item.kind === 'notification') &&
      declaresModernMeta(item.message.params)
    ) {
      return true;
    }
    if (hasSession) return false;
    const version = request.headers.get('mcp-protocol-version')?.trim();
    return version !== undefined && !(isRevision(version) && REVISION_SPECS[version].era === 'legacy');
  }

  private unsupportedMediaType(): Response {
    return errorResponse(415, undefined, {
      code: ErrorCode.InvalidRequest,
      message: 'Unsupported Media Type: the body must be application/json (UTF-8)',
    });
  }

  private notAcceptable(what: string): Response {
    return errorResponse(406, undefined, {
      code: ErrorCode.InvalidRequest,
      message: `Not Acceptable: the client must accept ${what}`,
    });
  }

  /**
   * Reads the body as text and hands it to `use`; or answers the refusal: too large (413), too slow (408), not
   * UTF-8 (400). `use` runs in the same turn as the body's end.
   */
  private withBody(
    request: Request,
    use: (body: string) => Response | Promise<Response>,
  ): Response | Promise<Response> {
    const { maxBodyBytes, bodyTimeoutMs } = this.options;
    const declared = request.headers.get('content-length');
    if (declared !== null && Number(declared) > maxBodyBytes) return this.tooLarge();
    const collector = bodyCollector(request);
    if (collector === null) return use('');
    const deadline = this.deadlines.add(bodyTimeoutMs, () => collector.cancel());
    return collector.collect(maxBodyBytes).then((outcome) => {
      this.deadlines.remove(deadline);
      switch (outcome.kind) {
        case 'too-large':
          return this.tooLarge();
        case 'cancelled':
          return errorResponse(408, undefined, {
            code: ErrorCode.InvalidRequest,
            message: 'Request Timeout: the body did not arrive in time',
          });
        case 'failed':
          return errorResponse(400, undefined, {
            code: ErrorCode.InvalidRequest,
            message: 'Bad Request: the body could not be read',
          });
        case 'body': {
          let body: string;
          try {
            body = decoder.decode(outcome.bytes);
          } catch {
            return errorResponse(400, null, {
              code: ErrorCode.ParseError,
              message: 'Parse error: the body is not valid UTF-8',
            });
          }
          return use(body);
        }
      }
    });
  }

  private tooLarge(): Response {
    return errorResponse(413, undefined, {
      code: ErrorCode.InvalidRequest,
      message: `Payload Too Large: the body exceeds ${this.options.maxBodyBytes} bytes`,
    });
  }
}

type Route = 'sse' | 'messages' | 'mcp';

/** A request and its URL: the path always, the whole `URL` once something needs it. */
interface Target {
  readonly request: Request;
  readonly pathname: string;
  url: URL | undefined;
}

function fullUrl(target: Target): URL {
  return (target.url ??= requestUrl(target.request));
}

const ANSWER = Symbol('mcpengine.answer');

/**
 * The handler's answer without the promise its public signature wraps it in, when the handler is ours:
 * `toNodeHandler` writes a synchronous answer in the same turn.
 */
export function answerOf(
  handler: (request: Request) => Promise<Response>,
): ((request: Request) => Response | Promise<Response>) | undefined {
  return (handler as { [ANSWER]?: (request: Request) => Response | Promise<Response> })[ANSWER];
}

/** Serves an `McpServer` over Streamable HTTP (both eras) as a web-standard request handler. */
export function createMcpHttpHandler(server: McpServer, options: McpHttpHandlerOptions = {}): McpHttpHandler {
  const state = new HttpServerState(server, options);
  const answer = (request: Request) => state.handle(request);
  const handler = async (request: Request) => answer(request);
  return Object.assign(handler, {
    [ANSWER]: answer,
    close: (closeOptions: { drainTimeoutMs?: number } = {}) => state.close(closeOptions.drainTimeoutMs),
    stats: () => state.stats(),
  });
}
