/**
 * A server started for the stdio transport, seen raw: every line it writes to stdout (parsed when it is JSON),
 * its stderr, and how it ended. The validator needs the raw view to judge what the server writes, so it does
 * not use a protocol-level client here.
 *
 * Limits keep a misbehaving server from hurting the validator: stdout beyond `maxStdoutBytes` or a line longer
 * than `maxLineBytes` ends the process (and is reported as a flood).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { StringDecoder } from 'node:string_decoder';
import { groupAlive, killGroup, trackGroup } from './processes.js';

export interface StdioLaunch {
  readonly command: string;
  readonly args: readonly string[];
  /** Variables added to (and overriding) the validator's own environment. */
  readonly env: Readonly<Record<string, string>>;
  readonly cwd?: string;
}

export interface StdoutLine {
  /** Milliseconds since the process started. */
  readonly at: number;
  readonly text: string;
  /** The parsed value, when the line is JSON. */
  readonly json?: unknown;
  /** Why the line is not a JSON value. */
  readonly parseError?: string;
}

export interface ExitStatus {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly at: number;
}

export interface StdioLimits {
  readonly maxStdoutBytes: number;
  readonly maxLineBytes: number;
  readonly maxStderrChars: number;
}

export const DEFAULT_STDIO_LIMITS: StdioLimits = {
  maxStdoutBytes: 64 * 1024 * 1024,
  maxLineBytes: 8 * 1024 * 1024,
  maxStderrChars: 64 * 1024,
};

type LineListener = (line: StdoutLine) => void;

export class StdioServerProcess {
  readonly launch: StdioLaunch;
  readonly lines: StdoutLine[] = [];
  /** Set when the server wrote more than the limits allow; the process is then killed. */
  flood: string | undefined;
  readonly #child: ChildProcess;
  readonly #started = Date.now();
  readonly #limits: StdioLimits;
  readonly #listeners = new Set<LineListener>();
  #pending: Buffer[] = [];
  #pendingBytes = 0;
  #stdoutBytes = 0;
  #stderr = '';
  #exit: ExitStatus | undefined;
  readonly exited: Promise<ExitStatus>;
  /** Resolves when stdout reached end-of-file. */
  readonly #stdoutEnded: Promise<void>;
  #stdinClosed = false;
  /** Set once the validator signals the server: a line cut short by that is not the server's output. */
  #signalled = false;

