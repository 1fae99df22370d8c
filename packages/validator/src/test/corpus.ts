/**
 * Test support: the corpus of deliberately broken servers (packages/cli/corpus), started and validated the way
 * the command line does it. Each entry's header says what it breaks:
 *
 *   // expect: check.id, other.check     the checks that must fail (nothing else may)
 *   // requirement: catalog-id           statements that must come out failed (MUST) or warned (SHOULD)
 *   // verdict: pass | fail               the run's verdict, when the entry pins it
 *   // transport: http | sse             default stdio
 *   // revisions: 2025-11-25 2026-07-28  what the server offers (informative)
 *   // bearer: token                     sent as Authorization: Bearer on HTTP
 *   // timeout: ms                       the per-request time limit (default 4000)
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { PACKAGE_DIR } from '../paths.js';
import type { ValidationReport } from '../report/model.js';
import { runValidation } from '../run.js';
import { SseTarget, StdioTarget, StreamableHttpTarget, type Target } from '../target.js';

export const CORPUS_DIR = join(PACKAGE_DIR, 'corpus');

export interface CorpusEntry {
  readonly file: string;
  readonly path: string;
  readonly breaks: string;
  readonly expect: readonly string[];
  readonly requirements: readonly string[];
  readonly transport: 'stdio' | 'http' | 'sse';
  readonly bearer?: string;
  readonly timeoutMs: number;
  /** `pass` for a server whose defects are SHOULD-level only: the run must not fail. */
  readonly verdict?: 'pass' | 'fail';
}

function header(text: string, key: string): string | undefined {
  return new RegExp(`^// ${key}:(.*)$`, 'm').exec(text)?.[1]?.trim();
}

function list(value: string | undefined): string[] {
  return (value ?? '')
    .split(/[,\s]+/)
    .map((item) => item.trim())
    .filter(Boolean)
    .sort();
}

export function corpusEntries(): CorpusEntry[] {
  return readdirSync(CORPUS_DIR)
    .filter((file) => file.endsWith('.mjs') && !file.startsWith('_'))
    .sort()
    .map((file) => {
      const path = join(CORPUS_DIR, file);
      const text = readFileSync(path, 'utf8');
      const transport = header(text, 'transport');
      const bearer = header(text, 'bearer');
      return {
        file,
        path,
        breaks: (text.split('\n')[0] ?? '').replace(/^\/\/\s*/, ''),
        expect: list(header(text, 'expect')),
        requirements: list(header(text, 'requirement')),
        transport: transport === 'http' || transport === 'sse' ? transport : 'stdio',
        ...(bearer === undefined ? {} : { bearer }),
        timeoutMs: Number(header(text, 'timeout') ?? 4000),
        ...(header(text, 'verdict') === 'pass' || header(text, 'verdict') === 'fail'
          ? { verdict: header(text, 'verdict') as 'pass' | 'fail' }
          : {}),
      };
    });
}

export interface RunningServer {
  readonly url: string;
  readonly child: ChildProcess;
  stop(): Promise<void>;
}

export interface StartOptions {
  readonly env?: Readonly<Record<string, string>>;
  /** The server's working directory (default: the test's). */
  readonly cwd?: string;
  /** Builds the URL from the announcement's match (default: its first group). */
  readonly url?: (match: RegExpExecArray) => string;
}

/**
 * Starts an HTTP server process and waits for the announcement `announce` matches on its stdout or stderr (both
 * are read to the end, so a chatty server never blocks on a full pipe).
 */
export function startHttpServer(
  command: string,
  args: readonly string[],
  announce: RegExp,
  options: StartOptions = {},
): Promise<RunningServer> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, [...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, ...options.env },
      ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
    });
    let output = '';
    let announced = false;
    const exited = new Promise<void>((done) => child.once('exit', () => done()));
    const stop = async (): Promise<void> => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 3000);
      await exited;
      clearTimeout(timer);
    };
    const timer = setTimeout(() => {
      void stop();
      reject(new Error(`${args.join(' ')} announced no URL within 10 s; output: ${output}`));
    }, 10_000);
    const onData = (chunk: string): void => {
      if (announced) return;
      output += chunk;
      const match = announce.exec(output);
      if (match === null) return;
      announced = true;
      clearTimeout(timer);
      resolve({ url: options.url ? options.url(match) : match[1]!, child, stop });
    };
    for (const stream of [child.stdout, child.stderr]) {
      stream?.setEncoding('utf8');
      stream?.on('data', onData);
    }
    child.once('exit', (code) => {
      clearTimeout(timer);
      if (!announced)
        reject(
          new Error(
            `${args.join(' ')} exited with ${String(code)} before announcing a URL; output: ${output}`,
          ),
        );
    });
  });
}

/** A port that was free a moment ago (for servers that cannot be told to pick one). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address !== null ? address.port : 0));
    });
  });
}

export interface EntryResult {
  readonly report: ValidationReport;
  /** Checks that failed in any revision, sorted. */
  readonly failing: readonly string[];
  /** Requirements (revision/id) whose verdict is fail or warning. */
  readonly broken: ReadonlySet<string>;
  readonly warnings: number;
}

export function summarize(report: ValidationReport): EntryResult {
  const failing = new Set<string>();
  const broken = new Set<string>();
  let warnings = 0;
  for (const revision of report.revisions) {
    for (const [id, outcome] of Object.entries(revision.checks))
      if (outcome.status === 'fail') failing.add(id);
    for (const verdict of revision.requirements) {
      if (verdict.verdict === 'fail' || verdict.verdict === 'warning') broken.add(verdict.requirement.id);
      if (verdict.verdict === 'warning') warnings++;
    }
    warnings += revision.advisory.filter((a) => a.verdict === 'warning').length;
  }
  return { report, failing: [...failing].sort(), broken, warnings };
}

/** Validates one corpus entry on its transport; the server process is gone when this returns. */
export async function validateEntry(entry: CorpusEntry): Promise<EntryResult> {
  const settings = {
    requestTimeoutMs: entry.timeoutMs,
    probeTimeoutMs: 60_000,
    callTools: new Set<string>(),
    callAllTools: false,
  };
  let server: RunningServer | undefined;
  let target: Target;
  if (entry.transport === 'stdio') {
    target = new StdioTarget(
      { command: process.execPath, args: [entry.path], env: {} },
      entry.timeoutMs,
      entry.file,
    );
  } else {
    server = await startHttpServer(
      process.execPath,
      [entry.path, entry.transport === 'sse' ? '--sse' : '--http', '--port', '0'],
      /corpus server on (\S+)/,
    );
    const headers: Record<string, string> =
      entry.bearer === undefined ? {} : { Authorization: `Bearer ${entry.bearer}` };
    const options = { url: server.url, headers, timeoutMs: entry.timeoutMs };
    target = entry.transport === 'sse' ? new SseTarget(options) : new StreamableHttpTarget(options);
  }
  try {
    return summarize(await runValidation({ target, settings, totalTimeoutMs: 300_000 }));
  } finally {
    await server?.stop();
  }
}
