/**
 * `mcpengine validate` as a function: options → target → run → reports → exit code. The command line turns
 * its arguments into `ValidateOptions`.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { Revision } from './catalog/model.js';
import type { Baseline } from './checks/context.js';
import { registerSecrets } from './evidence.js';
import { renderHtml, renderJson, renderJunit } from './report/files.js';
import { renderTerminal } from './report/terminal.js';
import { renderAppsTerminal, runAppsValidation } from './apps/run.js';
import { runValidation } from './run.js';
import { initializeRequest, modernRequest } from './session.js';
import { SseTarget, StdioTarget, StreamableHttpTarget, type Target } from './target.js';
import { Timings, timingsFromEnv } from './timings.js';
import {
  HttpChannel,
  killAllGroups,
  SseChannel,
  StdioChannel,
  type HttpTargetOptions,
} from '@mcpengine/wire';

/** A target that cannot be reached at all: exit code 2. */
export class ConnectionError extends Error {
  override readonly name = 'ConnectionError';
}

/** An option found unusable while running (an unreadable baseline file): exit code 2. */
export class ValidateUsageError extends Error {
  override readonly name = 'ValidateUsageError';
}

export interface ValidateIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  readonly env: Readonly<Record<string, string | undefined>>;
}

/** What to validate and how, already checked (the command line does that). */
export interface ValidateOptions {
  readonly stdio?: readonly string[];
  readonly url?: string;
  readonly transport: 'auto' | 'streamable-http' | 'sse';
  readonly env: Readonly<Record<string, string>>;
  readonly headers: Readonly<Record<string, string>>;
  readonly bearerEnv?: string;
  readonly cwd?: string;
  readonly timeoutMs: number;
  readonly totalTimeoutMs: number;
  /** What "promptly" means for a ping (`--ping-bound`; default 2000 ms). */
  readonly pingBoundMs?: number;
  readonly revisions?: readonly Revision[];
  readonly json?: string;
  readonly junit?: string;
  readonly html?: string;
  readonly baseline?: string;
  readonly callTools: readonly string[];
  readonly callAll: boolean;
  readonly verbose: boolean;
  readonly color: boolean;
  /** Robustness failures (replies to garbage input) fail the run. */
  readonly strict?: boolean;
  /** Run the MCP Apps rules (`--apps`) instead of the protocol checks. */
  readonly apps?: boolean;
  /** Write where the time went to stderr (`--timings`). */
  readonly timings?: boolean;
}

async function stdioTarget(options: ValidateOptions): Promise<Target> {
  const [command, ...args] = options.stdio!;
  const launch = {
    command: command!,
    args,
    env: options.env,
    ...(options.cwd === undefined ? {} : { cwd: resolve(options.cwd) }),
  };
  // Starting it once tells a missing command (a usage problem) from a server that misbehaves (a verdict). The
  // process is not wasted: it is the run's first connection.
  let first: StdioChannel;
  try {
    first = await StdioChannel.open(launch, options.timeoutMs);
  } catch (error) {
    throw new ConnectionError(`cannot start the server: ${(error as Error).message}`);
  }
  return new StdioTarget(launch, options.timeoutMs, options.stdio!.join(' '), first);
}

async function httpTarget(options: ValidateOptions, io: ValidateIo): Promise<Target> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.bearerEnv !== undefined) headers['Authorization'] = `Bearer ${io.env[options.bearerEnv] ?? ''}`;
  const http: HttpTargetOptions = { url: options.url!, headers, timeoutMs: options.timeoutMs };
  if (options.transport === 'streamable-http') return new StreamableHttpTarget(http);
  if (options.transport === 'sse') return new SseTarget(http);
  // Auto: a Streamable HTTP endpoint answers a POST with JSON-RPC; an HTTP+SSE one opens a stream on GET.
  const probe = new HttpChannel(http);
  const attempts = [
    initializeRequest(probe, '2025-11-25'),
    modernRequest(probe, '2026-07-28', 'server/discover'),
  ];
  let networkError: string | undefined;
  for (const message of attempts) {
    const call = await probe.call(message, { timeoutMs: options.timeoutMs });
    const exchange = probe.exchanges.at(-1);
    if (exchange?.networkError !== undefined) networkError = exchange.networkError;
    if (
      exchange?.http.status === 401 &&
      options.bearerEnv === undefined &&
      headers['Authorization'] === undefined
    ) {
      await probe.close();
      throw new ConnectionError(
        `${options.url} requires authorization (HTTP 401${exchange.http.headers['www-authenticate'] ? `, ${exchange.http.headers['www-authenticate']}` : ''}): pass a token with --bearer-env VAR`,
      );
    }
    if (call.response !== undefined) {
      await probe.close();
      return new StreamableHttpTarget(http);
    }
  }
  await probe.close();
  if (networkError !== undefined) throw new ConnectionError(`cannot reach ${options.url}: ${networkError}`);
  try {
    const sse = await SseChannel.open(http);
    const found = sse.endpoint !== undefined;
    await sse.close();
    if (found) return new SseTarget(http);
  } catch {
    // Neither transport.
  }
  return new StreamableHttpTarget(http);
}