  private constructor(launch: StdioLaunch, child: ChildProcess, limits: StdioLimits) {
    this.launch = launch;
    this.#child = child;
    this.#limits = limits;
    this.exited = new Promise((resolve) => {
      child.once('exit', (code, signal) => {
        this.#exit = { code, signal, at: this.elapsed() };
        resolve(this.#exit);
      });
    });
    const stdout = child.stdout!;
    this.#stdoutEnded = new Promise((resolve) => {
      stdout.once('end', () => {
        this.#flushPartial();
        resolve();
      });
      stdout.once('close', () => resolve());
    });
    stdout.on('data', (chunk: Buffer) => this.#onStdout(chunk));
    stdout.on('error', () => {});
    const decoder = new StringDecoder('utf8');
    child.stderr?.on('data', (chunk: Buffer) => {
      if (this.#stderr.length < limits.maxStderrChars) this.#stderr += decoder.write(chunk);
    });
    child.stderr?.on('error', () => {});
    child.stdin?.on('error', () => {});
  }

  /** Starts the server; rejects when it cannot be started at all (command not found, not executable). */
  static start(launch: StdioLaunch, limits: StdioLimits = DEFAULT_STDIO_LIMITS): Promise<StdioServerProcess> {
    return new Promise((resolve, reject) => {
      let child: ChildProcess;
      try {
        child = spawn(launch.command, [...launch.args], {
          cwd: launch.cwd,
          env: { ...process.env, ...launch.env },
          stdio: ['pipe', 'pipe', 'pipe'],
          detached: process.platform !== 'win32',
          windowsHide: true,
        });
      } catch (error) {
        reject(error instanceof Error ? error : new Error(String(error)));
        return;
      }
      const onError = (error: Error): void =>
        reject(new Error(`cannot start ${launch.command}: ${error.message}`));
      child.once('error', onError);
      child.once('spawn', () => {
        child.off('error', onError);
        child.on('error', () => {});
        if (child.pid !== undefined) trackGroup(child.pid);
        resolve(new StdioServerProcess(launch, child, limits));
      });
    });
  }

  get pid(): number | undefined {
    return this.#child.pid;
  }

  get exitStatus(): ExitStatus | undefined {
    return this.#exit;
  }

  get stderr(): string {
    return this.#stderr;
  }

  get stdinClosed(): boolean {
    return this.#stdinClosed;
  }

  elapsed(): number {
    return Date.now() - this.#started;
  }

  onLine(listener: LineListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Writes text as is (the caller adds the newline). False when stdin is no longer writable. */
  write(text: string): boolean {
    const stdin = this.#child.stdin;
    if (stdin === null || this.#stdinClosed || stdin.destroyed || this.#exit !== undefined) return false;
    stdin.write(text);
    return true;
  }

  closeStdin(): void {
    if (this.#stdinClosed) return;
    this.#stdinClosed = true;
    this.#child.stdin?.end();
  }

  /** Waits for the exit, up to `ms`; `undefined` if the process is still running. */
  async waitForExit(ms: number): Promise<ExitStatus | undefined> {
    if (this.#exit) return this.#exit;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<undefined>((resolve) => {
      timer = setTimeout(() => resolve(undefined), ms);
    });
    const result = await Promise.race([this.exited, timeout]);
    clearTimeout(timer);
    return result;
  }

  /**
   * Ends the server as the spec's shutdown sequence says (close stdin, wait, SIGTERM, wait, SIGKILL), then
   * kills whatever is left of its process group. Always resolves.
   */
  async stop(graceMs = 1000): Promise<void> {
    this.closeStdin();
    if ((await this.waitForExit(graceMs)) === undefined) {
      this.#signal('SIGTERM');
      if ((await this.waitForExit(graceMs)) === undefined) this.#signal('SIGKILL');
      await this.waitForExit(graceMs);
    }
    this.kill();
    // Let the last lines written before the exit arrive (bounded: a grandchild may hold the pipe).
    await Promise.race([this.#stdoutEnded, new Promise((resolve) => setTimeout(resolve, 100))]);
    this.#child.stdout?.destroy();
    this.#child.stderr?.destroy();
    this.#child.stdin?.destroy();
  }

  /** SIGKILLs the process group at once. */
  kill(): void {
    if (this.#exit === undefined) this.#signalled = true;
    const pid = this.#child.pid;
    if (pid !== undefined) killGroup(pid);
  }

  /** Whether any process of the server's group is still running (after `stop()`, it should not be). */
  groupAlive(): boolean {
    const pid = this.#child.pid;
    return pid !== undefined && groupAlive(pid);
  }

  #signal(signal: NodeJS.Signals): void {
    if (this.#exit === undefined) this.#signalled = true;
    const pid = this.#child.pid;
    if (pid === undefined) return;
    try {
      process.kill(process.platform === 'win32' ? pid : -pid, signal);
    } catch {
      // Gone already.
    }
  }

  #onStdout(chunk: Buffer): void {
    if (this.flood !== undefined) return;
    this.#stdoutBytes += chunk.length;
    if (this.#stdoutBytes > this.#limits.maxStdoutBytes) {
      this.#floodStop(`wrote more than ${this.#limits.maxStdoutBytes} bytes to stdout`);
      return;
    }
    let start = 0;
    for (let index = chunk.indexOf(0x0a); index !== -1; index = chunk.indexOf(0x0a, start)) {
      this.#pending.push(chunk.subarray(start, index));
      this.#emit(Buffer.concat(this.#pending));
      this.#pending = [];
      this.#pendingBytes = 0;
      start = index + 1;
    }
    if (start < chunk.length) {
      const rest = chunk.subarray(start);
      this.#pending.push(rest);
      this.#pendingBytes += rest.length;
      if (this.#pendingBytes > this.#limits.maxLineBytes) {
        // The line never ended: what the server wrote is on record as one line that is not a message.
        const head = Buffer.concat(this.#pending).subarray(0, 200).toString('utf8');
        this.lines.push({
          at: this.elapsed(),
          text: `${head}… (cut after ${this.#pendingBytes} bytes)`,
          parseError: `a line longer than ${this.#limits.maxLineBytes} bytes`,
        });
        this.#floodStop(`wrote a line longer than ${this.#limits.maxLineBytes} bytes to stdout`);
      }
    }
  }

  #flushPartial(): void {
    if (this.#pendingBytes === 0 || this.flood !== undefined || this.#signalled) return;
    // A last line without its newline is still output the client sees.
    this.#emit(Buffer.concat(this.#pending));
    this.#pending = [];
    this.#pendingBytes = 0;
  }

  #floodStop(reason: string): void {
    this.flood = reason;
    this.#pending = [];
    this.#pendingBytes = 0;
    this.kill();
  }

  #emit(bytes: Buffer): void {
    const raw = bytes.toString('utf8');
    const text = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    let line: StdoutLine;
    if (!Buffer.from(raw, 'utf8').equals(bytes)) {
      line = { at: this.elapsed(), text, parseError: 'not valid UTF-8' };
    } else {
      try {
        line = { at: this.elapsed(), text, json: JSON.parse(text) as unknown };
      } catch (error) {
        line = {
          at: this.elapsed(),
          text,
          parseError: error instanceof Error ? error.message : String(error),
        };
      }
    }
    this.lines.push(line);
    for (const listener of this.#listeners) listener(line);
  }
}
