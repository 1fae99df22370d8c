/**
 * Puts a WireTap between an official SDK client (v1 or v2) and its transport (stdio, Streamable HTTP or
 * HTTP+SSE), so that every message our server sends is validated against the official schema of the revision in
 * use.
 *
 * Both SDKs share the same transport shape: `start()`, `send(message, options?)`, `close()` and the `onmessage`,
 * `onerror`, `onclose` callbacks. The adapter is structural, so one class serves both, and it passes through the
 * optional members the clients look for (the stdio `pid`/`stderr`, the HTTP session id, protocol version and
 * per-request streams), so that a client treats the tapped transport exactly as it would the inner one.
 */
import type { WireTap } from '@mcpengine/oracle';

/** A JSON-RPC message as the SDKs hand it over: already parsed. */
export type WireMessage = Record<string, unknown>;

/**
 * The transport contract both official SDKs implement (only what the adapter needs): `M` is the SDK's message
 * type, `X` the extra info delivered with inbound messages, `O` the send options.
 */
export interface SdkTransport<M, X, O> {
  start(): Promise<void>;
  send(message: M, options?: O): Promise<void>;
  close(): Promise<void>;
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  onmessage?: ((message: M, extra?: X) => void) | undefined;
  readonly pid?: number | null;
  readonly stderr?: unknown;
  readonly sessionId?: string | undefined;
  readonly protocolVersion?: string | undefined;
  readonly hasPerRequestStream?: boolean;
  setProtocolVersion?(version: string): void;
  setSupportedProtocolVersions?(versions: string[]): void;
  terminateSession?(): Promise<void>;
}

export interface TappedTransportOptions {
  /**
   * Rewrites `params.protocolVersion` of the outgoing `initialize` request: a way to make an SDK that always
   * asks for its newest revision negotiate an older one (the server then answers the version it was asked for).
   */
  initializeVersion?: string;
}

export class TappedSdkTransport<M extends object, X = unknown, O = unknown> {
  /** Every message the client sent, in order (after any rewrite). */
  readonly sent: WireMessage[] = [];
  /** Every message the server sent, in order. */
  readonly received: WireMessage[] = [];
  /**
   * Errors the inner transport reported until the client closed it (stdio: unparseable stdout lines, process
   * errors; HTTP: failed requests, broken streams, unparseable events). What closing aborts is not recorded.
   */
  readonly transportErrors: Error[] = [];
  private closing = false;
  private waiters: { predicate: (message: WireMessage) => boolean; resolve: (m: WireMessage) => void }[] = [];

  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  onmessage?: ((message: M, extra?: X) => void) | undefined;

  /**
   * Present only when the inner transport has them (stdio), because the v2 client tells a stdio transport from
   * an HTTP one by these two members: over stdio it then probes in place (on this very process, through the tap)
   * instead of on a sibling process that the tap would not see; over HTTP it must keep treating it as HTTP.
   */
  declare readonly pid?: number | null;
  declare readonly stderr?: unknown;

  constructor(
    private readonly inner: SdkTransport<M, X, O>,
    private readonly tap: WireTap,
    private readonly options: TappedTransportOptions = {},
  ) {
    if ('pid' in inner && 'stderr' in inner) {
      Object.defineProperties(this, {
        pid: { get: () => inner.pid ?? null },
        stderr: { get: () => inner.stderr ?? null },
      });
    }
  }

  /** HTTP: the session the server assigned (the clients read it to tell a reconnect from a new connection). */
  get sessionId(): string | undefined {
    return this.inner.sessionId;
  }

  get protocolVersion(): string | undefined {
    return this.inner.protocolVersion;
  }

  /** v2 over Streamable HTTP: one POST per request, so a modern-era cancellation aborts that POST. */
  get hasPerRequestStream(): boolean | undefined {
    return this.inner.hasPerRequestStream;
  }

  setProtocolVersion(version: string): void {
    this.inner.setProtocolVersion?.(version);
  }

  setSupportedProtocolVersions(versions: string[]): void {
    this.inner.setSupportedProtocolVersions?.(versions);
  }

  /** Streamable HTTP: DELETE the session. */
  async terminateSession(): Promise<void> {
    if (!this.inner.terminateSession) throw new Error('this transport has no session to terminate');
    await this.inner.terminateSession();
  }

  async start(): Promise<void> {
    this.inner.onmessage = (message, extra) => {
      const record = message as WireMessage;
      this.received.push(record);
      this.tap.record(message, 'server');
      this.onmessage?.(message, extra);
      for (const waiter of this.waiters.filter((w) => w.predicate(record))) {
        this.waiters.splice(this.waiters.indexOf(waiter), 1);
        waiter.resolve(record);
      }
    };
    this.inner.onerror = (error) => {
      if (!this.closing) this.transportErrors.push(error);
      this.onerror?.(error);
    };
    this.inner.onclose = () => this.onclose?.();
    await this.inner.start();
  }

  async send(message: M, options?: O): Promise<void> {
    const wire = this.rewrite(message);
    this.sent.push(wire as WireMessage);
    this.tap.record(wire, 'client');
    await this.inner.send(wire, options);
  }

  close(): Promise<void> {
    this.closing = true;
    return this.inner.close();
  }

  /** The server messages with this method (notifications or requests), in order. */
  receivedWithMethod(method: string): WireMessage[] {
    return this.received.filter((m) => m['method'] === method);
  }

  /**
   * Resolves with the first server message, received from now on, that matches. Rejects after `timeoutMs`
   * (a guard against hanging, not a timing assertion).
   */
  nextReceived(predicate: (message: WireMessage) => boolean, timeoutMs = 5_000): Promise<WireMessage> {
    return new Promise((resolve, reject) => {
      const waiter = {
        predicate,
        resolve: (message: WireMessage) => {
          clearTimeout(timer);
          resolve(message);
        },
      };
      const timer = setTimeout(() => {
        this.waiters.splice(this.waiters.indexOf(waiter), 1);
        reject(new Error(`no matching server message within ${timeoutMs} ms`));
      }, timeoutMs);
      this.waiters.push(waiter);
    });
  }

  /** The client messages with this method, in order. */
  sentWithMethod(method: string): WireMessage[] {
    return this.sent.filter((m) => m['method'] === method);
  }

  private rewrite(message: M): M {
    const record = message as WireMessage;
    if (this.options.initializeVersion === undefined || record['method'] !== 'initialize') return message;
    const params = record['params'] as WireMessage;
    return { ...record, params: { ...params, protocolVersion: this.options.initializeVersion } } as M;
  }
}
