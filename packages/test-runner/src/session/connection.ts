/**
 * One live connection to the server under test: the transport the target asks for (a spawned stdio process,
 * Streamable HTTP or HTTP+SSE, or an in-memory pair with a server made in this process), the engine's client on
 * top, and a WireTap validating every message both ways against the official schema of the negotiated revision.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createConnection, createServer } from 'node:net';
import { pathToFileURL } from 'node:url';
import { tapTransport, WireTap } from '@mcpengine/oracle';
import { killGroup, trackGroup } from '@mcpengine/wire';
import type { Transport } from 'mcpengine';
import { HttpClientTransport, SseClientTransport, StreamableHttpClientTransport } from 'mcpengine/http';
import { createMemoryTransportPair } from 'mcpengine/memory';
import type { JsonObject, Revision, ServerTarget } from '../model.js';
import { McpSession } from './mcp-client.js';
import { ProcessTransport } from './process-transport.js';
import type { ScriptedHandlers } from './scripted-handlers.js';

/** The runner's own fetch, taken before anything (a cassette in this process) can patch the global one. */
const runnerFetch: typeof fetch = globalThis.fetch.bind(globalThis);

export const DEFAULT_STARTUP_TIMEOUT_MS = 10_000;

export interface Inbound {
  readonly method?: string;
  readonly params?: JsonObject;
}

export class ConnectionError extends Error {
  override readonly name = 'ConnectionError';
  readonly evidence: string | undefined;
  constructor(message: string, evidence?: string) {
    super(message);
    this.evidence = evidence;
  }
}

export class Connection {
  readonly session: McpSession;
  readonly tap: WireTap;
  readonly handlers: ScriptedHandlers;
  /** Every message the server sent, parsed, in order (tests slice what arrived during them). */
  readonly inbound: Inbound[];
  readonly #process: ProcessTransport | undefined;
  readonly #httpServer: HttpServerProcess | undefined;
  readonly #closeServer: (() => Promise<void>) | undefined;

  constructor(parts: {
    session: McpSession;
    tap: WireTap;
    handlers: ScriptedHandlers;
    inbound: Inbound[];
    process?: ProcessTransport;
    httpServer?: HttpServerProcess;
    closeServer?: () => Promise<void>;
  }) {
    this.session = parts.session;
    this.tap = parts.tap;
    this.handlers = parts.handlers;
    this.inbound = parts.inbound;
    this.#process = parts.process;
    this.#httpServer = parts.httpServer;
    this.#closeServer = parts.closeServer;
  }

  get revision(): Revision {
    return this.session.revision;
  }

