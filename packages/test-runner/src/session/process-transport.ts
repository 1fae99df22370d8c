/**
 * The stdio transport the runner gives the engine's client: it spawns the server as the leader of its own process
 * group (so `npx`, shells and grandchildren die with it: `@mcpengine/wire` reaping), keeps the end of its stderr as
 * evidence, and stops a server that floods stdout — too many bytes, a line too long, or a run of lines that are not
 * JSON-RPC — so a misbehaving server gives a failing test, never a hung or swamped runner.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { groupAlive, killGroup, trackGroup } from '@mcpengine/wire';
import { LineDecoder } from 'mcpengine/stdio';

export interface TransportHandlersLike {
  message(text: string): void;
  invalid(problem: unknown): void;
  close(error?: Error): void;
}

export interface ProcessLimits {
  /** Total stdout bytes over the process's life. */
  readonly maxStdoutBytes: number;
  /** One message. */
  readonly maxLineBytes: number;
  /** Consecutive stdout lines that are not JSON objects before the server counts as flooding. */
  readonly maxGarbageLines: number;
  /** Stderr kept (the end of it). */
  readonly stderrChars: number;
}

export const DEFAULT_PROCESS_LIMITS: ProcessLimits = {
  maxStdoutBytes: 512 * 1024 * 1024,
  maxLineBytes: 16 * 1024 * 1024,
  maxGarbageLines: 200,
  stderrChars: 16 * 1024,
};

export interface ProcessLaunch {
  readonly command: string;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  readonly cwd?: string;
}

export class ProcessTransport {
  readonly launch: ProcessLaunch;
  readonly #limits: ProcessLimits;
  #child: ChildProcess | undefined;
  #handlers: TransportHandlersLike | undefined;
  #stderr = '';
  #stdoutBytes = 0;
  #garbage = 0;
  #closed = false;
  #exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  #exited: Promise<void> = Promise.resolve();
  /** Why the runner stopped the server (flood), when it did. */
  flood: string | undefined;

  constructor(launch: ProcessLaunch, limits: ProcessLimits = DEFAULT_PROCESS_LIMITS) {
    this.launch = launch;
    this.#limits = limits;
  }

  get pid(): number | undefined {
    return this.#child?.pid;
  }

  get stderr(): string {
    return this.#stderr;
  }

  /** How the process ended, in words; undefined while it runs. */
  get exitNote(): string | undefined {
    if (this.flood !== undefined) return `stopped by the runner: the server ${this.flood}`;
    if (this.#exit === undefined) return undefined;
    return this.#exit.signal === null
      ? `the server exited with code ${this.#exit.code}`
      : `the server was killed by ${this.#exit.signal}`;
  }

  get alive(): boolean {
    return this.#exit === undefined && this.#child !== undefined;
  }

  start(handlers: TransportHandlersLike): Promise<void> {
    this.#handlers = handlers;
    if (this.launch.cwd !== undefined && !existsSync(this.launch.cwd))
      return Promise.reject(
        new Error(
          `cannot start ${this.launch.command}: the working directory ${this.launch.cwd} does not exist`,
        ),
      );
    return new Promise((resolveStart, reject) => {
      let child: ChildProcess;
      try {
        child = spawn(this.launch.command, [...this.launch.args], {
          cwd: this.launch.cwd,
          env: { ...process.env, ...this.launch.env },
          stdio: ['pipe', 'pipe', 'pipe'],
          detached: process.platform !== 'win32',
          windowsHide: true,
        });
      } catch (error) {
        reject(new Error(`cannot start ${this.launch.command}: ${(error as Error).message}`));
        return;
      }
      this.#child = child;
      this.#exited = new Promise((done) =>
        child.once('exit', (code, signal) => {
          this.#exit = { code, signal };
          done();
          // Let the last lines arrive before telling the client the connection is gone.
          setTimeout(() => this.#finish(new Error(this.exitNote ?? 'the server exited')), 50);
        }),
      );
      const decoder = new LineDecoder(
        {
          line: (text) => this.#line(text),
          invalid: (problem) => {
            if (problem.kind === 'too-large')
              this.#stopFlood(`wrote a line longer than ${problem.limit} bytes to stdout`);
            else this.#handlers?.invalid(problem);
          },
        },
        { maxMessageBytes: this.#limits.maxLineBytes },
      );
      child.stdout!.on('data', (chunk: Buffer) => {
        this.#stdoutBytes += chunk.length;
        if (this.#stdoutBytes > this.#limits.maxStdoutBytes) {
          this.#stopFlood(`wrote more than ${this.#limits.maxStdoutBytes} bytes to stdout`);
          return;
        }
        if (this.flood === undefined) decoder.write(chunk);
      });
      child.stdout!.on('error', () => {});
      child.stderr!.setEncoding('utf8');
      child.stderr!.on('data', (text: string) => {
        this.#stderr = (this.#stderr + text).slice(-this.#limits.stderrChars);
      });
      child.stderr!.on('error', () => {});
      child.stdin!.on('error', () => {});
      child.once('error', (error) => {
        if (child.pid === undefined)
          reject(new Error(`cannot start ${this.launch.command}: ${error.message}`));
      });
      child.once('spawn', () => {
        if (child.pid !== undefined) trackGroup(child.pid);
        resolveStart();
      });
    });
  }

  #line(text: string): void {
    if (this.#closed || this.flood !== undefined) return;
    const first = text.trimStart()[0];
    if (first === '{' || first === '[') this.#garbage = 0;
    else if (++this.#garbage > this.#limits.maxGarbageLines) {
      this.#stopFlood(
        `wrote ${this.#limits.maxGarbageLines} lines in a row to stdout that are not JSON-RPC messages`,
      );
      return;
    }
    this.#handlers?.message(text);
  }

  #stopFlood(reason: string): void {
    if (this.flood !== undefined) return;
    this.flood = reason;
    this.kill();
  }

  #finish(error?: Error): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#handlers?.close(error);
  }

  send(message: string): void {
    const stdin = this.#child?.stdin;
    if (this.#closed || stdin === null || stdin === undefined || stdin.destroyed)
      throw new Error('the server is gone');
    stdin.write(`${message}\n`);
  }

  /** SIGKILLs the whole process group at once. */
  kill(): void {
    const pid = this.#child?.pid;
    if (pid !== undefined) killGroup(pid);
  }

  /** Whether anything of the server's process group still runs. */
  groupAlive(): boolean {
    const pid = this.#child?.pid;
    return pid !== undefined && groupAlive(pid);
  }

  /** The spec's shutdown (close stdin, wait, SIGTERM, wait), then the whole group is killed. */
  async close(graceMs = 1000): Promise<void> {
    const child = this.#child;
    this.#finish();
    // Never spawned (command not found): nothing to stop.
    if (child === undefined || child.pid === undefined) return;
    child.stdin?.end();
    const wait = (ms: number) =>
      Promise.race([
        this.#exited.then(() => true),
        new Promise<boolean>((r) => setTimeout(() => r(false), ms)),
      ]);
    if (this.#exit === undefined && !(await wait(graceMs))) {
      try {
        if (child.pid !== undefined)
          process.kill(process.platform === 'win32' ? child.pid : -child.pid, 'SIGTERM');
      } catch {
        // already gone
      }
      await wait(graceMs);
    }
    this.kill();
    await wait(graceMs);
    child.stdout?.destroy();
    child.stderr?.destroy();
    child.stdin?.destroy();
  }
}
