/**
 * The legacy era (2025-03-26 … 2025-11-25) on Streamable HTTP: `initialize` opens a session named by
 * `Mcp-Session-Id`; later POSTs, the standalone GET stream and DELETE carry it.
 *
 * Messages related to a request travel on that request's response stream; everything else on the standalone
 * stream. A client disconnect is not a cancellation in these revisions: the request keeps running, its events
 * are stored, and the client may resume the stream with `GET` + `Last-Event-ID`.
 */
import { ErrorCode } from '../../protocol/errors.js';
import type { InboundMessage, JsonRpcRequest } from '../../protocol/jsonrpc.js';
import { serializeError } from '../../protocol/jsonrpc.js';
import { isRevision, REVISION_SPECS } from '../../protocol/revisions.js';
import type { RequestId } from '../../protocol/types.js';
import type { AuthInfo, RequestTransport } from '../../server/context.js';
import type { ResponseOut } from '../../server/core.js';
import type { HttpContext } from './server-context.js';
import { cameThroughAdapter } from './server-request.js';
import { Exchange } from './server-exchange.js';
import {
  emptyResponse,
  errorResponse,
  jsonResponse,
  legacyStatus,
  SESSION_NOT_FOUND,
  TRANSPORT_ERROR,
} from './server-responses.js';
import { HttpSession, SessionRegistry } from './session-store.js';
import { SharedSessions } from './shared-sessions.js';
import { parseEventId, ResponseStream } from './session-stream.js';
import { SSE_HEADERS } from './sse-writer.js';

export const SESSION_HEADER = 'mcp-session-id';

/** A session younger than this is never evicted as unused: its client may be between `initialize` and its first request. */
const NEVER_USED_GRACE_MS = 1_000;

export class LegacyEndpoint {
  readonly sessions = new SessionRegistry();
  /** Set when this process is one node of several (`shared` option). */
  private readonly shared: SharedSessions | undefined;

  constructor(
    private readonly http: HttpContext,
    /** Sessions of other transports (HTTP+SSE) that count towards the same limit. */
    private readonly otherSessions: () => number,
  ) {
    const shared = http.options.shared;
    this.shared = shared ? new SharedSessions(http, this.sessions, shared) : undefined;
  }

  /**
   * `initialize`: a new session, answered with its id. When the table (503) or the caller's quota (429) is
   * full, idle sessions that were never used are closed first to make room.
   */
  initialize(
    message: JsonRpcRequest,
    principal: string,
    quotaKey: string,
    hasSessionHeader: boolean,
  ): Response | Promise<Response> {
    const { core, options, quota } = this.http;
    if (hasSessionHeader) {
      return errorResponse(400, message.id, {
        code: ErrorCode.InvalidRequest,
        message: 'Invalid Request: initialize opens a new session and must not carry Mcp-Session-Id',
      });
    }
    const tableFull = () => this.sessions.size + this.otherSessions() >= options.maxSessions;
    if (tableFull()) {
      this.sessions.sweep(options.idleTimeoutMs);
      if (tableFull()) this.sessions.evictNeverUsed(NEVER_USED_GRACE_MS, () => true);
      if (tableFull()) {
        return errorResponse(
          503,
          message.id,
          { code: TRANSPORT_ERROR, message: 'Server busy: too many sessions' },
          { 'retry-after': '5' },
        );
      }
    }
    if (quota.full(quotaKey)) {
      this.sessions.evictNeverUsed(NEVER_USED_GRACE_MS, (session) => session.quotaKey === quotaKey);
      if (quota.full(quotaKey)) {
        return errorResponse(
          429,
          message.id,
          { code: TRANSPORT_ERROR, message: 'Too many sessions for this client' },
          { 'retry-after': '5' },
        );
      }
    }
    const holder: { session?: HttpSession } = {};
    const shared = this.shared;
    const { session: legacy, response } = core.openLegacySession(
      message,
      shared ? shared.outbox(holder) : { send: (text) => holder.session?.sendUnrelated(text) ?? false },
    );
    if (!legacy) return jsonResponse(legacyStatus(response.errorCode), response.json);
    const session = new HttpSession(
      legacy,
      principal,
      options.eventStore,
      this.http.report,
      quotaKey,
      quota.acquire(quotaKey),
      shared?.sessionShared(legacy.id),
    );
    holder.session = session;
    this.sessions.add(session);
    if (!shared) return jsonResponse(200, response.json, { [SESSION_HEADER]: session.id });
    // Only on the node holding the client's standalone stream, where they can be delivered.
    legacy.receivesBroadcasts = () => session.hasStandalone;
    return shared.opened(session).then(
      () => jsonResponse(200, response.json, { [SESSION_HEADER]: session.id }),
      (error: unknown) => {
        session.close('session store unavailable', 'here');
        return shared.unavailable(message.id, error);
      },
    );
  }