  /** False once a stdio (or runner-started HTTP) server has died. */
  get alive(): boolean {
    if (this.#process !== undefined) return this.#process.alive && this.#process.flood === undefined;
    if (this.#httpServer !== undefined) return this.#httpServer.alive;
    return true;
  }

  /** Whether the runner can start a fresh server after this one died or hung. */
  get restartable(): boolean {
    return this.#process !== undefined || this.#httpServer !== undefined;
  }

  get deathNote(): string | undefined {
    return this.#process?.exitNote ?? this.#httpServer?.exitNote;
  }

  get stderr(): string {
    return this.#process?.stderr ?? this.#httpServer?.output ?? '';
  }

  /** The stdio process group still has a live process (used by tests of the reaping). */
  get pid(): number | undefined {
    return this.#process?.pid ?? this.#httpServer?.pid;
  }

  async close(): Promise<void> {
    await this.session.close().catch(() => {});
    await this.#process?.close();
    await this.#httpServer?.close();
    await this.#closeServer?.();
  }
}

/** Follows inbound messages without touching them. */
function observe(transport: Transport, inbound: Inbound[]): Transport {
  const start = transport.start.bind(transport);
  return Object.assign(Object.create(transport) as Transport, {
    start: (handlers: Parameters<Transport['start']>[0]) =>
      start({
        ...handlers,
        message(text: string) {
          try {
            const parsed = JSON.parse(text) as JsonObject;
            if (typeof parsed === 'object' && parsed !== null && typeof parsed['method'] === 'string')
              inbound.push({
                method: parsed['method'],
                params: (parsed['params'] as JsonObject | undefined) ?? {},
              });
          } catch {
            // Not JSON: the tap reports it.
          }
          handlers.message(text);
        },
      }),
    send: (text: string) => transport.send(text),
    close: () => transport.close(),
  });
}

export interface OpenOptions {
  readonly revision: Revision | 'auto';
  readonly handlers: ScriptedHandlers;
  readonly timeoutMs: number;
}

export async function openConnection(target: ServerTarget, options: OpenOptions): Promise<Connection> {
  const startup = target.startupTimeoutMs ?? DEFAULT_STARTUP_TIMEOUT_MS;
  const tap = new WireTap(options.revision === 'auto' ? {} : { revision: options.revision });
  const inbound: Inbound[] = [];
  let process: ProcessTransport | undefined;
  let httpServer: HttpServerProcess | undefined;
  let closeServer: (() => Promise<void>) | undefined;
  let transport: Transport;
  const env = { ...(target.env ?? {}) };

  if (target.kind === 'stdio') {
    process = new ProcessTransport({
      command: target.command!,
      args: target.args ?? [],
      env,
      ...(target.cwd ? { cwd: target.cwd } : {}),
    });
    transport = process as unknown as Transport;
  } else if (target.kind === 'http') {
    let url = target.url!;
    let args = target.args ?? [];
    if (url.includes('{port}') || args.some((arg) => arg.includes('{port}'))) {
      const port = String(await freePort());
      url = url.replaceAll('{port}', port);
      args = args.map((arg) => arg.replaceAll('{port}', port));
    }
    if (target.command !== undefined) {
      httpServer = await HttpServerProcess.start({
        command: target.command,
        args,
        env,
        ...(target.cwd ? { cwd: target.cwd } : {}),
      });
      await httpServer.waitForPort(new URL(url), startup);
    }
    const http = {
      fetch: runnerFetch,
      ...(target.headers === undefined ? {} : { headers: { ...target.headers } }),
    };
    transport =
      target.transport === 'sse'
        ? new SseClientTransport(url, http)
        : target.transport === 'streamable-http'
          ? new StreamableHttpClientTransport(url, http)
          : new HttpClientTransport(url, http);
  } else {
    const server = await makeMemoryServer(target);
    const [clientSide, serverSide] = createMemoryTransportPair();
    await server.connect(serverSide);
    transport = clientSide;
    closeServer = () => server.close();
  }

  const tapped = tapTransport(observe(transport, inbound), tap, 'client');
  let session: McpSession;
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    session = await Promise.race([
      McpSession.connect(tapped, {
        handlers: options.handlers.handlers(),
        revision: options.revision,
        timeoutMs: startup,
      }),
      new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new Error(`no answer to the handshake within ${startup} ms`)),
          startup + 1_000,
        );
      }),
    ]);
  } catch (error) {
    const note = process?.exitNote ?? httpServer?.exitNote;
    const stderr = process?.stderr ?? httpServer?.output ?? '';
    await tapped.close().catch(() => {});
    await process?.close();
    await httpServer?.close();
    await closeServer?.();
    const message = (error as Error).message;
    throw new ConnectionError(
      `cannot connect to the server: ${message}${note !== undefined && !message.includes(note) ? ` (${note})` : ''}`,
      stderr.trim() === '' ? undefined : stderr,
    );
  } finally {
    clearTimeout(timer);
  }
  return new Connection({
    session,
    tap,
    handlers: options.handlers,
    inbound,
    ...(process === undefined ? {} : { process }),
    ...(httpServer === undefined ? {} : { httpServer }),
    ...(closeServer === undefined ? {} : { closeServer }),
  });
}

