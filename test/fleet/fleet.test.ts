/**
 * The fleet in `npm test`: every generated or curated server under servers/ (found by its fleet.json) passes
 * `mcpengine validate` on every revision over stdio and Streamable HTTP, `validate --apps` when its fleet.json
 * says `apps: true`, its robustness tests (`--generate`) and its declarative tests, replayed from cassettes (no
 * mock, no network: the API base URL of validation is a port `fetch` refuses). Needs `npm run build`.
 *
 * Where the time goes (docs/design.md, The fleet, "Test time"; FLEET_TIMING=1 prints each check's duration):
 * validation is most of it, and half of a validation's own CPU was compiling the five revisions' official
 * schemas, again in every `mcpengine validate` process. So validation runs in this process, through the
 * command's own `validateServer` with the options the command line builds: the compiled schemas are shared by
 * every server and transport. Every check of every server goes into one queue at the start, at most FLEET_JOBS
 * at a time (default 2: the suite runs on two cores), alternating validations (this process) with the test
 * runner (child processes); a test only awaits its check, so no server waits for the previous one's slowest.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { validateServer, type ValidateOptions } from '@mcpengine/validator';
import { beforeAll, describe, expect, it } from 'vitest';

const ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));
const CLI = join(ROOT, 'packages/cli/dist/main.js');

interface FleetManifest {
  name: string;
  origin: 'generated' | 'curated' | 'handwritten';
  stdio: string;
  http?: string;
  env?: Record<string, string>;
  mock?: { prism: string; baseUrlEnv: string };
  /** Servers over several descriptions: one more mock each (not in the shared manifest convention). */
  extraMocks?: { prism: string; baseUrlEnv: string; port: number }[];
  tests: string;
  serverJson: string;
  apps?: boolean;
}

const fleet = readdirSync(join(ROOT, 'servers'))
  .filter((name) => existsSync(join(ROOT, 'servers', name, 'fleet.json')))
  .map((name) => ({
    dir: join(ROOT, 'servers', name),
    manifest: JSON.parse(readFileSync(join(ROOT, 'servers', name, 'fleet.json'), 'utf8')) as FleetManifest,
  }))
  .filter(({ manifest }) => manifest.origin !== 'handwritten');

function closedPort(): Promise<number> {
  return new Promise((done, fail) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() =>
        typeof address === 'object' && address ? done(address.port) : fail(new Error('no port')),
      );
    });
  });
}

/** At most `jobs` checks at once; the others wait their turn. */
function limiter(jobs: number) {
  let running = 0;
  const queue: (() => void)[] = [];
  return async <T>(task: () => Promise<T>): Promise<T> => {
    if (running >= jobs) await new Promise<void>((turn) => queue.push(turn));
    running += 1;
    try {
      return await task();
    } finally {
      running -= 1;
      queue.shift()?.();
    }
  };
}

const limit = limiter(Math.max(1, Number(process.env['FLEET_JOBS'] ?? 2)));

/**
 * The API base URL of offline checks: port 9 (discard), one of the Fetch standard's "bad ports", so the servers'
 * `fetch` refuses the request before connecting (and any other client meets a closed port). Not a closed
 * ephemeral port: under hundreds of attempts some SYNs to a closed loopback port went unanswered until the 1 s
 * retransmission, which made `--generate` take 10-40 s per server instead of ~2 s.
 */
const OFFLINE_API = 'http://127.0.0.1:9';

/** The API base URLs of a manifest pointed at a refused port, so validation never reaches an API. */
function offlineEnv(manifest: FleetManifest): Record<string, string> {
  const env = { ...manifest.env };
  for (const mock of [manifest.mock, ...(manifest.extraMocks ?? [])])
    if (mock !== undefined) env[mock.baseUrlEnv] = OFFLINE_API;
  return env;
}

/** Starts the manifest's HTTP command on a free port; resolves once it prints its URL on stderr. */
async function startHttp(dir: string, manifest: FleetManifest, env: Record<string, string>) {
  const port = await closedPort();
  const [program, ...args] = manifest.http!.replace('{port}', String(port)).split(/\s+/);
  const child = spawn(program === 'node' ? process.execPath : program!, args, {
    cwd: dir,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let output = '';
  await new Promise<void>((done, fail) => {
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes(`127.0.0.1:${port}`)) done();
    });
    child.once('exit', (code) => fail(new Error(`the HTTP server exited (${code}): ${output}`)));
  });
  return { url: `http://127.0.0.1:${port}/mcp`, stop: () => child.kill('SIGTERM') };
}

interface Outcome {
  status: number | null;
  output: string;
}

/** `mcpengine validate` as its command runs it, in this process (options as validateOptionsOf builds them). */
async function validate(
  target: Partial<Pick<ValidateOptions, 'stdio' | 'url' | 'env' | 'cwd' | 'apps'>>,
): Promise<Outcome> {
  let output = '';
  const status = await validateServer(
    {
      transport: 'auto',
      headers: {},
      timeoutMs: 10_000,
      totalTimeoutMs: 300_000,
      callTools: [],
      callAll: false,
      verbose: false,
      strict: false,
      color: false,
      ...target,
      env: target.env ?? {},
    },
    {
      stdout: (text) => (output += text),
      stderr: (text) => (output += text),
      env: process.env,
    },
  );
  return { status, output };
}

/** The CLI in a child process (the test runner: its suites start their own servers). */
function cli(args: string[], cwd: string, env?: Record<string, string>): Promise<Outcome> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      cwd,
      ...(env === undefined ? {} : { env: { ...process.env, ...env } }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (status) => done({ status, output }));
  });
}

