/**
 * The orchestrator's handles on the other processes: the driver process (jobs over IPC) and HTTP servers
 * under test (spawned here, so that the driver only generates load).
 */
import { fork, spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { Job, JobResult } from './driver/worker.js';
import type { HeapSnapshot } from './driver/stdio-load.js';
import type { HttpEndpoint } from './driver/http-load.js';
import { nodeCommand } from './driver/cpus.js';
import { captureStderr, stopProcess } from './driver/proc.js';
import { WORKER } from './implementations.js';

type Reply = { ready: true } | { ok: true; result: JobResult } | { ok: false; error: string };

/** The driver process: one job at a time. */
export class Driver {
  readonly #child: ChildProcess;
  readonly #ready: Promise<void>;
  #pending: { resolve(result: JobResult): void; reject(error: Error): void } | undefined;

  /** `cpu`: the core to pin the driver to (see cpus.ts). */
  constructor(cpu?: number) {
    // fork() runs `execPath execArgv… WORKER`: with taskset as execPath, Node is exec'd pinned, IPC intact.
    const pinned = nodeCommand(process.execArgv, cpu);
    this.#child = fork(WORKER, [], {
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      execPath: pinned.file,
      execArgv: pinned.args,
    });
    this.#ready = new Promise((resolve, reject) => {
      this.#child.once('error', reject);
      this.#child.on('message', (reply: Reply) => {
        if ('ready' in reply) {
          resolve();
          return;
        }
        const pending = this.#pending;
        this.#pending = undefined;
        if (reply.ok) pending?.resolve(reply.result);
        else pending?.reject(new Error(reply.error));
      });
      this.#child.once('exit', (code) => {
        const error = new Error(`the driver process exited (code ${code})`);
        reject(error);
        this.#pending?.reject(error);
        this.#pending = undefined;
      });
    });
  }

  async run<T extends JobResult>(job: Job): Promise<T> {
    await this.#ready;
    if (this.#pending) throw new Error('the driver is busy');
    return new Promise<T>((resolve, reject) => {
      this.#pending = { resolve: resolve as (result: JobResult) => void, reject };
      this.#child.send(job);
    });
  }

  async close(): Promise<void> {
    this.#child.disconnect();
    await stopProcess(this.#child, 1000);
  }
}

/** An HTTP server under test, running in its own process. */
export class HttpServerProcess {
  readonly child: ChildProcess;
  readonly #stderr: () => string;

  private constructor(
    child: ChildProcess,
    stderr: () => string,
    readonly endpoint: HttpEndpoint,
  ) {
    this.child = child;
    this.#stderr = stderr;
  }

  static async start(
    args: string[],
    options: { nodeOptions?: string[]; ipc?: boolean; cpu?: number } = {},
  ): Promise<HttpServerProcess> {
    const stdio: ('pipe' | 'ignore' | 'ipc')[] = options.ipc
      ? ['ignore', 'pipe', 'pipe', 'ipc']
      : ['ignore', 'pipe', 'pipe'];
    const command = nodeCommand([...(options.nodeOptions ?? []), ...args], options.cpu);
    const child = spawn(command.file, command.args, { stdio });
    const stderr = captureStderr(child);
    const port = await new Promise<number>((resolve, reject) => {
      const lines = createInterface({ input: child.stdout! });
      const timer = setTimeout(() => reject(new Error(`server did not start: ${stderr()}`)), 15_000);
      lines.on('line', (line) => {
        const match = /^LISTENING (\d+)$/.exec(line);
        if (match && Number(match[1]) > 0) {
          clearTimeout(timer);
          resolve(Number(match[1]));
        }
      });
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`server exited during start (code ${code}): ${stderr()}`));
      });
    });
    return new HttpServerProcess(child, stderr, { host: '127.0.0.1', port, path: '/mcp' });
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  get stderr(): string {
    return this.#stderr();
  }

  heap(): Promise<HeapSnapshot> {
    return new Promise((resolve, reject) => {
      const onMessage = (message: { type?: string } & HeapSnapshot) => {
        if (message?.type !== 'heap') return;
        this.child.off('message', onMessage);
        resolve({ heapUsed: message.heapUsed, rss: message.rss });
      };
      this.child.on('message', onMessage);
      this.child.once('exit', () => reject(new Error(`server exited: ${this.#stderr()}`)));
      this.child.send({ type: 'heap' });
    });
  }

  stop(): Promise<void> {
    return stopProcess(this.child);
  }
}
