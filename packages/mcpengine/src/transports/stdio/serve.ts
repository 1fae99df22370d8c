/**
 * `serveStdio`: run an McpServer as a stdio process, the way MCP clients launch servers.
 *
 * stdout carries protocol messages only. When stdin ends (the client's shutdown signal) or the handle is
 * closed, requests already received get a short grace period to answer, subscriptions end gracefully, and the
 * server closes. Exiting the process is bin code's decision: `exitWhenClosed(await serveStdio(server))`.
 */
import type { Readable, Writable } from 'node:stream';
import type { AuthInfo, McpServer, ServerConnection } from '../../server/index.js';
import { closedSignal } from '../../internal/server.js';
import type { Serving } from '../../server/serving.js';
import { StdioServerTransport } from './server-transport.js';

export interface ServeStdioOptions {
  input?: Readable;
  output?: Writable;
  /** Largest inbound message in bytes. Default 4 MiB. */
  maxMessageBytes?: number;
  /** Identity for every request (stdio servers take credentials from their environment). */
  auth?: AuthInfo;
  /** How long closing waits for in-flight requests when stdin ends. Default 2 s. */
  drainTimeoutMs?: number;
}

export interface StdioServing extends Serving {
  /** The one connection over stdin/stdout. */
  readonly connection: ServerConnection;
}

export async function serveStdio(server: McpServer, options: ServeStdioOptions = {}): Promise<StdioServing> {
  const transportOptions: ConstructorParameters<typeof StdioServerTransport>[0] = {};
  if (options.input) transportOptions.input = options.input;
  if (options.output) transportOptions.output = options.output;
  if (options.maxMessageBytes !== undefined) transportOptions.maxMessageBytes = options.maxMessageBytes;
  const transport = new StdioServerTransport(transportOptions);
  const { closed, settle } = closedSignal();

  let closing: Promise<void> | undefined;
  const close = (closeOptions: { drainTimeoutMs?: number } = {}): Promise<void> =>
    (closing ??= server
      .close({ drainTimeoutMs: closeOptions.drainTimeoutMs ?? options.drainTimeoutMs ?? 2_000 })
      .then(settle, (error: unknown) => {
        settle();
        throw error;
      }));

  const connection = await server.connect(transport, options.auth ? { auth: options.auth } : {});
  // stdin ended: the connection answers what it already received, then the server closes.
  void connection.closed.then(() => close().catch(() => undefined));
  return { connection, closed, close };
}
