/**
 * The deprecated HTTP+SSE transport of 2024-11-05: `GET <ssePath>` opens an event stream whose first event,
 * `endpoint`, names the URL for the client's POSTs (`<messagesPath>?sessionId=…`). Each POST is answered 202;
 * every server message travels on the event stream as a `message` event.
 *
 * The pair is a message stream like stdio, so it is served by the same `ServerConnection` (both eras on one
 * stream, batches where the negotiated revision has them, `notifications/cancelled`).
 */
import { randomBytes } from 'node:crypto';
import { ErrorCode } from '../../protocol/errors.js';
import { parseInbound, type InboundMessage } from '../../protocol/jsonrpc.js';
import type { AuthInfo } from '../../server/context.js';
import type { ServerConnection } from '../../server/connection.js';
import type { Transport, TransportHandlers } from '../transport.js';
import type { HttpContext } from './server-context.js';
import { emptyResponse, errorResponse, SESSION_NOT_FOUND, TRANSPORT_ERROR } from './server-responses.js';
import { SSE_HEADERS, type SseConnection } from './sse-writer.js';

/** The server side of one HTTP+SSE session: inbound POST bodies, outbound `message` events. */
class HttpSseTransport implements Transport {
  private handlers: TransportHandlers | undefined;

  constructor(private readonly connection: SseConnection) {}

  start(handlers: TransportHandlers): void {
    this.handlers = handlers;
    this.connection.onClose(() => handlers.close());
  }

  send(message: string): void {
    if (!this.connection.event(message, undefined, 'message')) throw new Error('the SSE stream is closed');
  }

  deliver(text: string): void {
    this.handlers?.message(text);
  }

  close(): Promise<void> {
    this.connection.close();
    return Promise.resolve();
  }
}

interface SseSession {
  readonly transport: HttpSseTransport;
  readonly principal: string;
  /** When the token that opened the stream expires (ms since the epoch): the stream ends then. */
  readonly expiresAtMs: number | undefined;
  connection?: ServerConnection;
}

export class HttpSseEndpoint {
  private readonly sessions = new Map<string, SseSession>();

  constructor(
    private readonly http: HttpContext,
    private readonly messagesPath: string,
    /** Sessions of the other transport, for the shared limit. */
    private readonly otherSessions: () => number,
  ) {}

  get size(): number {
    return this.sessions.size;
  }

  async get(principal: string, auth: AuthInfo | undefined, quotaKey: string): Promise<Response> {
    const { options, server, quota } = this.http;
    if (this.sessions.size + this.otherSessions() >= options.maxSessions) {
      return errorResponse(
        503,
        undefined,
        { code: TRANSPORT_ERROR, message: 'Server busy: too many sessions' },
        { 'retry-after': '5' },
      );
    }
    if (quota.full(quotaKey)) {
      return errorResponse(
        429,
        undefined,
        { code: TRANSPORT_ERROR, message: 'Too many sessions for this client' },
        { 'retry-after': '5' },
      );
    }
    const release = quota.acquire(quotaKey);
    const id = randomBytes(16).toString('base64url');
    const connection = this.http.connection();
    const transport = new HttpSseTransport(connection);
    const expiresAtMs = auth?.expiresAt === undefined ? undefined : auth.expiresAt * 1000;
    const session: SseSession = { transport, principal, expiresAtMs };
    this.sessions.set(id, session);
    connection.onClose(() => {
      release();
      this.sessions.delete(id);
      void session.connection?.close();
    });
    connection.event(`${this.messagesPath}?sessionId=${encodeURIComponent(id)}`, undefined, 'endpoint');
    session.connection = await server.connect(transport, auth ? { auth } : {});
    return new Response(connection.body, { status: 200, headers: SSE_HEADERS });
  }

  /**
   * A client message: handed to the session's connection, which answers on the event stream. Every POST is
   * authenticated on its own (`auth` is its token, not the stream's): it must be the principal that opened the
   * stream (else 403), passes the `authorize` hook (`refuse`), and its requests run with its own token.
   */
  post(
    url: URL,
    principal: string,
    auth: AuthInfo | undefined,
    body: string,
    refuse: (items: readonly InboundMessage[]) => Response | undefined,
  ): Response {
    const id = url.searchParams.get('sessionId');
    if (id === null) {
      return errorResponse(400, undefined, {
        code: ErrorCode.InvalidRequest,
        message: 'Bad Request: the sessionId query parameter is required',
      });
    }
    const session = this.sessions.get(id);
    if (!session?.connection) {
      return errorResponse(404, undefined, { code: SESSION_NOT_FOUND, message: 'Session not found' });
    }
    if (session.principal !== principal) {
      return errorResponse(403, undefined, {
        code: TRANSPORT_ERROR,
        message: 'Forbidden: the session belongs to another principal',
      });
    }
    const parsed = parseInbound(body);
    // Unparseable and invalid messages go through: the connection answers them on the stream, like stdio.
    const items = parsed.kind === 'batch' ? parsed.items : parsed.kind === 'unparseable' ? [] : [parsed];
    const refusal = refuse(items);
    if (refusal) return refusal;
    const requests = items.filter((item) => item.kind === 'request').length;
    if (requests > 0 && session.connection.inflight + requests > this.http.options.maxInflight) {
      return errorResponse(
        429,
        undefined,
        { code: TRANSPORT_ERROR, message: 'Too many requests in flight for this session' },
        { 'retry-after': '1' },
      );
    }
    session.connection.setAuth(auth);
    session.transport.deliver(body);
    return emptyResponse(202);
  }

  /** Ends the streams whose opening token has expired. */
  sweep(now: number): void {
    for (const session of this.sessions.values()) {
      if (session.expiresAtMs !== undefined && session.expiresAtMs <= now) void session.transport.close();
    }
  }

  closeAll(): void {
    for (const session of [...this.sessions.values()]) void session.connection?.close();
    this.sessions.clear();
  }
}