  /**
   * The session a request names, or the response refusing it: 400 without a session id or with an invalid
   * `MCP-Protocol-Version`, 404 for an unknown, expired or foreign session.
   */
  session(
    request: Request,
    principal: string,
    id: RequestId | null | undefined,
  ): HttpSession | Response | Promise<HttpSession | Response> {
    const header = request.headers.get(SESSION_HEADER);
    if (header === null) {
      return errorResponse(400, id, {
        code: ErrorCode.InvalidRequest,
        message: 'Bad Request: the Mcp-Session-Id header is required (send initialize first)',
      });
    }
    if (this.shared) {
      return this.shared
        .load(header.trim(), principal, id)
        .then((session) => (session instanceof Response ? session : this.checkVersion(request, session, id)));
    }
    const session = this.sessions.get(header.trim());
    // A session opened by another principal is reported as unknown: ids must not be probeable.
    if (!session || session.principal !== principal) {
      return errorResponse(404, id, { code: SESSION_NOT_FOUND, message: 'Session not found' });
    }
    return this.checkVersion(request, session, id);
  }

  /** 400 when the request's `MCP-Protocol-Version` is not the session's. */
  private checkVersion(
    request: Request,
    session: HttpSession,
    id: RequestId | null | undefined,
  ): HttpSession | Response {
    const version = request.headers.get('mcp-protocol-version');
    if (version !== null) {
      const value = version.trim();
      const negotiated = session.legacy.revision.id;
      if (!isRevision(value) || REVISION_SPECS[value].era !== 'legacy') {
        return errorResponse(400, id, {
          code: ErrorCode.InvalidRequest,
          message: `Bad Request: unsupported MCP-Protocol-Version ${JSON.stringify(value)}`,
        });
      }
      if (value !== negotiated) {
        return errorResponse(400, id, {
          code: ErrorCode.InvalidRequest,
          message: `Bad Request: MCP-Protocol-Version ${value} does not match the negotiated version ${negotiated}`,
        });
      }
    }
    return session;
  }

  /** POST of one message or (2025-03-26) a batch, within a session. */
  post(
    request: Request,
    session: HttpSession,
    items: readonly InboundMessage[],
    batch: boolean,
    auth: AuthInfo | undefined,
  ): Response | Promise<Response> {
    const shared = this.shared;
    if (!shared) return this.served(request, session, items, batch, auth);
    const before = shared.stateOf(session);
    return this.persisted(shared, session, before, this.served(request, session, items, batch, auth));
  }

  /**
   * A shared session: state a request changed (log level, subscriptions, `initialized`) is saved before the
   * client hears back, so that its next request, on any node, sees it. 503 when it cannot be saved.
   */
  private async persisted(
    shared: SharedSessions,
    session: HttpSession,
    before: string,
    answer: Response | Promise<Response>,
  ): Promise<Response> {
    let saved: string;
    try {
      saved = await shared.persistIfChanged(session, before);
    } catch (error) {
      return shared.unavailable(undefined, error);
    }
    // A failure of the engine itself rejects here and is answered 500 by the handler, as in process.
    const response = await answer;
    try {
      await shared.persistIfChanged(session, saved);
    } catch (error) {
      return shared.unavailable(undefined, error);
    }
    return response;
  }

