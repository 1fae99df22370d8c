/**
 * The client's vocabulary as plain types: options, handlers, call options, subscriptions and middleware.
 *
 * A leaf module (it imports only protocol types), so `client.ts`, `session.ts` and `tasks.ts` can all use these
 * types without importing one another in a cycle.
 */
import type { Era, Revision } from '../protocol/revisions.js';
import type {
  ClientCapabilities,
  CreateMessageParams,
  CreateMessageResult,
  ElicitParams,
  ElicitResult,
  JsonObject,
  LoggingLevel,
  RequestId,
  Root,
  SubscriptionFilter,
} from '../protocol/types.js';
import type { RequestOptions } from '../rpc/outgoing.js';

/** Context handed to client-side handlers (sampling, elicitation, roots). */
export interface ClientHandlerContext {
  /** Aborted if the server cancels its request (legacy) or the session is closed. */
  signal: AbortSignal;
  /** Which era asked: a legacy server→client request or a modern input request. */
  era: Era;
  /** Reports progress to the server when its request carried a progress token (legacy); otherwise a no-op. */
  progress(progress: number, total?: number, message?: string): void;
}

export interface ClientHandlers {
  sampling?: (
    params: CreateMessageParams,
    ctx: ClientHandlerContext,
  ) => Promise<CreateMessageResult> | CreateMessageResult;
  elicitation?: (params: ElicitParams, ctx: ClientHandlerContext) => Promise<ElicitResult> | ElicitResult;
  roots?: (ctx: ClientHandlerContext) => Promise<Root[]> | Root[];
}

/** Options for task-based tool calls (see `ClientTasks`). */
export interface ClientTaskOptions {
  /** Modern era: declare the tasks extension, so servers may answer tool calls with tasks. Default true. */
  extension?: boolean;
  /**
   * 2025-11-25: accept task-augmented `sampling/createMessage` and `elicitation/create` (for the handlers the
   * client has) and serve the server's `tasks/*` requests about them. Default true.
   */
  receive?: boolean;
  /** The slowest polling gets when the server suggests nothing faster is needed. Default 5 s. */
  maxPollIntervalMs?: number;
}

export interface ClientOptions {
  name: string;
  version: string;
  title?: string;
  /** Explicit capabilities; by default they follow the handlers given. */
  capabilities?: ClientCapabilities;
  handlers?: ClientHandlers;
  /** Middleware around every message a session sends or receives, outermost first (see `Client.use`). */
  middleware?: readonly ClientMiddleware[];
  /** Default per-request timeout. Default 60 s. */
  requestTimeoutMs?: number;
  /** Restart the timeout when progress arrives. Default true. */
  resetTimeoutOnProgress?: boolean;
  /** Cap on a request's total time regardless of progress. Default 10 minutes. */
  maxTotalTimeoutMs?: number;
  /** Modern era: rounds of `input_required` answered before giving up. Default 10. */
  maxInputRounds?: number;
  /** Modern era: ask the server for log messages at this level on every request. */
  logLevel?: LoggingLevel;
  /** Tasks (long-running tool calls): the extension declaration, 2025-11-25 receiving, polling. */
  tasks?: ClientTaskOptions;
}

export interface ConnectOptions {
  /** `'auto'` (default): probe modern, fall back to legacy. Or a specific revision to speak. */
  revision?: Revision | 'auto';
  /**
   * How long to wait for the `server/discover` probe before assuming a legacy server. Default 5 s; unused when
   * `revisions` allows no legacy revision (nothing to fall back to: the probe waits like any request).
   */
  probeTimeoutMs?: number;
  /** Revisions this client is willing to speak. Default: all. */
  revisions?: readonly Revision[];
}

export interface CallOptions extends RequestOptions {
  /** Use and fill the result cache (cacheable modern results). Default true. */
  cache?: boolean;
  /** Extra `_meta` for the request. */
  meta?: JsonObject;
  /** Modern era: return a `resultType: "task"` answer as is (tasks extension) instead of rejecting it. */
  acceptTask?: boolean;
}

export type NotificationHandler = (params: JsonObject) => void;

export interface Subscription {
  /** The subscription id: the id of its `subscriptions/listen` request. */
  readonly id: RequestId;
  /** Resolves with the notification types the server agreed to deliver. */
  readonly acknowledged: Promise<SubscriptionFilter>;
  /** Resolves when the subscription ends (server closed it gracefully, or `close()`). */
  readonly ended: Promise<void>;
  close(): void;
}

// ── middleware ────────────────────────────────────────────────────────────────────────────────────────

/**
 * One message passing through a session's middleware.
 *
 * - `outgoing` `request`: a call this session makes (`initialize`, `server/discover`, `tools/call`, …), once per
 *   call: modern `input_required` rounds, retries and cache hits happen inside `next`.
 * - `outgoing` `notification`: a notification this session sends.
 * - `incoming` `request`: something the server asks of the client — a legacy server→client request or a modern
 *   input request inside `input_required`; `next` runs the client's handler and resolves with its answer.
 * - `incoming` `notification`: a notification from the server, before listeners and subscriptions see it.
 *
 * `params` may be replaced (e.g. to add trace context to `_meta`); pass the changed call to `next`.
 */
export interface ClientCall {
  readonly direction: 'outgoing' | 'incoming';
  readonly kind: 'request' | 'notification';
  readonly method: string;
  readonly params: JsonObject;
  /** The revision spoken; undefined during the handshake (`initialize`, `server/discover`). */
  readonly revision: Revision | undefined;
  /** The session's `localId`, so middleware shared by many sessions can tell their traffic apart. */
  readonly sessionId: number;
}

/**
 * Calls the rest of the chain. `next()` continues with the call unchanged, `next(changed)` with a changed one
 * (e.g. `withMeta(call, { traceparent })`). Resolves with the request's result, or with `undefined` for a
 * notification. Call it at most once.
 */
export type ClientNext = (call?: ClientCall) => Promise<JsonObject | undefined>;

/** The same shape as the server's middleware: `(call, next)`, with `next()` or `next(changed)`. */
export type ClientMiddleware = (call: ClientCall, next: ClientNext) => Promise<JsonObject | undefined>;
