import { spawn, type ChildProcess } from 'node:child_process';
import type { Transport, TransportHandlers } from '../transport.js';
import { childEnvironment } from './environment.js';
import { LineDecoder } from './line-decoder.js';
import { assertOneLine, LineWriter } from './line-writer.js';

export interface StdioClientTransportOptions {
  /** The server executable. Run directly, never through a shell, so arguments need no quoting. */
  command: string;
  args?: readonly string[];
  /** Variables for the server, applied over the inherited ones. */
  env?: Readonly<Record<string, string>>;
  /**
   * Which of this process's variables the server inherits: `true` all, `false` none, or a list of names.
   * Default: a minimal safe set (DEFAULT_INHERITED_ENV_VARS: PATH, HOME, USER, LANG, TMPDIR, SystemRoot...).
   */
  inheritEnv?: boolean | readonly string[];
  cwd?: string;
  /** What to do with the server's stderr. Default: 'pipe' when `onStderr` is given, else 'inherit'. */
  stderr?: 'inherit' | 'pipe' | 'ignore';
  /** Receives the server's stderr, decoded as UTF-8 (stderr is logging, never an error signal by itself). */
  onStderr?: (chunk: string) => void;
  /** Largest inbound message in bytes; longer lines are reported as `too-large`. Default 4 MiB. */
  maxMessageBytes?: number;
  /** How long each shutdown step (stdin closed, then SIGTERM) waits for the server to exit. Default 2000. */
  shutdownTimeoutMs?: number;
}

export interface ProcessExitStatus {
  /** The exit code, or null when the process was ended by a signal. */
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

/** The server process exited without being asked to (passed to `handlers.close`). */
export class StdioProcessExitError extends Error {
  readonly exitCode: number | null;
  readonly signal: NodeJS.Signals | null;

  constructor(status: ProcessExitStatus) {
    super(
      status.signal === null
        ? `MCP server process exited unexpectedly with code ${status.code}`
        : `MCP server process was killed by ${status.signal}`,
    );
    this.name = 'StdioProcessExitError';
    this.exitCode = status.code;
    this.signal = status.signal;
  }
}

const DEFAULT_SHUTDOWN_TIMEOUT_MS = 2000;
/**
 * After the process exits, how long to wait for its stdout to reach end-of-file so that messages written just
 * before exiting are delivered first. Bounded because a grandchild may hold the pipe open.
 */
const EXIT_DRAIN_MS = 100;

type State = 'idle' | 'starting' | 'open' | 'closed';

/**
 * The client side of the stdio transport: launches the server as a subprocess and exchanges one JSON-RPC
 * message per line over its stdin and stdout.
 *
 * `close()` follows the spec's shutdown sequence: close the server's stdin, wait for it to exit, then
 * SIGTERM, then SIGKILL (each step waiting `shutdownTimeoutMs`). An exit the client did not ask for closes the
 * transport with a StdioProcessExitError; restarting is the caller's decision.
 */
export class StdioClientTransport implements Transport {
  readonly #options: StdioClientTransportOptions;
  #state: State = 'idle';
  #child: ChildProcess | undefined;
  #handlers: TransportHandlers | undefined;
  #writer: LineWriter | undefined;
  #exitStatus: ProcessExitStatus | undefined;
  #exited: Promise<void> = Promise.resolve();
  /** Settles #exited when the process never ran (spawn failed), so close() does not wait for an exit. */
  #neverRan: () => void = () => {};
  /** Resolves when the server's stdout reaches end-of-file (everything it wrote has been delivered). */
  #stdoutDrained: Promise<void> = Promise.resolve();
  #shutdown: Promise<void> = Promise.resolve();
  #pendingFailure: ReturnType<typeof setTimeout> | undefined;

  constructor(options: StdioClientTransportOptions) {
    this.#options = options;
  }

  /** The server's process id, once spawned. */
  get pid(): number | undefined {
    return this.#child?.pid;
  }

  /** How the server process ended, once it has. */
  get exitStatus(): ProcessExitStatus | undefined {
    return this.#exitStatus;
  }

