/** Test support for validating a whole reference server, as the command line does with its defaults. */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { PACKAGE_DIR } from '../paths.js';
import type { ValidationReport } from '../report/model.js';
import { runValidation } from '../run.js';
import { SseTarget, StdioTarget, StreamableHttpTarget, type Target } from '../target.js';
import { freePort, startHttpServer } from './corpus.js';

const SETTINGS = {
  requestTimeoutMs: 10_000,
  probeTimeoutMs: 60_000,
  callTools: new Set<string>(),
  callAllTools: false,
};

export function validate(target: Target): Promise<ValidationReport> {
  return runValidation({ target, settings: SETTINGS, totalTimeoutMs: 300_000 });
}

/** `revision requirement verdict` for every requirement failed or warned about, sorted. */
export function failedOrWarned(report: ValidationReport): string[] {
  return report.revisions
    .flatMap((r) =>
      r.requirements
        .filter((v) => v.verdict === 'fail' || v.verdict === 'warning')
        .map((v) => `${r.revision} ${v.requirement.id} ${v.verdict}`),
    )
    .sort();
}

/**
 * `revision requirement verdict` lines of an expected-findings document (docs/validator/<server>.md) for one
 * transport: its table rows `| transport | revisions | \`requirement\` | level | verdict | … |`.
 */
export function documentedFindings(document: string, transport: string): string[] {
  const text = readFileSync(join(PACKAGE_DIR, '..', '..', 'docs', 'validator', document), 'utf8');
  const rows = text.split('\n').filter((line) => line.startsWith(`| ${transport} |`));
  return rows
    .flatMap((row) => {
      const [, , revisions, requirement, , verdict] = row.split('|').map((cell) => cell.trim());
      return revisions!
        .split(' ')
        .map((revision) => `${revision} ${requirement!.replace(/`/g, '')} ${verdict!}`);
    })
    .sort();
}

/** Where the root devDependencies are installed. */
export const NODE_MODULES = join(PACKAGE_DIR, '..', '..', 'node_modules');

/** A real server of the corpus: an npm package run over stdio, and its expected-findings document. */
export interface RealServer {
  /** The package, a root devDependency. */
  readonly name: string;
  /** docs/validator/<document>: the expected findings. */
  readonly document: string;
  /** The entry point inside the package (or an absolute path: a script of corpus/real), and its arguments. */
  readonly entry: string;
  readonly args?: (scratch: string) => readonly string[];
  readonly env?: (scratch: string) => Readonly<Record<string, string>>;
  /** Prepares the scratch directory before the server starts (a git repository, a PDF…). */
  readonly prepare?: (scratch: string) => void;
}

/** A real server that serves Streamable HTTP or HTTP+SSE on a port it is told through its environment. */
export interface RealHttpServer extends RealServer {
  readonly transport: 'streamable-http' | 'sse';
  /** The environment and extra arguments that make it listen on `port` (on HTTP). */
  readonly listen: (port: number) => {
    readonly env?: Readonly<Record<string, string>>;
    readonly args?: readonly string[];
  };
  /** What it prints (stdout or stderr) once it listens. */
  readonly announce: RegExp;
  /** The endpoint: `/mcp` for Streamable HTTP, the SSE path for HTTP+SSE. */
  readonly path: string;
}

function script(server: RealServer): string {
  return isAbsolute(server.entry) ? server.entry : join(NODE_MODULES, server.name, server.entry);
}

function scratchDirectory(server: RealServer): string {
  const scratch = mkdtempSync(join(tmpdir(), 'mcpengine-validator-real-'));
  server.prepare?.(scratch);
  return scratch;
}

/** Validates a real server over stdio the way `mcpengine validate --stdio` does; `scratch` is a fresh temp dir. */
export function validateRealServer(server: RealServer): Promise<ValidationReport> {
  const scratch = scratchDirectory(server);
  return validate(
    new StdioTarget(
      {
        command: process.execPath,
        args: [script(server), ...(server.args?.(scratch) ?? [])],
        env: server.env?.(scratch) ?? {},
        cwd: scratch,
      },
      10_000,
      server.name,
    ),
  );
}

/**
 * Starts a real server on a free loopback port and validates it over HTTP the way `mcpengine validate --url`
 * does (the transport forced, as `--transport sse` would); the server is stopped afterwards.
 */
export async function validateRealHttpServer(server: RealHttpServer): Promise<ValidationReport> {
  const scratch = scratchDirectory(server);
  const port = await freePort();
  const listen = server.listen(port);
  const running = await startHttpServer(
    process.execPath,
    [script(server), ...(server.args?.(scratch) ?? []), ...(listen.args ?? [])],
    server.announce,
    {
      env: { ...server.env?.(scratch), ...listen.env },
      cwd: scratch,
      url: () => `http://127.0.0.1:${port}${server.path}`,
    },
  );
  try {
    const options = { url: running.url, headers: {}, timeoutMs: 10_000 };
    return await validate(
      server.transport === 'sse' ? new SseTarget(options) : new StreamableHttpTarget(options),
    );
  } finally {
    await running.stop();
  }
}

/**
 * Runs tasks `concurrency` at a time: a validation spends most of its wall time waiting for its servers, so two
 * side by side take little more than one on this two-core machine.
 */
export function limiter(concurrency = 2): <T>(task: () => Promise<T>) => Promise<T> {
  let running = 0;
  const waiting: (() => void)[] = [];
  return async (task) => {
    if (running >= concurrency) await new Promise<void>((resolve) => waiting.push(resolve));
    running++;
    try {
      return await task();
    } finally {
      running--;
      waiting.shift()?.();
    }
  };
}
