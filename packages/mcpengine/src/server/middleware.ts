/**
 * Server middleware: `server.use((call, next) => …)` runs around every request and notification the server
 * receives, in both eras and over every transport. A middleware may observe a call, wrap it (time it, trace it,
 * record it), change its params (`next({ ...call, params })`), short-circuit it (return a result without calling
 * `next`, or throw a `ProtocolError`), and sees the outcome (what `next` resolves to, or the error it rejects
 * with). The client's middleware has the same shape: `(call, next)`, where `next()` continues with the call as
 * it is and `next(changed)` with a changed one.
 *
 * The chain is composed once per resolved method (the method tables cache the composed handler), so a server
 * without middleware serves every request exactly as before: no wrapper, no promise.
 */
import { ProtocolError } from '../protocol/errors.js';
import type { Era, Revision } from '../protocol/revisions.js';
import type { JsonObject } from '../protocol/types.js';
import type { RequestContext } from './context.js';
import { RawResult } from './lists.js';
import type { Call, MethodHandler, Outcome } from './dispatch.js';

/** W3C trace context carried in `params._meta` (2026-07-28 reserves these keys for OpenTelemetry). */
export interface TraceContext {
  readonly traceparent?: string;
  readonly tracestate?: string;
  readonly baggage?: string;
}

interface CallBase {
  /** The JSON-RPC method. */
  readonly method: string;
  /** The params as received (including `_meta`). Treat as read-only. */
  readonly params: JsonObject;
  readonly revision: Revision;
  readonly era: Era;
  /** OpenTelemetry trace context from `params._meta`, when the sender propagated one. */
  readonly trace: TraceContext | undefined;
}

/** A request on its way to its handler. */
export interface RequestCall extends CallBase {
  readonly kind: 'request';
  /** The request's context: principal (`ctx.auth`), session (`ctx.sessionId`), `ctx.signal`, client. */
  readonly ctx: RequestContext;
}

/** A notification on its way to the server's built-in handling. */
export interface NotificationCall extends CallBase {
  readonly kind: 'notification';
}

export type ServerCall = RequestCall | NotificationCall;

/**
 * What a request produced: its result object, or `null` when nothing is answered (a cancelled request, a
 * subscription ended by the client). Notifications always produce `null`.
 */
export type CallResult = JsonObject | null;

/**
 * Calls the rest of the chain (the next middleware, finally the method's handler). Call it at most once.
 * `next()` continues with the call unchanged; `next(changed)` continues with `changed.params` (only `params`
 * may change: a call of another kind or method is refused). For a request the handler then sees those params;
 * `ctx.params` stays what the client sent.
 */
export type Next = (call?: ServerCall) => Promise<CallResult>;

export type Middleware = (call: ServerCall, next: Next) => CallResult | Promise<CallResult>;

/** Reads the trace context of a message's `params._meta`; undefined when it carries none. */
export function readTraceContext(params: JsonObject): TraceContext | undefined {
  const meta = params._meta;
  if (typeof meta !== 'object' || meta === null || Array.isArray(meta)) return undefined;
  const { traceparent, tracestate, baggage } = meta as JsonObject;
  if (traceparent === undefined && tracestate === undefined && baggage === undefined) return undefined;
  const trace: { traceparent?: string; tracestate?: string; baggage?: string } = {};
  if (typeof traceparent === 'string') trace.traceparent = traceparent;
  if (typeof tracestate === 'string') trace.tracestate = tracestate;
  if (typeof baggage === 'string') trace.baggage = baggage;
  return trace;
}

/** Middleware sees plain result objects: a pre-serialized list page is parsed for it. */
function visibleResult(outcome: Outcome): CallResult {
  return outcome instanceof RawResult ? (JSON.parse(outcome.json) as JsonObject) : outcome;
}

function checkedResult(value: unknown, method: string): CallResult {
  if (value === null) return null;
  if (typeof value === 'object' && !Array.isArray(value)) return value as JsonObject;
  throw ProtocolError.internal(`middleware returned a non-object result for ${method}`);
}

/** The call a middleware passed to `next`, checked: the same kind and method, params an object. */
function changedCall(current: ServerCall, changed: ServerCall): ServerCall {
  if (typeof changed !== 'object' || changed === null)
    throw new TypeError(`a middleware of ${current.method} passed a non-object to next()`);
  if (changed.kind !== current.kind || changed.method !== current.method)
    throw new TypeError(`a middleware of ${current.method} may change only params, not the kind or method`);
  const params: unknown = changed.params;
  if (typeof params !== 'object' || params === null || Array.isArray(params))
    throw new TypeError(`a middleware of ${current.method} passed params that are not an object`);
  return changed;
}

/**
 * Runs `stack` around `inner` for one call; `inner` gets the call as the last middleware passed it on. `next`
 * refuses a second call, which would run the handler twice.
 */
function run<View extends ServerCall>(
  stack: readonly Middleware[],
  view: View,
  inner: (view: View) => CallResult | Promise<CallResult>,
): Promise<CallResult> {
  const step = (index: number, current: View): Promise<CallResult> => {
    if (index === stack.length) return Promise.resolve(current).then(inner);
    const middleware = stack[index]!;
    let called = false;
    const next: Next = (changed) => {
      if (called) return Promise.reject(new Error(`next() called twice by a middleware of ${view.method}`));
      called = true;
      try {
        return step(index + 1, changed === undefined ? current : (changedCall(current, changed) as View));
      } catch (error) {
        return Promise.reject(error);
      }
    };
    return Promise.resolve()
      .then(() => middleware(current, next))
      .then((value) => checkedResult(value, view.method));
  };
  return step(0, view);
}

/** A request handler wrapped in `stack`. Compose once per resolved method and cache the result. */
export function composeRequestMiddleware(
  stack: readonly Middleware[],
  handler: MethodHandler,
): MethodHandler {
  if (stack.length === 0) return handler;
  const frozen = [...stack];
  return (call: Call) => {
    const view: RequestCall = {
      kind: 'request',
      method: call.method,
      params: call.params,
      revision: call.revision.id,
      era: call.revision.era,
      trace: readTraceContext(call.params),
      ctx: call.ctx,
    };
    return run(frozen, view, (last) =>
      Promise.resolve(handler(last.params === call.params ? call : { ...call, params: last.params })).then(
        visibleResult,
      ),
    );
  };
}

/**
 * Runs a received notification's built-in handling inside `stack`, with the params the last middleware passed
 * on. Errors are reported, never answered (a notification has no response).
 */
export function runNotificationMiddleware(
  stack: readonly Middleware[],
  notification: { method: string; params: JsonObject; revision: Revision; era: Era },
  handle: (params: JsonObject) => void,
  report: (error: unknown, where: string) => void,
): void {
  if (stack.length === 0) {
    handle(notification.params);
    return;
  }
  const view: NotificationCall = {
    kind: 'notification',
    method: notification.method,
    params: notification.params,
    revision: notification.revision,
    era: notification.era,
    trace: readTraceContext(notification.params),
  };
  run(stack, view, (last) => {
    handle(last.params);
    return null;
  }).then(undefined, (error: unknown) => {
    // A middleware that refuses a notification with a protocol error has decided; anything else is a bug.
    if (!(error instanceof ProtocolError)) report(error, notification.method);
  });
}
