/**
 * Servers that never start, never answer, flood stdout or die: each gives a failing test with evidence, the run
 * ends in bounded time, and no process of theirs is left behind.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseYamlSuite } from './format/load-yaml.js';
import { summarize } from './model.js';
import { runSuite } from './run/run-suite.js';
import { CORPUS_DIR } from './test/corpus.js';

function suiteFor(
  script: string,
  extra = '',
  tests = '  - name: echo\n    tool: echo\n    arguments: { text: hi }\n    expect: { text: hi }\n',
) {
  return parseYamlSuite(
    join(CORPUS_DIR, `${script}.mcp.yaml`),
    `server:\n  command: ${JSON.stringify(process.execPath)}\n  args: [${JSON.stringify(join(CORPUS_DIR, script))}]\n${extra}timeout: 2000\ntests:\n${tests}`,
  );
}

/** Whether the process still runs (a zombie waiting for its parent to reap it does not). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

/** Waits (bounded) for the kernel to finish delivering SIGKILL to the group. */
async function gone(pid: number): Promise<boolean> {
  for (let i = 0; i < 50 && alive(pid); i++) await new Promise((resolve) => setTimeout(resolve, 50));
  return !alive(pid);
}

describe('hostile servers', () => {
  it('a server that exits at start fails a connect test with its exit status and stderr, exit code 2', async () => {
    const result = await runSuite(suiteFor('hostile/exits-at-start.mjs'));
    const [connect, echo] = result.tests;
    expect(connect!.name).toBe('connect');
    expect(connect!.status).toBe('failed');
    expect(connect!.failures.join()).toMatch(/exited with code 3/);
    expect(connect!.evidence?.stderr).toContain('DATABASE_URL is not set');
    expect(echo!.status).toBe('skipped');
    expect(summarize([result], 0).exitCode).toBe(2);
  });

  it('a command that does not exist is a connection error, not a crash', async () => {
    const suite = parseYamlSuite(
      join(CORPUS_DIR, 'missing.mcp.yaml'),
      'server:\n  stdio: no-such-command-mcpengine-test\ntests:\n  - name: ping\n    ping: true\n',
    );
    const result = await runSuite(suite);
    expect(result.connectionError).toMatch(/cannot start no-such-command-mcpengine-test/);
  });

  it('a server that never answers the handshake fails within the startup time limit', async () => {
    const started = Date.now();
    const result = await runSuite(suiteFor('hostile/silent.mjs', '  startupTimeout: 1500\n'));
    expect(result.connectionError).toMatch(/cannot connect/);
    expect(Date.now() - started).toBeLessThan(20_000);
  });

  it('a server that floods stdout is stopped; the test fails with the reason and the next test gets a fresh server', async () => {
    const result = await runSuite(
      suiteFor(
        'hostile/floods.mjs',
        '',
        '  - name: echo floods\n    tool: echo\n    arguments: { text: hi }\n  - name: add still works\n    tool: add\n    arguments: { a: 1, b: 2 }\n    expect: { structuredContent: { sum: 3 } }\n',
      ),
    );
    const [flood, add] = result.tests;
    expect(flood!.status).toBe('failed');
    expect(flood!.failures.join('\n')).toMatch(
      /stopped by the runner: the server wrote 200 lines in a row to stdout that are not JSON-RPC messages/,
    );
    expect(add!.status).toBe('passed');
  });

  it('leaves no process behind, even a grandchild of a server that ignores SIGTERM and stdin closing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcpengine-reap-'));
    const pidsFile = join(dir, 'pids.json');
    const result = await runSuite(
      suiteFor('hostile/leaves-children.mjs', `  env: { PIDS_FILE: ${JSON.stringify(pidsFile)} }\n`),
    );
    expect(result.tests[0]!.status).toBe('passed');
    const pids = JSON.parse(readFileSync(pidsFile, 'utf8')) as { server: number; grandchild: number };
    expect(await gone(pids.server)).toBe(true);
    expect(await gone(pids.grandchild)).toBe(true);
  });
});
