/**
 * The per-request context handed to every handler. It is cheap to create (the AbortController is made only
 * when a handler asks for the signal) and it hides the era: the same handler code logs, reports progress and
 * asks the client for input in the legacy and the modern era.
 */
import type { InputTaskOptions } from './task-input.js';
import { MetaKey } from '../protocol/meta.js';
import type { Era, Revision } from '../protocol/revisions.js';
import { LOGGING_LEVELS } from '../protocol/types.js';
import type {
  ClientCapabilities,
  CreateMessageParams,
  CreateMessageResult,
  ElicitParams,
  ElicitResult,
  Implementation,
  InputRequest,
  InputResponse,
  JsonObject,
  ListRootsResult,
  LoggingLevel,
  ProgressToken,
  RequestId,
} from '../protocol/types.js';

/** Who is calling, as far as the server can tell. */
export interface AuthInfo {
  /** The raw access token. Never logged by the engine. */
  token?: string;
  clientId?: string;
  /** The authenticated end user or workload, when known. */
  subject?: string;
  scopes: readonly string[];
  /** Expiry in seconds since the epoch. */
  expiresAt?: number;
  /** The resource (audience) the token was issued for. */
  resource?: string;
  extra?: JsonObject;
}

export interface ClientIdentity {
  /** Self-reported; for display and logs, never for security decisions. */
  info?: Implementation;
  capabilities: ClientCapabilities;
}

/** The caller as seen by visibility filters and authorization checks. */
export interface Caller {
  revision: Revision;
  era: Era;
  client: ClientIdentity;
  auth?: AuthInfo;
  sessionId?: string;
}

export interface InputOptions {
  /**
   * Identifies this input across rounds of a multi-round-trip request (modern era). Defaults to a key derived
   * from the order of calls, which is stable as long as the handler asks in the same order on every round.
   */
  key?: string;
  /** Legacy era: how long to wait for the client's answer. */
  timeoutMs?: number;
  /**
   * Sampling and elicitation, 2025-11-25: run the request as a task on the client (it answers at once and the
   * server polls `tasks/get`, then `tasks/result`) when the client declares task support for it; a plain
   * request otherwise. See server/task-input.ts.
   */
  task?: InputTaskOptions;
}

/** What a transport lets a handler do with the request's own stream; absent when it offers nothing. */
export interface RequestTransport {
  /**
   * Streamable HTTP up to 2025-11-25: closes the connection carrying this request's SSE stream without ending
   * the stream (SEP-1699 polling). The client reconnects with `Last-Event-ID` and receives what was sent in
   * between. Returns false when it cannot (no event store, or the request is already answered). Modern-era
   * requests have no such control: closing their stream would cancel them.
   */
  closeSseStream?(options?: { retryMs?: number }): boolean;
}

/** Era-specific plumbing behind a context: where notifications go and how input is obtained. */
export interface RequestIO {
  /** Sends a notification related to this request (on its response stream). */
  notify(method: string, params: JsonObject): void;
  /** Minimum log level for this request; undefined means no `notifications/message` may be sent. */
  readonly logLevel: LoggingLevel | undefined;
  /** Whether `notifications/progress` may carry `message` in this revision. */
  readonly progressMessage: boolean;
  input(request: InputRequest, options: InputOptions, ctx: RequestContext): Promise<InputResponse>;
  /**
   * Sends a notification to the client of this request that may outlive it: on the request's stream while it
   * is open, then on the session's own stream. False when it could not be sent (no session, or the revision
   * does not define the notification). Absent where there is no session (the modern era).
   */
  notifyClient?(method: string, params: JsonObject): boolean;
}

export interface RequestContextInit {
  requestId: RequestId;
  method: string;
  revision: Revision;
  era: Era;
  client: ClientIdentity;
  params: JsonObject;
  io: RequestIO;
  progressToken: ProgressToken | undefined;
  auth?: AuthInfo | undefined;
  sessionId?: string | undefined;
  state?: JsonObject | undefined;
  transport?: RequestTransport | undefined;
}

interface RequestControl {
  abort(ctx: RequestContext, reason: unknown): void;
  isAborted(ctx: RequestContext): boolean;
  finish(ctx: RequestContext): void;
}

// Assigned by RequestContext's static block (declared first: the block runs when the class is evaluated).
let control!: RequestControl;

/*
 * One context is made per request, so its fields are `declare`d and assigned in the constructor: V8 (Node 20)
 * defines native class fields through a generic inline-cache path that costs about 3% of a whole tools/call.
 */
export class RequestContext {
  declare readonly requestId: RequestId;
  /** The JSON-RPC method being served. */
  declare readonly method: string;
  /** The protocol revision of this request (negotiated in the legacy era, declared per request in the modern). */
  declare readonly revision: Revision;
  declare readonly era: Era;
  declare readonly client: ClientIdentity;
  declare readonly auth: AuthInfo | undefined;
  /** Legacy Streamable HTTP session id, when there is one. */
  declare readonly sessionId: string | undefined;
  /** The request params as received (including `_meta`). */
  declare readonly params: JsonObject;
  /** Transport-specific controls for this request's stream, when the transport offers any. */
  declare readonly transport: RequestTransport | undefined;

  declare private readonly io: RequestIO;
  declare private readonly progressToken: ProgressToken | undefined;
  declare private controller: AbortController | undefined;
  /** Made on first use: most requests never consult a visibility filter. */
  declare private callerView: Caller | undefined;
  /** Made on first use: most handlers keep no state across rounds. */
  declare private handlerState: JsonObject | undefined;
  declare private abortReason: unknown;
  declare private aborted: boolean;
  declare private lastProgress: number;
  declare private finished: boolean;

