/**
 * Test harness for the HTTP transports: handlers under test with an `HttpPeer` to each (the peer itself, the SSE
 * reader and the tap check live in `@mcpengine/oracle`, shared with the repository's conformance tests), and
 * helpers to listen locally and to wait.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { assertHttpTapsClean, HttpPeer } from '@mcpengine/oracle';
import { afterEach } from 'vitest';
import type { McpServer } from '../server/index.js';
import { createMcpHttpHandler, type McpHttpHandler } from '../transports/http/server-handler.js';
import type { McpHttpHandlerOptions } from '../transports/http/server-options.js';

export {
  assertHttpTapsClean,
  HttpPeer,
  MODERN_VERSION,
  modernMeta,
  SseReader,
  type Answer,
  type Fetcher,
  type SseEvent,
} from '@mcpengine/oracle';

/**
 * `setup(options?, server?)` for the handler tests of a file: a handler (long keep-alive, then `options`) for
 * `server`, by default a fresh `defaultServer()`, and an `HttpPeer` to it. After each test the handlers it made
 * are closed and the taps checked. Call at the top level of the test file.
 */
export function handlerSetup(defaultServer: () => McpServer) {
  const handlers: McpHttpHandler[] = [];
  afterEach(async () => {
    for (const handler of handlers.splice(0)) await handler.close({ drainTimeoutMs: 0 });
    assertHttpTapsClean();
  });
  return (options: McpHttpHandlerOptions = {}, server: McpServer = defaultServer()) => {
    const handler = createMcpHttpHandler(server, { keepAliveMs: 60_000, ...options });
    handlers.push(handler);
    return { server, handler, peer: new HttpPeer(handler) };
  };
}

/** Starts `server` on a free local port; resolves to its origin and a `close` that drops open connections too. */
export async function listenLocally(server: Server): Promise<{ origin: string; close(): Promise<void> }> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls until `check` returns true (or throws after `timeoutMs`). */
export async function eventually(check: () => boolean, timeoutMs = 3_000, what = 'condition'): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(5);
  }
}
