/**
 * `mcpengine validate`: arguments → target → run → reports → exit code.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { Baseline } from './checks/security.js';
import { registerSecrets } from './evidence.js';
import { parseValidateArgs, UsageError, VALIDATE_USAGE, type ValidateOptions } from './options.js';
import { renderHtml, renderJson, renderJunit } from './report/files.js';
import { renderTerminal } from './report/terminal.js';
import { runValidation } from './run.js';
import { initializeRequest, modernRequest } from './session.js';
import { SseTarget, StdioTarget, StreamableHttpTarget, type Target } from './target.js';
import { HttpChannel, type HttpTargetOptions } from './wire/http-channel.js';
import { killAllGroups } from './wire/processes.js';
import { SseChannel } from './wire/sse-channel.js';
import { StdioServerProcess } from './wire/stdio-process.js';

/** A target that cannot be reached at all: exit code 2. */
export class ConnectionError extends Error {
  override readonly name = 'ConnectionError';
}

export interface CommandIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  readonly env: Readonly<Record<string, string | undefined>>;
}

async function stdioTarget(options: ValidateOptions): Promise<Target> {
  const [command, ...args] = options.stdio!;
  const launch = {
    command: command!,
    args,
    env: options.env,
    ...(options.cwd === undefined ? {} : { cwd: resolve(options.cwd) }),
  };
  // Starting it once tells a missing command (a usage problem) from a server that misbehaves (a verdict).
  let probe: StdioServerProcess;
  try {
    probe = await StdioServerProcess.start(launch);
  } catch (error) {
    throw new ConnectionError(`cannot start the server: ${(error as Error).message}`);
  }
  await probe.stop(200);
  return new StdioTarget(launch, options.timeoutMs, options.stdio!.join(' '));
}

async function httpTarget(options: ValidateOptions, io: CommandIo): Promise<Target> {
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
    throw new UsageError(`--baseline ${path}: not a baseline file`);
  }
}

function write(path: string, text: string): void {
  mkdirSync(dirname(resolve(path)), { recursive: true });
  writeFileSync(path, text);
}

/** Runs the command; returns the exit code. */
export async function validateCommand(argv: readonly string[], io: CommandIo): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    io.stdout(VALIDATE_USAGE);
    return 0;
  }
  let options: ValidateOptions;
  try {
    options = parseValidateArgs(argv, io.env);
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr(`mcpengine validate: ${error.message}\n\n${VALIDATE_USAGE}`);
      return 2;
    }
    throw error;
  }
  if (options.bearerEnv !== undefined) registerSecrets([io.env[options.bearerEnv] ?? '']);
  const interrupt = (): void => {
    killAllGroups();
    process.exit(130);
  };
  process.once('SIGINT', interrupt);
  process.once('SIGTERM', interrupt);
  try {
    const target = options.stdio !== undefined ? await stdioTarget(options) : await httpTarget(options, io);
    const previous = options.baseline === undefined ? undefined : readBaseline(options.baseline);
    const baseline = options.baseline === undefined ? undefined : { previous, current: {} as Baseline };
    const report = await runValidation({
      target,
      ...(options.revisions === undefined ? {} : { revisions: options.revisions }),
      totalTimeoutMs: options.totalTimeoutMs,
      settings: {
        requestTimeoutMs: options.timeoutMs,
        probeTimeoutMs: Math.max(30_000, options.timeoutMs * 3),
        callTools: new Set(options.callTools),
        callAllTools: options.callAll,
        ...(baseline === undefined ? {} : { baseline }),
      },
    });
    io.stdout(renderTerminal(report, { color: options.color, verbose: options.verbose }));
    if (options.json !== undefined) write(options.json, renderJson(report));
    if (options.junit !== undefined) write(options.junit, renderJunit(report));
    if (options.html !== undefined) write(options.html, renderHtml(report));
    if (options.baseline !== undefined && previous === undefined && baseline !== undefined) {
      write(options.baseline, `${JSON.stringify(baseline.current, null, 2)}\n`);
    }
    return report.exitCode;
  } catch (error) {
    if (error instanceof ConnectionError || error instanceof UsageError) {
      io.stderr(`mcpengine validate: ${error.message}\n`);
      return 2;
    }
    throw error;
  } finally {
    process.off('SIGINT', interrupt);
    process.off('SIGTERM', interrupt);
  }
}