type Check = 'stdio' | 'http' | 'apps' | 'generate' | 'tests';
/**
 * Validation runs on this process's thread, the test runner in child processes: the queue alternates the two so
 * that both are busy at once, each side longest first (over stdio, then HTTP; --generate, then the cassettes).
 */
const IN_PROCESS: readonly Check[] = ['stdio', 'http', 'apps'];
const IN_CHILDREN: readonly Check[] = ['generate', 'tests'];

const checks: Record<Check, (dir: string, manifest: FleetManifest) => Promise<Outcome>> = {
  stdio: async (dir, manifest) =>
    validate({ stdio: manifest.stdio.split(/\s+/), cwd: dir, env: offlineEnv(manifest) }),
  http: async (dir, manifest) => {
    const server = await startHttp(dir, manifest, offlineEnv(manifest));
    try {
      return await validate({ url: server.url });
    } finally {
      server.stop();
    }
  },
  apps: async (dir, manifest) =>
    validate({ stdio: manifest.stdio.split(/\s+/), cwd: dir, env: offlineEnv(manifest), apps: true }),
  // --generate has no --env: the server inherits the runner's environment.
  generate: async (dir, manifest) =>
    cli(['test', '--generate', '--stdio', manifest.stdio], dir, offlineEnv(manifest)),
  tests: (dir, manifest) => cli(['test', manifest.tests], dir),
};

const applies = (check: Check, manifest: FleetManifest): boolean =>
  check === 'http' ? manifest.http !== undefined : check === 'apps' ? manifest.apps === true : true;

/** FLEET_TIMING=1: each check's own duration on stderr (what to cut next). */
async function timed<T>(label: string, task: () => Promise<T>): Promise<T> {
  const start = performance.now();
  try {
    return await task();
  } finally {
    if (process.env['FLEET_TIMING'] === '1')
      process.stderr.write(`[fleet timing] ${label}: ${Math.round(performance.now() - start)} ms\n`);
  }
}

/** Every check's outcome, once started; never rejects (an error becomes the check's output). */
const started = new Map<string, Promise<Outcome>>();
const key = (name: string, check: Check) => `${name} ${check}`;

beforeAll(() => {
  const queue = (kinds: readonly Check[]) =>
    kinds.flatMap((check) =>
      fleet.filter(({ manifest }) => applies(check, manifest)).map((server) => ({ check, ...server })),
    );
  const inProcess = queue(IN_PROCESS);
  const inChildren = queue(IN_CHILDREN);
  const order = Array.from({ length: Math.max(inProcess.length, inChildren.length) }, (_, i) =>
    [inProcess[i], inChildren[i]].filter((entry) => entry !== undefined),
  ).flat();
  for (const { check, dir, manifest } of order)
    started.set(
      key(manifest.name, check),
      limit(() => timed(`${manifest.name} ${check}`, () => checks[check](dir, manifest))).catch(
        (error: unknown) => ({
          status: null,
          output: `the check failed to run: ${(error as Error).stack ?? String(error)}`,
        }),
      ),
    );
});

function outcome(name: string, check: Check): Promise<Outcome> {
  const pending = started.get(key(name, check));
  if (pending === undefined) throw new Error(`${name}: ${check} was not started`);
  return pending;
}

describe('the fleet', () => {
  it('has servers', () => {
    expect(fleet.map(({ manifest }) => manifest.name)).toContain('google-search-console');
  });

  for (const { dir, manifest } of fleet) {
    describe(manifest.name, () => {
      it('names its folder and ships a Registry server.json', () => {
        expect(dir.endsWith(`/${manifest.name}`)).toBe(true);
        const serverJson = JSON.parse(readFileSync(join(dir, manifest.serverJson), 'utf8'));
        expect(serverJson.$schema).toMatch(/server\.schema\.json$/);
        expect(serverJson.packages[0].transport.type).toBe('stdio');
      });

      it('passes mcpengine validate on every revision (no MUST failure)', async () => {
        const { status, output } = await outcome(manifest.name, 'stdio');
        expect(output).toMatch(/PASS: no MUST failed/);
        expect(status).toBe(0);
      }, 900_000);

      // Only servers that offer HTTP / Apps get these tests (a test that can never run would show as skipped).
      if (manifest.http !== undefined)
        it('passes mcpengine validate over Streamable HTTP (no MUST failure)', async () => {
          const { status, output } = await outcome(manifest.name, 'http');
          expect(output).toMatch(/PASS: no MUST failed/);
          expect(status).toBe(0);
        }, 900_000);

      if (manifest.apps === true)
        it('passes mcpengine validate --apps (no finding)', async () => {
          const { status, output } = await outcome(manifest.name, 'apps');
          expect(output).toMatch(/PASS: MCP Apps rules — 0 MUST failed, 0 warned/);
          expect(status).toBe(0);
        }, 900_000);

      it('passes the robustness tests generated from its schemas (--generate)', async () => {
        const { status, output } = await outcome(manifest.name, 'generate');
        expect(output).toMatch(/Tests: \d+ passed, 0 failed/);
        expect(status).toBe(0);
      }, 900_000);

      it('passes its declarative tests, replayed from cassettes', async () => {
        const { status, output } = await outcome(manifest.name, 'tests');
        expect(output).toMatch(/Tests: \d+ passed, 0 failed/);
        expect(output).not.toContain(': record');
        expect(status).toBe(0);
      }, 900_000);
    });
  }
});