interface MemoryServer {
  connect(transport: Transport): Promise<unknown>;
  close(): Promise<void>;
}

async function makeMemoryServer(target: ServerTarget): Promise<MemoryServer> {
  let made: unknown;
  if (target.factory !== undefined) made = await target.factory();
  else {
    const module = (await import(pathToFileURL(target.module!).href)) as Record<string, unknown>;
    const name =
      target.export ?? ['createServer', 'default', 'server'].find((key) => module[key] !== undefined);
    const exported = name === undefined ? undefined : module[name];
    if (exported === undefined)
      throw new ConnectionError(
        `${target.module} exports no ${target.export ?? 'createServer, default or server'}`,
      );
    made = typeof exported === 'function' ? await (exported as () => unknown)() : exported;
  }
  const server = made as Partial<MemoryServer> | undefined;
  if (typeof server?.connect !== 'function' || typeof server.close !== 'function')
    throw new ConnectionError('the in-memory server factory did not return an McpServer');
  return server as MemoryServer;
}

async function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolvePort(typeof address === 'object' && address !== null ? address.port : 0));
    });
  });
}

/** A process the runner starts to serve HTTP: reaped with its group, its output kept as evidence. */
class HttpServerProcess {
  #output = '';
  #exit: string | undefined;
  readonly #child: ChildProcess;

  private constructor(child: ChildProcess) {
    this.#child = child;
    const keep = (chunk: Buffer) => {
      this.#output = (this.#output + chunk.toString('utf8')).slice(-16_384);
    };
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    child.once('exit', (code, signal) => {
      this.#exit =
        signal === null ? `the server exited with code ${code}` : `the server was killed by ${signal}`;
    });
  }

  static start(launch: {
    command: string;
    args: readonly string[];
    env: Record<string, string>;
    cwd?: string;
  }): Promise<HttpServerProcess> {
    return new Promise((resolveStart, reject) => {
      const child = spawn(launch.command, [...launch.args], {
        cwd: launch.cwd,
        env: { ...process.env, ...launch.env },
        stdio: ['ignore', 'pipe', 'pipe'],
        detached: process.platform !== 'win32',
      });
      child.once('error', (error) =>
        reject(new ConnectionError(`cannot start ${launch.command}: ${error.message}`)),
      );
      child.once('spawn', () => {
        if (child.pid !== undefined) trackGroup(child.pid);
        resolveStart(new HttpServerProcess(child));
      });
    });
  }

  get pid(): number | undefined {
    return this.#child.pid;
  }

  get alive(): boolean {
    return this.#exit === undefined;
  }

  get exitNote(): string | undefined {
    return this.#exit;
  }

  get output(): string {
    return this.#output;
  }

  /** Resolves once the URL's port accepts connections. */
  async waitForPort(url: URL, timeoutMs: number): Promise<void> {
    const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (this.#exit !== undefined)
        throw new ConnectionError(`the HTTP server never listened: ${this.#exit}`, this.#output);
      const open = await new Promise<boolean>((done) => {
        const socket = createConnection({ host: url.hostname.replace(/^\[|\]$/g, ''), port });
        socket.once('connect', () => {
          socket.destroy();
          done(true);
        });
        socket.once('error', () => done(false));
      });
      if (open) return;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new ConnectionError(
      `the HTTP server did not listen on ${url.host} within ${timeoutMs} ms`,
      this.#output,
    );
  }

  async close(): Promise<void> {
    const pid = this.#child.pid;
    if (pid !== undefined) {
      try {
        process.kill(-pid, 'SIGTERM');
      } catch {
        // gone
      }
      await new Promise((r) => setTimeout(r, this.#exit === undefined ? 200 : 0));
      killGroup(pid);
    }
    this.#child.stdout?.destroy();
    this.#child.stderr?.destroy();
  }
}