  /** Spawns the server. Rejects (without calling `handlers.close`) when it cannot be started, e.g. ENOENT. */
  start(handlers: TransportHandlers): Promise<void> {
    if (this.#state !== 'idle') {
      return Promise.reject(
        new Error('StdioClientTransport can be started only once, and not after close()'),
      );
    }
    this.#state = 'starting';
    this.#handlers = handlers;
    const options = this.#options;
    const onStderr = options.onStderr;
    const stderr = options.stderr ?? (onStderr === undefined ? 'inherit' : 'pipe');

    let child: ChildProcess;
    try {
      child = spawn(options.command, options.args ?? [], {
        cwd: options.cwd,
        env: childEnvironment(options.inheritEnv, options.env),
        stdio: ['pipe', 'pipe', stderr],
        shell: false,
        windowsHide: true,
      });
    } catch (error) {
      // spawn throws synchronously for invalid arguments (a NUL byte in an argument, for example).
      this.#state = 'closed';
      return Promise.reject(this.#startError(error));
    }
    this.#child = child;
    const { stdin, stdout } = child;
    if (stdin === null || stdout === null) throw new Error('unreachable: stdio pipes were requested');

    this.#exited = new Promise((resolve) => {
      this.#neverRan = resolve;
      child.once('exit', (code, signal) => {
        this.#exitStatus = { code, signal };
        resolve();
        this.#onExit();
      });
    });
    this.#writer = new LineWriter(stdin, (error) => this.#onStdinError(error));
    const decoder = new LineDecoder(
      {
        line: (text) => {
          if (this.#state !== 'closed') handlers.message(text);
        },
        invalid: (problem) => {
          if (this.#state !== 'closed') handlers.invalid(problem);
        },
      },
      { maxMessageBytes: options.maxMessageBytes },
    );
    stdout.on('data', (chunk: Buffer) => decoder.write(chunk));
    this.#stdoutDrained = new Promise((resolve) => {
      stdout.once('end', () => {
        decoder.end();
        resolve();
      });
    });
    stdout.on('error', () => {}); // Reported through the process exit instead.
    if (child.stderr !== null) {
      child.stderr.setEncoding('utf8');
      // Always consumed: an unread pipe fills up and blocks the server.
      child.stderr.on('data', onStderr ?? (() => {}));
      child.stderr.on('error', () => {});
    }

    return new Promise((resolve, reject) => {
      const onSpawn = (): void => {
        child.off('error', onError);
        child.on('error', (error) => this.#terminate(error));
        if (this.#state === 'starting') this.#state = 'open';
        resolve();
      };
      const onError = (error: Error): void => {
        child.off('spawn', onSpawn);
        this.#state = 'closed';
        this.#neverRan();
        reject(this.#startError(error));
      };
      child.once('spawn', onSpawn);
      child.once('error', onError);
    });
  }

  send(message: string): void {
    if (this.#state === 'idle') throw new Error('StdioClientTransport has not been started');
    if (this.#state === 'closed' || this.#writer === undefined) {
      throw new Error('StdioClientTransport is closed');
    }
    assertOneLine(message);
    this.#writer.write(message);
  }

  /**
   * Shuts the server down (stdin closed, then SIGTERM, then SIGKILL) and resolves once it has exited, or
   * gives up after a third timeout if even SIGKILL has no visible effect (a process stuck in the kernel).
   */
  close(): Promise<void> {
    this.#terminate(undefined);
    return this.#shutdown;
  }

  #startError(cause: unknown): Error {
    const reason = cause instanceof Error ? cause.message : String(cause);
    const hint =
      (cause as NodeJS.ErrnoException | undefined)?.code === 'ENOENT' ? ' (command not found)' : '';
    return new Error(`Cannot start MCP server ${JSON.stringify(this.#options.command)}: ${reason}${hint}`, {
      cause,
    });
  }

  #onExit(): void {
    if (this.#state !== 'open' && this.#state !== 'starting') return;
    const error = new StdioProcessExitError(this.#exitStatus!);
    const timer = setTimeout(() => this.#terminate(error), EXIT_DRAIN_MS);
    void this.#stdoutDrained.then(() => {
      clearTimeout(timer);
      this.#terminate(error);
    });
  }

  #onStdinError(error: Error): void {
    // EPIPE usually means the server died; give its exit status the chance to be the reported cause.
    if (this.#state === 'closed' || this.#pendingFailure !== undefined) return;
    this.#pendingFailure = setTimeout(() => this.#terminate(error), EXIT_DRAIN_MS);
  }

  #terminate(error: Error | undefined): void {
    if (this.#state === 'closed') return;
    this.#state = 'closed';
    if (this.#pendingFailure !== undefined) clearTimeout(this.#pendingFailure);
    this.#shutdown = this.#stopProcess();
    this.#handlers?.close(error);
  }

  async #stopProcess(): Promise<void> {
    const child = this.#child;
    if (child === undefined) return;
    const timeout = this.#options.shutdownTimeoutMs ?? DEFAULT_SHUTDOWN_TIMEOUT_MS;
    // Step 1 of the spec's shutdown: close the server's input (after flushing what is queued).
    void this.#writer?.end();
    if (!(await this.#waitForExit(timeout))) {
      child.kill('SIGTERM');
      if (!(await this.#waitForExit(timeout))) {
        child.kill('SIGKILL');
        await this.#waitForExit(timeout);
      }
    }
    // Release the pipes even if a grandchild still holds their other ends.
    child.stdin?.destroy();
    child.stdout?.destroy();
    child.stderr?.destroy();
  }

  /** Whether the process exited within `ms`. */
  async #waitForExit(ms: number): Promise<boolean> {
    if (this.#exitStatus !== undefined) return true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timedOut = new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), ms);
    });
    const exited = await Promise.race([this.#exited.then(() => true as const), timedOut]);
    clearTimeout(timer);
    return exited;
  }
}
