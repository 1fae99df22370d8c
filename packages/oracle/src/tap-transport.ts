/**
 * Puts a WireTap on a transport, so that a test sees every message both ways without changing the code under test.
 */
import { otherSide, type Side } from './revisions.js';
import type { WireTap } from './wire-tap.js';

/** The inbound callbacks of a transport; mirrors the engine's `TransportHandlers`. */
export interface TransportHandlersLike {
  message(text: string): void;
  invalid(problem: unknown): void;
  close(error?: Error): void;
}

/** Structurally the engine's `Transport`; declared here so that this package does not depend on the engine. */
export interface TransportLike {
  start(handlers: TransportHandlersLike): void | Promise<void>;
  send(message: string): void;
  close(): Promise<void>;
}

/**
 * Returns `transport` with `send` and `start` wrapped: what `side` sends is recorded as sent by `side`, what
 * arrives as sent by the other side. Everything else (extra methods, properties) passes straight through.
 *
 * Outbound messages are recorded before they are handed on: an in-memory peer may answer synchronously, and the
 * tap must see the request before its response.
 */
export function tapTransport<T extends TransportLike>(transport: T, tap: WireTap, side: Side): T {
  const peer = otherSide(side);
  // Only `message` is intercepted; every other handler (close, end, requestFailed, …) passes through as is,
  // so optional handlers the engine adds later keep working behind the tap.
  const start = (handlers: TransportHandlersLike): void | Promise<void> =>
    transport.start({
      ...handlers,
      message(text: string) {
        tap.record(text, peer);
        handlers.message(text);
      },
    });
  const send = (message: string): void => {
    tap.record(message, side);
    transport.send(message);
  };
  return new Proxy(transport, {
    get(target, key) {
      if (key === 'start') return start;
      if (key === 'send') return send;
      const value: unknown = Reflect.get(target, key, target);
      // Bound, so that classes with private fields keep working behind the proxy.
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}
