/**
 * The part shared by transports where every server message arrives on one stream (stdio, and the legacy
 * HTTP+SSE transport's event stream): responses are matched to requests by id, server-initiated requests are
 * answered by a policy, and everything is kept in arrival order.
 */
import {
  isObject,
  requestIdsIn,
  sameId,
  type CallOptions,
  type CallResult,
  type Channel,
  type JsonObject,
  type RawOptions,
  type RawResult,
  type Received,
  type TransportKind,
} from './channel.js';

/** How the validator answers a request the server sends it (legacy era): `undefined` sends nothing. */
export type ServerRequestPolicy = (request: JsonObject) => JsonObject | undefined;

/** The validator declares no client capabilities by default, so it answers only `ping`. */
export const DEFAULT_SERVER_REQUEST_POLICY: ServerRequestPolicy = (request) =>
  request['method'] === 'ping'
    ? { jsonrpc: '2.0', id: request['id'], result: {} }
    : {
        jsonrpc: '2.0',
        id: request['id'],
        error: {
          code: -32601,
          message: `Method not found: the validator does not offer ${String(request['method'])}`,
        },
      };

type Waiter = (received: Received) => void;

function isProgressNotification(received: Received): boolean {
  return isObject(received.message) && received.message['method'] === 'notifications/progress';
}

export abstract class StreamChannel implements Channel {
  abstract readonly kind: TransportKind;
  readonly received: Received[] = [];
  readonly sentIds = new Set<unknown>();
  /** Requests the server sent, with the answer the validator gave. */
  readonly serverRequests: { request: JsonObject; answer: JsonObject | undefined }[] = [];
  policy: ServerRequestPolicy = DEFAULT_SERVER_REQUEST_POLICY;
  readonly defaultTimeoutMs: number;
  #id = 0;
  readonly #waiters = new Set<Waiter>();
  readonly #closeWaiters = new Set<() => void>();

  constructor(defaultTimeoutMs: number) {
    this.defaultTimeoutMs = defaultTimeoutMs;
  }

  /** Writes one line/message of text to the server. False when the channel cannot send any more. */
  protected abstract write(text: string): Promise<boolean>;
  abstract alive(): boolean;
  abstract deathNote(): string | undefined;
  abstract close(): Promise<void>;

  nextId(): number {
    return ++this.#id;
  }

  /** Subclasses call this for each message that arrives. */
  protected deliver(received: Received): void {
    this.received.push(received);
    const message = received.message;
    if (isObject(message) && typeof message['method'] === 'string' && 'id' in message) {
      const answer = this.policy(message);
      this.serverRequests.push({ request: message, answer });
      if (answer !== undefined) void this.write(JSON.stringify(answer));
    }
    for (const waiter of [...this.#waiters]) waiter(received);
  }

  /** Subclasses call this when the server side is gone. */
  protected ended(): void {
    for (const waiter of [...this.#closeWaiters]) waiter();
  }

  async call(message: JsonObject, options: CallOptions = {}): Promise<CallResult> {
    const sentText = JSON.stringify(message);
    const started = Date.now();
    const id = message['id'];
    const raw = await this.raw(sentText, {
      ...options,
      until: (received) => {
        const m = received.message;
        return isObject(m) && !('method' in m) && sameId(m['id'], id);
      },
    });
    // Messages may still be delivered between the match and this continuation: search, do not assume last.
    const match = raw.received.find(
      (r) => isObject(r.message) && !('method' in r.message) && sameId(r.message['id'], id),
    );
    const during = raw.received.filter((r) => r !== match);
    const base = { sent: message, sentText, during, startedAt: started, elapsedMs: Date.now() - started };
    if (match !== undefined)
      return {
        ...base,
        response: match.message as JsonObject,
        responseText: match.text,
        respondedAt: match.at,
      };
    if (raw.timedOut) return { ...base, failure: 'timeout' };
    const why = this.deathNote();
    return { ...base, failure: 'closed', ...(why === undefined ? {} : { closedBecause: why }) };
  }

  async send(message: JsonObject | readonly unknown[], options: CallOptions = {}): Promise<RawResult> {
    return this.raw(JSON.stringify(message), { ...options, timeoutMs: options.timeoutMs ?? 0 });
  }

  /**
   * Sends `text` and collects what arrives until `until` matches, the channel dies, or `timeoutMs` passes
   * (0: return right after sending).
   */
  async raw(text: string, options: RawOptions = {}): Promise<RawResult> {
    const timeoutMs = options.timeoutMs ?? this.defaultTimeoutMs;
    const received: Received[] = [];
    let settle: (timedOut: boolean) => void = () => {};
    const done = new Promise<boolean>((resolve) => {
      settle = resolve;
    });
    const started = Date.now();
    let timer = setTimeout(() => settle(true), timeoutMs);
    const waiter: Waiter = (message) => {
      received.push(message);
      options.onMessage?.(message);
      if (options.until?.(message)) settle(false);
      else if (options.progressExtendsToMs !== undefined && isProgressNotification(message)) {
        const left = started + options.progressExtendsToMs - Date.now();
        clearTimeout(timer);
        timer = setTimeout(() => settle(true), Math.max(0, Math.min(timeoutMs, left)));
      }
    };
    const onClose = (): void => settle(false);
    if (options.signal?.aborted === true) settle(false);
    options.signal?.addEventListener('abort', onClose, { once: true });
    this.#waiters.add(waiter);
    this.#closeWaiters.add(onClose);
    for (const id of requestIdsIn(text)) this.sentIds.add(id);
    try {
      const written = await this.write(text);
      if (!written || !this.alive()) settle(false);
      else options.onSent?.();
      if (timeoutMs === 0) settle(false);
      const timedOut = await done;
      return { sentText: text, received, timedOut: timedOut && options.until !== undefined };
    } finally {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onClose);
      this.#waiters.delete(waiter);
      this.#closeWaiters.delete(onClose);
    }
  }

  /** Waits for a message matching `predicate` among those arriving from now on. */
  waitFor(predicate: (received: Received) => boolean, timeoutMs: number): Promise<Received | undefined> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => finish(undefined), timeoutMs);
      const waiter: Waiter = (received) => {
        if (predicate(received)) finish(received);
      };
      const onClose = (): void => finish(undefined);
      const finish = (value: Received | undefined): void => {
        clearTimeout(timer);
        this.#waiters.delete(waiter);
        this.#closeWaiters.delete(onClose);
        resolve(value);
      };
      this.#waiters.add(waiter);
      this.#closeWaiters.add(onClose);
      if (!this.alive()) finish(undefined);
    });
  }

  /** Collects every message arriving within `ms`. */
  async collect(ms: number): Promise<Received[]> {
    const collected: Received[] = [];
    const waiter: Waiter = (received) => collected.push(received);
    this.#waiters.add(waiter);
    await new Promise((resolve) => setTimeout(resolve, ms));
    this.#waiters.delete(waiter);
    return collected;
  }
}
