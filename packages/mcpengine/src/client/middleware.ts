/**
 * Client middleware: composition and a helper for `_meta` (trace context).
 *
 * The chain is composed once, when the middleware list changes; a client without middleware has no chain at
 * all, and its sessions call straight through.
 */
import type { JsonObject } from '../protocol/types.js';
import type { ClientCall, ClientMiddleware } from './types.js';

/** Runs `call` through the middleware, ending in `terminal` (the session's own work). */
export type ComposedClientMiddleware = (
  call: ClientCall,
  terminal: (call: ClientCall) => Promise<JsonObject | undefined>,
) => Promise<JsonObject | undefined>;

/** Composes middleware, outermost first. Undefined for an empty list, so callers can skip the chain. */
export function composeClientMiddleware(
  middleware: readonly ClientMiddleware[],
): ComposedClientMiddleware | undefined {
  if (middleware.length === 0) return undefined;
  const list = [...middleware];
  return (call, terminal) => {
    const step = (index: number, current: ClientCall): Promise<JsonObject | undefined> => {
      if (index === list.length) return terminal(current);
      let called = false;
      return list[index]!(current, (changed) => {
        // Calling next twice would send a request twice: refuse it loudly instead.
        if (called) return Promise.reject(new Error('client middleware called next() twice'));
        called = true;
        return step(index + 1, changed ?? current);
      });
    };
    return step(0, call);
  };
}

/**
 * The call with `entries` merged into `params._meta`. For OpenTelemetry trace context (2026-07-28 reserves
 * `traceparent`, `tracestate` and `baggage` in `_meta`):
 * `client.use((call, next) => next(withMeta(call, { traceparent })))`.
 */
export function withMeta(call: ClientCall, entries: JsonObject): ClientCall {
  const meta = call.params._meta;
  const merged =
    typeof meta === 'object' && meta !== null && !Array.isArray(meta) ? { ...meta, ...entries } : entries;
  return { ...call, params: { ...call.params, _meta: merged } };
}
