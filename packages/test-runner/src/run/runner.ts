/**
 * `mcpengine test` as a library: find the test files, read each (YAML or mcp-jest), run the suites a few at a
 * time, report progress and results, write the JSON and JUnit reports, and answer with the exit code
 * (0 all passed, 1 failures, 2 a file or server that could not be run).
 */
import { mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { loadMcpJestConfig } from '../format/load-mcp-jest.js';
import { loadYamlFile } from '../format/load-yaml.js';
import { FileError } from '../format/yaml-source.js';
import { summarize, type RunSummary, type SuiteResult, type TestSuite } from '../model.js';
import { jsonReport, junitReport } from '../report/junit.js';
import { TerminalReporter } from '../report/terminal.js';
import { runSuite, type RunEvent } from './run-suite.js';

export interface RunnerIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  readonly cwd: string;
  readonly isTTY: boolean;
  readonly signal: AbortSignal;
}

export interface RunRequest {
  /** Test files or directories (directories: every *.mcp.yaml / *.mcp.yml below). */
  readonly files: readonly string[];
  /** mcp-jest config files. */
  readonly configs?: readonly string[];
  readonly json?: string;
  readonly junit?: string;
  readonly update?: boolean;
  /** Files run at the same time. */
  readonly jobs?: number;
  readonly verbose?: boolean;
  readonly color?: boolean;
}

const SKIP_DIRS = new Set(['node_modules', '.git', 'dist', '__snapshots__', 'coverage']);

export function defaultJobs(): number {
  return Math.max(1, Math.min(4, availableParallelism()));
}

/** Expands directories into their test files (sorted, so runs are reproducible). */
export function findTestFiles(paths: readonly string[], cwd: string): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) =>
      a.name.localeCompare(b.name),
    )) {
      if (entry.isDirectory() && !SKIP_DIRS.has(entry.name)) walk(join(dir, entry.name));
      else if (entry.isFile() && /\.mcp\.ya?ml$/.test(entry.name)) out.push(join(dir, entry.name));
    }
  };
  for (const path of paths) {
    const full = resolve(cwd, path);
    let stat;
    try {
      stat = statSync(full);
    } catch {
      out.push(full); // Reported as unreadable when loaded.
      continue;
    }
    if (stat.isDirectory()) walk(full);
    else out.push(full);
  }
  return [...new Set(out)];
}

export async function loadSuite(file: string, kind: 'yaml' | 'mcp-jest'): Promise<TestSuite> {
  return kind === 'mcp-jest' ? loadMcpJestConfig(file) : loadYamlFile(file);
}

function fileErrorResult(file: string, error: unknown): SuiteResult {
  const message = error instanceof FileError ? error.message : `${file}: ${(error as Error).message}`;
  return { file, name: file, tests: [], fileError: message, notices: [], durationMs: 0 };
}

/** Runs `work` over `items` with at most `jobs` at once, results in input order. */
export async function pool<T, R>(
  items: readonly T[],
  jobs: number,
  work: (item: T) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(jobs, items.length) }, worker));
  return results;
}

export interface RunHooks {
  readonly onEvent?: (event: RunEvent) => void;
}

/** Runs the given files and returns the summary (no reports written). */
export async function runFiles(
  entries: readonly { file: string; kind: 'yaml' | 'mcp-jest' }[],
  options: { update?: boolean; jobs?: number; signal?: AbortSignal } & RunHooks = {},
): Promise<RunSummary> {
  const started = Date.now();
  const suites = await pool(entries, options.jobs ?? defaultJobs(), async ({ file, kind }) => {
    let suite: TestSuite;
    try {
      suite = await loadSuite(file, kind);
    } catch (error) {
      const result = fileErrorResult(file, error);
      options.onEvent?.({ type: 'suite-end', result });
      return result;
    }
    return runSuite(suite, {
      ...(options.update === undefined ? {} : { update: options.update }),
      ...(options.signal === undefined ? {} : { signal: options.signal }),
      ...(options.onEvent === undefined ? {} : { onEvent: options.onEvent }),
    });
  });
  return summarize(suites, Date.now() - started);
}

export function writeReports(
  summary: RunSummary,
  request: { json?: string; junit?: string },
  io: { cwd: string; stderr: (t: string) => void },
): boolean {
  let ok = true;
  const write = (path: string, text: string) => {
    const full = resolve(io.cwd, path);
    try {
      mkdirSync(dirname(full), { recursive: true });
      writeFileSync(full, text);
    } catch (error) {
      io.stderr(`mcpengine test: cannot write ${full}: ${(error as Error).message}\n`);
      ok = false;
    }
  };
  if (request.json !== undefined) write(request.json, jsonReport(summary));
  if (request.junit !== undefined) write(request.junit, junitReport(summary));
  return ok;
}

/** One complete run as the CLI does it: progress, reports, exit code. */
export async function runOnce(
  request: RunRequest,
  io: RunnerIo,
): Promise<{ summary: RunSummary; exitCode: number; files: string[] }> {
  const files = findTestFiles(request.files, io.cwd);
  const entries = [
    ...files.map((file) => ({ file, kind: 'yaml' as const })),
    ...(request.configs ?? []).map((file) => ({ file: resolve(io.cwd, file), kind: 'mcp-jest' as const })),
  ];
  const reporter = new TerminalReporter({
    write: io.stdout,
    isTTY: io.isTTY,
    color: request.color ?? false,
    verbose: request.verbose ?? false,
    cwd: io.cwd,
  });
  reporter.start(entries.length);
  const summary = await runFiles(entries, {
    ...(request.update === undefined ? {} : { update: request.update }),
    jobs: request.jobs ?? defaultJobs(),
    signal: io.signal,
    onEvent: reporter.onEvent,
  });
  io.stdout(reporter.summary(summary));
  const written = writeReports(summary, request, io);
  return { summary, exitCode: written ? summary.exitCode : 2, files: entries.map((e) => e.file) };
}
