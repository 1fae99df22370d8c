/**
 * `mcpengine center` through the CLI frame: usage errors exit 2, `center add` records an external server in the
 * project's store and exits, and the center serves on the port it printed until interrupted, then exits 0.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openStore } from '@mcpengine/store';
import { runCli } from '../cli.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function project(): string {
  const dir = mkdtempSync(join(tmpdir(), 'mcpengine-center-cli-'));
  dirs.push(dir);
  return dir;
}

function cli(args: string[], cwd: string, signal = new AbortController().signal) {
  const output = { out: '', err: '' };
  const code = runCli(['center', ...args], {
    stdout: (text) => void (output.out += text),
    stderr: (text) => void (output.err += text),
    env: {},
    cwd,
    isTTY: false,
    signal,
  });
  return { code, output };
}

describe('mcpengine center', () => {
  it('rejects bad options with exit code 2', async () => {
    const cwd = project();
    expect(await cli(['--port', 'abc'], cwd).code).toBe(2);
    expect(await cli(['--port', '70000'], cwd).code).toBe(2);
    expect(await cli(['add'], cwd).code).toBe(2);
    expect(await cli(['remove'], cwd).code).toBe(2);
    const bad = cli(['add', '--url', 'ftp://example.com/mcp'], cwd);
    expect(await bad.code).toBe(2);
    expect(bad.output.err).toMatch(/http or https/);
  });

  it('adds an external server to the project store and exits', async () => {
    const cwd = project();
    const run = cli(
      ['add', '--stdio', 'npx -y @modelcontextprotocol/server-memory', '--name', 'memory'],
      cwd,
    );
    expect(await run.code).toBe(0);
    expect(run.output.out).toBe('');
    const store = await openStore({ sqlitePath: join(cwd, '.mcpengine', 'center.db') });
    try {
      expect((await store.listServers()).map((s) => [s.name, s.kind, s.manifest['stdio']])).toEqual([
        ['memory', 'external', 'npx -y @modelcontextprotocol/server-memory'],
      ]);
    } finally {
      await store.close();
    }
  });

  it('serves on the printed URL until interrupted', async () => {
    const cwd = project();
    const interrupt = new AbortController();
    const run = cli(['--port', '0', '--no-run'], cwd, interrupt.signal);
    while (!run.output.out.includes('\n')) await new Promise((resolve) => setTimeout(resolve, 50));
    const url = new URL(run.output.out.trim());
    expect(url.hostname).toBe('127.0.0.1');
    const overview = await fetch(new URL(`/api/overview?token=${url.searchParams.get('token')}`, url));
    expect(overview.status).toBe(200);
    expect((await overview.json()) as object).toMatchObject({ servers: [], runs: [] });
    interrupt.abort();
    expect(await run.code).toBe(0);
  });
});
