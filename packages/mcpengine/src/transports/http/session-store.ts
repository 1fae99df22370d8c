/**
 * Legacy Streamable HTTP sessions (`Mcp-Session-Id`): the protocol session from `initialize`, its streams, and
 * the bookkeeping that bounds what one client can hold (streams, requests in flight, idle lifetime).
 */
import type { LegacySession } from '../../server/legacy-session.js';
import type { EventStore } from './event-store.js';
import { ResponseStream } from './session-stream.js';

/** Standalone streams kept per session (disconnected ones beyond this are dropped). */
const MAX_STANDALONE_STREAMS = 4;

/**
 * How a session ends: `everywhere` (the client's DELETE, expiry, eviction), `here` (a scaled-out node drops its
 * copy; the session lives on in the shared store), `remote` (another node ended it everywhere).
 */
export type CloseScope = 'everywhere' | 'here' | 'remote';

export interface HttpSessionShared {
  /** Stream ids start with this, so that streams of several nodes (and copies) never collide. */
  readonly streamPrefix: string;
  /** Called once when the session ends everywhere from this node. */
  readonly ended: () => void;
}

export class HttpSession {
  readonly id: string;
  /**
   * Standalone GET streams, oldest first: server messages unrelated to any request go to the newest one that
   * is connected (never to two). A second GET adds a stream instead of replacing the first, so that two
   * handlers in one client cannot knock each other's connection off in turn.
   */
  private readonly standalones: ResponseStream[] = [];
  /** POST streams that have not finished, by stream id. */
  readonly streams = new Map<string, ResponseStream>();
  /** Open HTTP responses: POSTs awaiting their answer and SSE connections. */
  openConnections = 0;
  /** Client requests being processed (a legacy client's disconnect does not cancel them). */
  running = 0;
  /** Last real use (see `touch`). */
  lastActivity = Date.now();
  /** Whether the client ever used the session beyond `initialize` and pings. */
  used = false;
  private nextStream = 1;
  private ended = false;

  constructor(
    readonly legacy: LegacySession,
    /** Who opened the session; later requests must come from the same principal. */
    readonly principal: string,
    private readonly store: EventStore | undefined,
    private readonly report: (error: unknown, where: string) => void,
    /** Whose quota the session counts against (see `quotaKey`). */
    readonly quotaKey = principal,
    /** Gives the session's place in that quota back. */
    private readonly release: () => void = () => {},
    /** Set when the session is shared between nodes (see shared.ts). */
    readonly shared?: HttpSessionShared,
  ) {
    this.id = legacy.id;
  }

  /** Whether the client opened a standalone stream here (where unrelated messages can be delivered). */
  get hasStandalone(): boolean {
    return this.standalones.length > 0;
  }

  private nextStreamId(): string {
    const n = (this.nextStream++).toString(36);
    return this.shared ? this.shared.streamPrefix + n : n;
  }

  /** Sends a message unrelated to any request; false when no standalone stream was ever opened. */
  sendUnrelated(message: string): boolean {
    let target: ResponseStream | undefined;
    for (let i = this.standalones.length - 1; i >= 0; i--) {
      const stream = this.standalones[i]!;
      if (stream.connected) {
        target = stream;
        break;
      }
      target ??= stream;
    }
    return target?.send(message) ?? false;
  }

  /** A new standalone stream for a GET; the oldest disconnected ones beyond a few are ended. */
  newStandalone(): ResponseStream {
    const stream = new ResponseStream(this.nextStreamId(), this.streamOptions());
    this.standalones.push(stream);
    while (this.standalones.length > MAX_STANDALONE_STREAMS) {
      const index = this.standalones.findIndex((s) => !s.connected);
      if (index < 0) break;
      this.standalones.splice(index, 1)[0]!.end();
    }
    return stream;
  }

  /** A stream of this session by id: a POST stream still running, or a standalone stream. */
  stream(id: string): ResponseStream | undefined {
    return this.streams.get(id) ?? this.standalones.find((s) => s.id === id);
  }

  get closed(): boolean {
    return this.ended || this.legacy.closed;
  }

  private streamOptions() {
    return {
      store: this.store ? { store: this.store, sessionId: this.id } : undefined,
      report: this.report,
    };
  }

