/**
 * The fleet in `npm test`: every generated or curated server under servers/ (found by its fleet.json) passes
 * `mcpengine validate` on every revision and its declarative tests, replayed from cassettes (no mock, no
 * network: the API base URL of validation points at a closed loopback port). Needs `npm run build`.
 *
 * Each check is a child process (the CLI and the server it starts) that mostly waits on the other; the checks
 * run concurrently (`it.concurrent`), at most FLEET_JOBS child processes at a time (default 2: the suite runs on
 * two cores), so adding a server adds its own CPU time and little waiting.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

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

function run(args: string[], cwd: string): Promise<{ status: number | null; output: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (status) => done({ status, output }));
  });
}

/** The API base URLs of a manifest pointed at a closed port, so validation never reaches an API. */
async function offlineEnv(manifest: FleetManifest): Promise<Record<string, string>> {
  const env = { ...manifest.env };
  for (const mock of [manifest.mock, ...(manifest.extraMocks ?? [])])
    if (mock !== undefined) env[mock.baseUrlEnv] = `http://127.0.0.1:${await closedPort()}`;
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

      it.concurrent(
        'passes mcpengine validate on every revision (no MUST failure)',
        async ({ expect }) => {
          const env = await offlineEnv(manifest);
          const envArgs = Object.entries(env).flatMap(([key, value]) => ['--env', `${key}=${value}`]);
          const outcome = await limit(() =>
            run(['validate', '--stdio', manifest.stdio, '--cwd', dir, ...envArgs], dir),
          );
          expect(outcome.output).toMatch(/PASS: no MUST failed/);
          expect(outcome.status).toBe(0);
        },
        600_000,
      );

      it.runIf(manifest.http !== undefined).concurrent(
        'passes mcpengine validate over Streamable HTTP (no MUST failure)',
        async ({ expect }) => {
          const outcome = await limit(async () => {
            const server = await startHttp(dir, manifest, await offlineEnv(manifest));
            try {
              return await run(['validate', '--url', server.url], dir);
            } finally {
              server.stop();
            }
          });
          expect(outcome.output).toMatch(/PASS: no MUST failed/);
          expect(outcome.status).toBe(0);
        },
        600_000,
      );

      it.concurrent(
        'passes the robustness tests generated from its schemas (--generate)',
        async ({ expect }) => {
          const env = await offlineEnv(manifest);
          const outcome = await limit(
            () =>
              new Promise<{ status: number | null; output: string }>((done) => {
                const child = spawn(
                  process.execPath,
                  [CLI, 'test', '--generate', '--stdio', manifest.stdio],
                  {
                    cwd: dir,
                    // --generate has no --env: the server inherits the runner's environment.
                    env: { ...process.env, ...env },
                    stdio: ['ignore', 'pipe', 'pipe'],
                  },
                );
                let output = '';
                child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
                child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
                child.once('exit', (status) => done({ status, output }));
              }),
          );
          expect(outcome.output).toMatch(/Tests: \d+ passed, 0 failed/);
          expect(outcome.status).toBe(0);
        },
        600_000,
      );

      it.concurrent(
        'passes its declarative tests, replayed from cassettes',
        async ({ expect }) => {
          const outcome = await limit(() => run(['test', manifest.tests], dir));
          expect(outcome.output).toMatch(/Tests: \d+ passed, 0 failed/);
          expect(outcome.output).not.toContain(': record');
          expect(outcome.status).toBe(0);
        },
        600_000,
      );
    });
  }
});