  constructor(init: RequestContextInit) {
    this.requestId = init.requestId;
    this.method = init.method;
    this.revision = init.revision;
    this.era = init.era;
    this.client = init.client;
    this.params = init.params;
    this.transport = init.transport;
    this.io = init.io;
    this.progressToken = init.progressToken;
    this.auth = init.auth;
    this.sessionId = init.sessionId;
    this.controller = undefined;
    this.callerView = undefined;
    this.handlerState = init.state;
    this.abortReason = undefined;
    this.aborted = false;
    this.lastProgress = -Infinity;
    this.finished = false;
  }

  /**
   * Handler state that survives the rounds of a multi-round-trip request (it travels sealed in `requestState`).
   * Use it to avoid repeating work done before asking the client for input. JSON values only.
   */
  get state(): JsonObject {
    return (this.handlerState ??= {});
  }

  /** Aborted when the client cancels the request, the connection closes, or input is required (modern). */
  get signal(): AbortSignal {
    if (!this.controller) {
      this.controller = new AbortController();
      if (this.aborted) this.controller.abort(this.abortReason);
    }
    return this.controller.signal;
  }

  /** Who is calling, for visibility filters and authorization checks. */
  get caller(): Caller {
    let caller = this.callerView;
    if (caller === undefined) {
      caller = { revision: this.revision, era: this.era, client: this.client };
      if (this.auth) caller.auth = this.auth;
      if (this.sessionId !== undefined) caller.sessionId = this.sessionId;
      this.callerView = caller;
    }
    return caller;
  }

  /**
   * Reports progress when the client asked for it (sent a progress token); otherwise does nothing. Values must
   * increase: a value that does not is dropped, as the spec requires progress to be monotonic.
   */
  progress(progress: number, total?: number, message?: string): void {
    if (this.progressToken === undefined || this.finished || this.aborted) return;
    if (!(progress > this.lastProgress)) return;
    this.lastProgress = progress;
    const params: JsonObject = { progressToken: this.progressToken, progress };
    if (total !== undefined) params.total = total;
    if (message !== undefined && this.io.progressMessage) params.message = message;
    this.io.notify('notifications/progress', params);
  }

  /** Sends a log message to the client if its log level lets this one through. */
  log(level: LoggingLevel, data: unknown, logger?: string): void {
    if (this.finished) return;
    const minimum = this.io.logLevel;
    if (minimum === undefined || LOGGING_LEVELS.indexOf(level) < LOGGING_LEVELS.indexOf(minimum)) return;
    const params: JsonObject = { level, data };
    if (logger !== undefined) params.logger = logger;
    this.io.notify('notifications/message', params);
  }

  /** Asks the user for input through the client (elicitation). Works in both eras; see docs/design.md. */
  elicit(params: ElicitParams, options: InputOptions = {}): Promise<ElicitResult> {
    return this.io.input({ method: 'elicitation/create', params }, options, this) as Promise<ElicitResult>;
  }

  /** Asks the client's model for a completion (sampling). Works in both eras. */
  sample(params: CreateMessageParams, options: InputOptions = {}): Promise<CreateMessageResult> {
    return this.io.input(
      { method: 'sampling/createMessage', params },
      options,
      this,
    ) as Promise<CreateMessageResult>;
  }

  /**
   * Tells the client that the out-of-band interaction of a URL-mode elicitation is complete
   * (`notifications/elicitation/complete`, 2025-11-25). May be called after the request has finished (the user
   * typically finishes in the browser later): the notification then goes on the session's standalone stream.
   * Only the client that made this request receives it. Returns false when it cannot be sent: a revision
   * without the notification, the modern era (no session; the client retries with `requestState` instead), or
   * a closed session or stream.
   */
  completeElicitation(elicitationId: string): boolean {
    return this.io.notifyClient?.('notifications/elicitation/complete', { elicitationId }) ?? false;
  }

  /** Asks the client for its roots. Works in both eras. */
  listRoots(options: InputOptions = {}): Promise<ListRootsResult> {
    return this.io.input({ method: 'roots/list' }, options, this) as Promise<ListRootsResult>;
  }

  /*
   * Per-request control (cancel, finish) is engine business, not the handler's: it lives in private members
   * reached only through the functions below, which the public entry points do not export.
   */
  static {
    control = {
      abort(ctx, reason) {
        if (ctx.aborted) return;
        ctx.aborted = true;
        ctx.abortReason = reason;
        ctx.controller?.abort(reason);
      },
      isAborted: (ctx) => ctx.aborted,
      finish(ctx) {
        ctx.finished = true;
      },
    };
  }
}

/** Engine-internal: cancels the request; the handler's signal fires and nothing more is sent for it. */
export function abortRequest(ctx: RequestContext | undefined, reason: unknown): void {
  if (ctx !== undefined) control.abort(ctx, reason);
}

/** Engine-internal: true once the request was cancelled. */
export function isRequestAborted(ctx: RequestContext | undefined): boolean {
  return ctx !== undefined && control.isAborted(ctx);
}

/** Engine-internal: the response was sent; later progress and log calls are dropped (tokens are no longer live). */
export function finishRequest(ctx: RequestContext | undefined): void {
  if (ctx !== undefined) control.finish(ctx);
}

/** The progress token of a request, if any. */
export function readProgressToken(params: JsonObject): ProgressToken | undefined {
  const meta = params._meta as JsonObject | undefined;
  const token = meta?.[MetaKey.progressToken];
  return typeof token === 'string' || (typeof token === 'number' && Number.isSafeInteger(token))
    ? token
    : undefined;
}