function readBaseline(path: string): Baseline | undefined {
  if (!existsSync(path)) return undefined;
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as Baseline;
  } catch {
    throw new ValidateUsageError(`--baseline ${path}: not a baseline file`);
  }
}

function write(path: string, text: string): void {
  mkdirSync(dirname(resolve(path)), { recursive: true });
  writeFileSync(path, text);
}

/** Validates one server and writes the reports; returns the exit code (0 pass, 1 a MUST failed, 2 unusable). */
export async function validateServer(options: ValidateOptions, io: ValidateIo): Promise<number> {
  if (options.bearerEnv !== undefined) registerSecrets([io.env[options.bearerEnv] ?? '']);
  const interrupt = (): void => {
    killAllGroups();
    process.exit(130);
  };
  process.once('SIGINT', interrupt);
  process.once('SIGTERM', interrupt);
  const timings =
    options.timings === true || timingsFromEnv(io.env) || timingsFromEnv(process.env)
      ? new Timings()
      : undefined;
  try {
    const connect = (): Promise<Target> =>
      options.stdio !== undefined ? stdioTarget(options) : httpTarget(options, io);
    const target = await (timings?.phase('starting / detecting the target', connect) ?? connect());
    if (options.apps === true) {
      const report = await runAppsValidation({
        target,
        timeoutMs: options.timeoutMs,
        callTools: new Set(options.callTools),
        callAll: options.callAll,
      }).catch((error: unknown) => {
        throw new ConnectionError((error as Error).message);
      });
      io.stdout(renderAppsTerminal(report, { verbose: options.verbose }));
      if (options.json !== undefined) write(options.json, `${JSON.stringify(report, null, 2)}\n`);
      return report.exitCode;
    }
    const previous = options.baseline === undefined ? undefined : readBaseline(options.baseline);
    const baseline = options.baseline === undefined ? undefined : { previous, current: {} as Baseline };
    const report = await runValidation({
      target,
      ...(options.revisions === undefined ? {} : { revisions: options.revisions }),
      totalTimeoutMs: options.totalTimeoutMs,
      settings: {
        requestTimeoutMs: options.timeoutMs,
        probeTimeoutMs: Math.max(30_000, options.timeoutMs * 3),
        ...(options.pingBoundMs === undefined ? {} : { pingBoundMs: options.pingBoundMs }),
        callTools: new Set(options.callTools),
        callAllTools: options.callAll,
        strict: options.strict === true,
        ...(baseline === undefined ? {} : { baseline }),
      },
      ...(timings === undefined ? {} : { timings }),
    });
    if (timings !== undefined) io.stderr(timings.render());
    io.stdout(renderTerminal(report, { color: options.color, verbose: options.verbose }));
    if (options.json !== undefined) write(options.json, renderJson(report));
    if (options.junit !== undefined) write(options.junit, renderJunit(report));
    if (options.html !== undefined) write(options.html, renderHtml(report));
    if (options.baseline !== undefined && previous === undefined && baseline !== undefined) {
      write(options.baseline, `${JSON.stringify(baseline.current, null, 2)}\n`);
    }
    return report.exitCode;
  } catch (error) {
    if (error instanceof ConnectionError || error instanceof ValidateUsageError) {
      io.stderr(`mcpengine validate: ${error.message}\n`);
      return 2;
    }
    throw error;
  } finally {
    process.off('SIGINT', interrupt);
    process.off('SIGTERM', interrupt);
  }
}
