/**
 * The stdio load generator: spawns a server, speaks newline-delimited JSON-RPC to it, and keeps N requests in
 * flight. Every burst of responses read from one chunk is answered with one write carrying all the refills
 * (write batching), so the driver makes one syscall per chunk, not per request.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { nodeCommand } from './cpus.js';
import { captureStderr, ownCpuMs, processCpuMs, stopProcess } from './proc.js';
import {
  InflightTable,
  measurementWindow,
  WindowStats,
  type LoadResult,
  type ResponseCheck,
} from './load-stats.js';
import {
  fastResponseId,
  LineSplitter,
  looksSuccessful,
  parseResponse,
  type ParsedResponse,
} from './responses.js';

export interface ServerCommand {
  /** Script and arguments, run with this Node binary. */
  args: string[];
  /** Extra Node options for the server process (e.g. --expose-gc). */
  nodeOptions?: string[];
  /** Open an IPC channel (for heap probes). */
  ipc?: boolean;
  /** The core to pin the server to (see cpus.ts). */
  cpu?: number;
}

/** A request body with a slot for the id: `prefix + id + suffix`. */
export interface RequestTemplate {
  prefix: string;
  suffix: string;
}

export function requestTemplate(method: string, params: Record<string, unknown>): RequestTemplate {
  return {
    prefix: '{"jsonrpc":"2.0","id":',
    suffix: `,"method":${JSON.stringify(method)},"params":${JSON.stringify(params)}}`,
  };
}

export interface LoadOptions {
  template: RequestTemplate;
  check: ResponseCheck;
  inflight: number;
  warmupMs: number;
  durationMs: number;
}

export interface HeapSnapshot {
  heapUsed: number;
  rss: number;
}

interface Special {
  resolve(response: ParsedResponse): void;
}

/** One server process driven over its stdin/stdout. */
export class StdioServer {
  readonly child: ChildProcess;
  readonly #stderr: () => string;
  readonly #splitter = new LineSplitter();
  readonly #specials = new Map<string, Special>();
  #nextSpecial = 1;
  #failure: Error | undefined;
  #onFailure: ((error: Error) => void) | undefined;
  #load: ActiveLoad | undefined;
  #exited: Promise<void>;

  constructor(command: ServerCommand) {
    const stdio: ('pipe' | 'ipc')[] = command.ipc
      ? ['pipe', 'pipe', 'pipe', 'ipc']
      : ['pipe', 'pipe', 'pipe'];
    const { file, args } = nodeCommand([...(command.nodeOptions ?? []), ...command.args], command.cpu);
    this.child = spawn(file, args, { stdio });
    this.#stderr = captureStderr(this.child);
    this.child.stdout!.setEncoding('utf8');
    this.child.stdout!.on('data', (chunk: string) => this.#receive(chunk));
    this.child.stdin!.on('error', (error) => this.#fail(error));
    this.#exited = new Promise((resolve) => {
      this.child.once('exit', (code, signal) => {
        this.#fail(new Error(`server exited (code ${code}, signal ${signal})`));
        resolve();
      });
    });
    this.child.once('error', (error) => this.#fail(error));
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  /** Sends one request with a private string id and resolves with its parsed response. */
  call(method: string, params: Record<string, unknown> = {}): Promise<ParsedResponse> {
    const id = `s${this.#nextSpecial++}`;
    return this.#guard(
      new Promise<ParsedResponse>((resolve) => {
        this.#specials.set(id, { resolve });
        this.child.stdin!.write(JSON.stringify({ jsonrpc: '2.0', id, method, params }) + '\n');
      }),
    );
  }

  notify(method: string, params: Record<string, unknown> = {}): void {
    this.child.stdin!.write(JSON.stringify({ jsonrpc: '2.0', method, params }) + '\n');
  }

  /** The legacy handshake: initialize, then notifications/initialized. */
  async initialize(protocolVersion: string): Promise<ParsedResponse> {
    const response = await this.call('initialize', {
      protocolVersion,
      capabilities: {},
      clientInfo: { name: 'mcpengine-bench', version: '1.0.0' },
    });
    if (response.error) throw new Error(`initialize failed: ${JSON.stringify(response.error)}`);
    this.notify('notifications/initialized');
    return response;
  }

  /** Runs a timed load: warm-up, then a measured window; returns what the window saw. */
  measure(options: LoadOptions): Promise<LoadResult> {
    const load = new ActiveLoad(this, options);
    this.#load = load;
    return this.#guard(load.timed(options.warmupMs, options.durationMs)).finally(
      () => (this.#load = undefined),
    );
  }

  /** Completes exactly `count` calls with `inflight` in flight (the leak check). */
  calls(count: number, inflight: number, template: RequestTemplate, check: ResponseCheck): Promise<void> {
    const load = new ActiveLoad(this, { template, check, inflight, warmupMs: 0, durationMs: 0 });
    this.#load = load;
    return this.#guard(load.counted(count)).finally(() => (this.#load = undefined));
  }

  /** Asks the server (over IPC) to collect garbage and report its heap. */
  heap(): Promise<HeapSnapshot> {
    return this.#guard(
      new Promise<HeapSnapshot>((resolve) => {
        const onMessage = (message: unknown) => {
          const m = message as { type?: string } & HeapSnapshot;
          if (m?.type !== 'heap') return;
          this.child.off('message', onMessage);
          resolve({ heapUsed: m.heapUsed, rss: m.rss });
        };
        this.child.on('message', onMessage);
        this.child.send({ type: 'heap' });
      }),
    );
  }

