/**
 * The one place the installer talks MCP: connects the engine's client over the transport the launch names,
 * lets it negotiate the era (modern `server/discover`, else legacy `initialize`), and lists the tools. Kept
 * small so that client API changes touch only this file.
 */
import { Client } from 'mcpengine/client';
import {
  HttpClientTransport,
  SseClientTransport,
  StreamableHttpClientTransport,
  type HttpClientLogger,
} from 'mcpengine/http';
import { LEGACY_REVISIONS } from 'mcpengine/protocol';
import { StdioClientTransport } from 'mcpengine/stdio';
import type { Launch } from './launch.js';

export interface Handshake {
  readonly serverName: string;
  readonly serverVersion: string;
  readonly revision: string;
  readonly era: string;
  readonly toolCount: number;
}

export interface HandshakeOptions {
  readonly timeoutMs: number;
  readonly signal?: AbortSignal;
  /** The server's stderr (stdio), for the failure report. */
  readonly onStderr?: (chunk: string) => void;
  /** Transport warnings (HTTP), for the failure report. */
  readonly onWarning?: (message: string) => void;
  /** Wraps the transport before use (tests put a wire tap on it). */
  readonly wrapTransport?: <T extends object>(transport: T) => T;
  readonly clientVersion: string;
}

export async function handshake(launch: Launch, options: HandshakeOptions): Promise<Handshake> {
  const logger: HttpClientLogger = { warn: (message) => options.onWarning?.(message) };
  const base =
    launch.kind === 'stdio'
      ? new StdioClientTransport({
          command: launch.command,
          args: launch.args,
          env: launch.env,
          // The launch carries the whole environment, as the client would build it.
          inheritEnv: false,
          cwd: launch.cwd,
          stderr: 'pipe',
          onStderr: (chunk) => options.onStderr?.(chunk),
        })
      : launch.kind === 'sse'
        ? new SseClientTransport(launch.url, {
            headers: launch.headers,
            logger,
            timeoutMs: options.timeoutMs,
          })
        : launch.sseFallback
          ? new HttpClientTransport(launch.url, {
              headers: launch.headers,
              logger,
              timeoutMs: options.timeoutMs,
            })
          : new StreamableHttpClientTransport(launch.url, {
              headers: launch.headers,
              logger,
              timeoutMs: options.timeoutMs,
            });
  const transport = options.wrapTransport ? options.wrapTransport(base) : base;
  const client = new Client({
    name: 'mcpengine-add',
    version: options.clientVersion,
    requestTimeoutMs: options.timeoutMs,
  });
  // Closing the transport ends the session too, or fails a handshake still under way.
  const abort = () => void transport.close();
  options.signal?.addEventListener('abort', abort, { once: true });
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`no complete handshake within ${Math.round(options.timeoutMs / 1000)} s`)),
      options.timeoutMs,
    );
  });
  try {
    return await Promise.race([
      (async () => {
        // HTTP+SSE belongs to the legacy era: a client using it negotiates with initialize.
        const session = await client.connect(
          transport,
          launch.kind === 'sse' ? { revisions: LEGACY_REVISIONS } : {},
        );
        const tools = await session.listAllTools();
        return {
          serverName: session.serverInfo?.name ?? '(unnamed)',
          serverVersion: session.serverInfo?.version ?? '',
          revision: session.revision,
          era: session.era,
          toolCount: tools.length,
        };
      })(),
      deadline,
    ]);
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', abort);
    await transport.close().catch(() => undefined);
  }
}
