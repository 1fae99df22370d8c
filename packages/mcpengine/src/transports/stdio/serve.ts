/**
 * `serveStdio`: run an McpServer as a stdio process, the way MCP clients launch servers.
 *
 * stdout carries protocol messages only. When stdin ends (the client's shutdown signal) or SIGTERM/SIGINT
 * arrives, requests already received are given a short grace period to answer, subscriptions are ended
 * gracefully, and the process exits.
 */
import type { Readable, Writable } from 'node:stream';
import type { AuthInfo, McpServer, ServerConnection } from '../../server/index.js';
import { StdioServerTransport } from './server-transport.js';

export interface ServeStdioOptions {
  input?: Readable;
  output?: Writable;
  /** Largest inbound message in bytes. Default 4 MiB. */
  maxMessageBytes?: number;
  /** Identity for every request (stdio servers take credentials from their environment). */
  auth?: AuthInfo;
  /** Exit the process when the connection ends. Default true when serving process.stdin. */
  exitOnClose?: boolean;
  /** Handle SIGTERM and SIGINT with a graceful shutdown. Default true when serving process.stdin. */
  handleSignals?: boolean;
  /** How long shutdown waits for in-flight requests. Default 2 s. */
  drainTimeoutMs?: number;
}

export async function serveStdio(
  server: McpServer,
  options: ServeStdioOptions = {},
): Promise<ServerConnection> {
  const ownsProcess = options.input === undefined;
  const transportOptions: ConstructorParameters<typeof StdioServerTransport>[0] = {};
  if (options.input) transportOptions.input = options.input;
  if (options.output) transportOptions.output = options.output;
  if (options.maxMessageBytes !== undefined) transportOptions.maxMessageBytes = options.maxMessageBytes;
  const transport = new StdioServerTransport(transportOptions);
  const drainTimeoutMs = options.drainTimeoutMs ?? 2_000;

  let stopping = false;
  const stop = async (exitCode: number) => {
    if (stopping) return;
    stopping = true;
    // A hard deadline: a handler that never settles must not keep the process alive.
    const deadline = setTimeout(() => process.exit(exitCode), drainTimeoutMs + 1_000);
    deadline.unref();
    await server.close({ drainTimeoutMs });
    if (options.exitOnClose ?? ownsProcess) process.exit(exitCode);
  };
  // Installed before connecting, so that a signal arriving during start-up also shuts down gracefully.
  if (options.handleSignals ?? ownsProcess) {
    process.once('SIGTERM', () => void stop(0));
    process.once('SIGINT', () => void stop(0));
  }

  const connection = await server.connect(transport, options.auth ? { auth: options.auth } : {});
  // stdin ended: the connection answers what it already received, then closes.
  void connection.closed.then(() => stop(0));
  return connection;
}