  /** Closes stdin, waits briefly for a clean exit, then kills. */
  async close(): Promise<void> {
    this.#onFailure = undefined;
    this.#failure ??= new Error('closed');
    this.child.stdin!.end();
    const timer = setTimeout(() => void stopProcess(this.child), 1000);
    await this.#exited;
    clearTimeout(timer);
  }

  /** @internal */
  write(text: string): void {
    this.child.stdin!.write(text);
  }

  #receive(chunk: string): void {
    const load = this.#load;
    try {
      this.#splitter.push(chunk, (line) => {
        if (load !== undefined && load.take(line)) return;
        this.#special(line);
      });
      load?.refill();
    } catch (error) {
      this.#fail(error as Error);
    }
  }

  #special(line: string): void {
    const message = parseResponse(line);
    if (typeof message.id !== 'string') {
      // Notifications and server requests are not part of what is measured.
      if ((message as { method?: unknown }).method !== undefined) return;
      throw new Error(`unexpected response: ${line.slice(0, 300)}`);
    }
    const waiter = this.#specials.get(message.id);
    if (!waiter) throw new Error(`response to an unknown request: ${line.slice(0, 300)}`);
    this.#specials.delete(message.id);
    waiter.resolve(message);
  }

  #fail(error: Error): void {
    if (this.#failure) return;
    const stderr = this.#stderr();
    this.#failure = stderr ? new Error(`${error.message}\nserver stderr:\n${stderr}`) : error;
    this.#onFailure?.(this.#failure);
  }

  /** Rejects `promise`'s result as soon as the server fails. */
  #guard<T>(promise: Promise<T>): Promise<T> {
    if (this.#failure) return Promise.reject(this.#failure);
    return new Promise<T>((resolve, reject) => {
      this.#onFailure = reject;
      promise.then(resolve, reject);
    });
  }
}

/** One load run: keeps `inflight` requests outstanding until told to stop. */
class ActiveLoad {
  readonly #server: StdioServer;
  readonly #options: LoadOptions;
  readonly #table: InflightTable;
  readonly #stats = new WindowStats();
  #sending = true;
  #measuring = false;
  #target = Infinity;
  #sent = 0;
  #done: (() => void) | undefined;

  constructor(server: StdioServer, options: LoadOptions) {
    this.#server = server;
    this.#options = options;
    this.#table = new InflightTable();
  }

  /** Handles one line; false when it is not a response to a load request. */
  take(line: string): boolean {
    const id = fastResponseId(line);
    if (id < 0) return false;
    const sentAt = this.#table.close(id);
    if (sentAt < 0) return false;
    if (!looksSuccessful(line)) throw new Error(`request failed: ${line.slice(0, 300)}`);
    if (this.#stats.shouldVerify()) this.#stats.verify(line, id, this.#options.check);
    if (this.#measuring) this.#stats.record(performance.now() - sentAt);
    else this.#stats.completed++;
    if (this.#table.count === 0 && !this.#sending) this.#done?.();
    return true;
  }

  refill(): void {
    if (!this.#sending) return;
    const { prefix, suffix } = this.#options.template;
    let room = Math.min(this.#options.inflight - this.#table.count, this.#target - this.#sent);
    if (room <= 0) return;
    const now = performance.now();
    let out = '';
    this.#sent += room;
    while (room-- > 0) out += prefix + this.#table.open(now) + suffix + '\n';
    this.#server.write(out);
    if (this.#sent >= this.#target) this.#sending = false;
  }

  /** Resolves once every request sent has been answered. */
  #drained(): Promise<void> {
    if (this.#table.count === 0) return Promise.resolve();
    return new Promise((resolve) => (this.#done = resolve));
  }

  async timed(warmupMs: number, durationMs: number): Promise<LoadResult> {
    this.refill();
    await new Promise((resolve) => setTimeout(resolve, warmupMs));
    this.#stats.reset();
    this.#measuring = true;
    const pid = this.#server.pid;
    const start = performance.now();
    const driverCpu0 = ownCpuMs();
    const serverCpu0 = processCpuMs(pid);
    await measurementWindow(durationMs, () => this.#stats.completed);
    const elapsedMs = performance.now() - start;
    const completed = this.#stats.completed;
    const driverCpuMs = ownCpuMs() - driverCpu0;
    const serverCpu1 = processCpuMs(pid);
    this.#measuring = false;
    this.#sending = false;
    const result: LoadResult = {
      completed,
      elapsedMs,
      throughput: (completed * 1000) / elapsedMs,
      p50Ms: this.#stats.percentile(0.5),
      p99Ms: this.#stats.percentile(0.99),
      driverCpuMs,
      serverCpuMs: serverCpu0 === undefined || serverCpu1 === undefined ? undefined : serverCpu1 - serverCpu0,
      verified: this.#stats.verified,
    };
    await this.#drained();
    return result;
  }

  async counted(count: number): Promise<void> {
    this.#target = count;
    this.refill();
    await new Promise<void>((resolve) => (this.#done = resolve));
  }
}