  /** A new stream for a POST response. */
  newStream(): ResponseStream {
    const stream = new ResponseStream(this.nextStreamId(), this.streamOptions());
    this.streams.set(stream.id, stream);
    stream.onEnd(() => this.streams.delete(stream.id));
    return stream;
  }

  /** Whether a stream id was ever issued by this session. */
  issued(streamId: string): boolean {
    // Shared: streams of other nodes are resumable here too; the event store knows which exist.
    if (this.shared) return true;
    const n = parseInt(streamId, 36);
    return String(n.toString(36)) === streamId && n >= 0 && n < this.nextStream;
  }

  /**
   * Real use: a request other than `ping`, a response, a stream. Pings and notifications do not count, so that
   * a client pinging a session it never uses cannot keep it (and its place in the table) forever.
   */
  touch(): void {
    this.used = true;
    this.lastActivity = Date.now();
  }

  idleSince(now: number): number {
    return this.running > 0 || this.openConnections > 0 ? 0 : now - this.lastActivity;
  }

  close(reason: string, scope: CloseScope = 'everywhere'): void {
    if (this.ended) return;
    this.ended = true;
    this.release();
    this.legacy.close(reason, { detach: scope === 'here' });
    for (const stream of this.standalones.splice(0)) stream.end();
    for (const stream of [...this.streams.values()]) stream.end();
    this.streams.clear();
    if (scope !== 'everywhere') return;
    if (this.shared) {
      try {
        this.shared.ended();
      } catch (error) {
        this.report(error, 'shared sessions');
      }
    }
    if (this.store) {
      try {
        this.store.dropSession(this.id);
      } catch (error) {
        this.report(error, 'event store');
      }
    }
  }
}

export class SessionRegistry {
  private readonly sessions = new Map<string, HttpSession>();

  get size(): number {
    return this.sessions.size;
  }

  values(): IterableIterator<HttpSession> {
    return this.sessions.values();
  }

  get(id: string): HttpSession | undefined {
    const session = this.sessions.get(id);
    if (session?.closed) {
      this.sessions.delete(id);
      return undefined;
    }
    return session;
  }

  add(session: HttpSession): void {
    this.sessions.set(session.id, session);
    session.legacy.onClose(() => {
      if (this.sessions.get(session.id) === session) this.sessions.delete(session.id);
      session.close('session closed', session.legacy.detached ? 'here' : 'everywhere');
    });
  }

  /** The session if this process holds it, closed or not (a shared session's copy being replaced). */
  peek(id: string): HttpSession | undefined {
    return this.sessions.get(id);
  }

  /** Closes sessions idle for longer than `idleTimeoutMs`; returns how many. */
  sweep(idleTimeoutMs: number, now = Date.now()): number {
    let closed = 0;
    for (const session of [...this.sessions.values()]) {
      if (session.closed || session.idleSince(now) > idleTimeoutMs) {
        this.sessions.delete(session.id);
        // A shared session's idle expiry is the store's: this node only drops its copy.
        session.close('session expired', session.shared ? 'here' : 'everywhere');
        closed++;
      }
    }
    return closed;
  }

  /**
   * Closes the never-used session idle the longest, among those `eligible` and idle for at least `graceMs` (a
   * client between `initialize` and its first request is left alone); whether one was closed.
   */
  evictNeverUsed(graceMs: number, eligible: (session: HttpSession) => boolean, now = Date.now()): boolean {
    let victim: HttpSession | undefined;
    for (const session of this.sessions.values()) {
      if (session.used || session.closed || !eligible(session)) continue;
      const idle = session.idleSince(now);
      if (idle >= graceMs && (victim === undefined || idle > victim.idleSince(now))) victim = session;
    }
    if (!victim) return false;
    this.sessions.delete(victim.id);
    // A shared session may be in use on other nodes: only this node's copy makes room.
    victim.close('session evicted: never used', victim.shared ? 'here' : 'everywhere');
    return true;
  }

  closeAll(reason: string): void {
    // A node shutting down leaves shared sessions to the other nodes.
    for (const session of [...this.sessions.values()]) {
      session.close(reason, session.shared ? 'here' : 'everywhere');
    }
    this.sessions.clear();
  }
}