  private served(
    request: Request,
    session: HttpSession,
    items: readonly InboundMessage[],
    batch: boolean,
    auth: AuthInfo | undefined,
  ): Response | Promise<Response> {
    const { core, options } = this.http;
    if (batch && (!session.legacy.revision.batches || items.length === 0)) {
      const why =
        items.length === 0
          ? 'an empty batch'
          : `batches (not part of protocol revision ${session.legacy.revision.id})`;
      return errorResponse(400, null, { code: ErrorCode.InvalidRequest, message: `Invalid Request: ${why}` });
    }

    const requests: JsonRpcRequest[] = [];
    const immediate: ResponseOut[] = [];
    for (const item of items) {
      switch (item.kind) {
        case 'invalid':
          if (!batch) {
            // Not answerable: a broken notification or response; the HTTP request is refused without an id.
            return errorResponse(400, item.answerable ? item.id : undefined, item.error);
          }
          if (item.answerable) immediate.push({ json: serializeError(item.id, item.error) });
          break;
        case 'notification':
          core.handleLegacyNotification(session.legacy, item.message);
          this.shared?.forwardNotification(session, item.message);
          break;
        case 'response':
          session.touch();
          // Shared: a response to a request another node sent goes to that node.
          if (!core.handleLegacyResponse(session.legacy, item.message)) {
            this.shared?.forwardResponse(session, item.message);
          }
          break;
        case 'request':
          if (item.message.method === 'initialize') {
            const error = {
              code: ErrorCode.InvalidRequest,
              message: batch
                ? 'Invalid Request: initialize must not be part of a batch'
                : 'Invalid Request: the session is already initialized',
            };
            if (!batch) return jsonResponse(200, serializeError(item.message.id, error));
            immediate.push({ json: serializeError(item.message.id, error) });
          } else {
            requests.push(item.message);
          }
          break;
      }
    }
    if (requests.length === 0 && immediate.length === 0) return emptyResponse(202);
    // Pings alone are not use: they must not keep a session nobody uses alive (see HttpSession.touch).
    const used = requests.some((message) => message.method !== 'ping');
    if (used) session.touch();
    if (requests.length > 0) {
      if (session.running + requests.length > options.maxInflight) {
        return this.tooMany(batch ? null : requests[0]!.id, 'requests in flight');
      }
      if (session.openConnections >= options.maxStreams) {
        return this.tooMany(batch ? null : requests[0]!.id, 'open streams');
      }
    }

    session.openConnections++;
    const exchange = new Exchange(
      {
        expected: requests.length + immediate.length,
        batch,
        openStream: () => session.newStream(),
        connect: () => this.http.connection(),
        retryMs: options.retryMs,
        streamAfterMs: options.streamAfterMs,
        lightReply: cameThroughAdapter(request),
        statusOf: legacyStatus,
        // 2025-03-26 … 2025-11-25: "Disconnection SHOULD NOT be interpreted as the client cancelling its
        // request." The request keeps running; its stream stays resumable.
        onGone: () => {},
        onClosed: () => {
          session.openConnections--;
          if (used) session.touch();
        },
      },
      request,
    );
    const transport: RequestTransport = {
      closeSseStream: (closeOptions) => exchange.closeConnection(closeOptions?.retryMs ?? options.retryMs),
    };
    for (const out of immediate) exchange.respond(out);
    for (const message of requests) {
      session.running++;
      const done = (out: ResponseOut | null): void => {
        session.running--;
        if (used) session.touch();
        exchange.respond(out);
      };
      let out: ResponseOut | null | Promise<ResponseOut | null>;
      try {
        out = core.handleLegacy(session.legacy, message, { outbox: exchange.outbox, auth, transport });
      } catch (error) {
        out = core.errorResponse(message.id, error, session.legacy.revision, message.method);
      }
      if (out instanceof Promise) {
        out.then(done, (error: unknown) =>
          done(core.errorResponse(message.id, error, session.legacy.revision, message.method)),
        );
      } else {
        done(out);
      }
    }
    exchange.startClock();
    return exchange.answer;
  }

  /** GET: the standalone stream, or the resumption of any stream of the session after `Last-Event-ID`. */
  async get(request: Request, session: HttpSession): Promise<Response> {
    const { options } = this.http;
    const lastEventId = request.headers.get('last-event-id');
    const store = options.eventStore;
    if (!(lastEventId !== null && store) && !options.standaloneStream) {
      return emptyResponse(405, { allow: 'POST, DELETE' });
    }
    if (session.openConnections >= options.maxStreams) return this.tooMany(undefined, 'open streams');

    if (lastEventId !== null && store) {
      const position = parseEventId(lastEventId);
      let stream: ResponseStream | undefined;
      if (position) {
        stream = session.stream(position.streamId);
        if (!stream && session.issued(position.streamId)) {
          // A finished stream: replay what the client missed, then end.
          stream = new ResponseStream(position.streamId, {
            store: { store, sessionId: session.id },
            report: this.http.report,
          });
          stream.end();
        }
      }
      if (!position || !stream) {
        return errorResponse(400, undefined, {
          code: ErrorCode.InvalidRequest,
          message: 'Bad Request: Last-Event-ID does not name an event of this session',
        });
      }
      const connection = this.open(session);
      if (!(await stream.resume(connection, position.seq))) {
        connection.close();
        return errorResponse(400, undefined, {
          code: ErrorCode.InvalidRequest,
          message: 'Bad Request: the events after Last-Event-ID are no longer available',
        });
      }
      return new Response(connection.body, { status: 200, headers: SSE_HEADERS });
    }

    // Each GET is a standalone stream of its own; unrelated messages go to the newest connected one only.
    const connection = this.open(session);
    session.newStandalone().open(connection, options.retryMs);
    return new Response(connection.body, { status: 200, headers: SSE_HEADERS });
  }

  /** DELETE: the client ends its session (shared: on every node). */
  delete(session: HttpSession): Response | Promise<Response> {
    if (this.shared) {
      return this.shared.delete(session).then((refusal) => refusal ?? emptyResponse(200));
    }
    session.close('session terminated by the client');
    return emptyResponse(200);
  }

  private open(session: HttpSession) {
    const connection = this.http.connection();
    session.openConnections++;
    connection.onClose(() => {
      session.openConnections--;
      session.touch();
    });
    return connection;
  }

  private tooMany(id: RequestId | null | undefined, what: string): Response {
    return errorResponse(
      429,
      id,
      { code: TRANSPORT_ERROR, message: `Too many ${what} for this session` },
      { 'retry-after': '1' },
    );
  }
}
