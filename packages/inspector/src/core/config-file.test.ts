/**
 * Saved servers (`--config <file> [--server <name>]`): the official Inspector's config shape, read strictly;
 * the command-line mode picks one; the web backend offers them by name and nothing else.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseInspectArguments } from '../cli/arguments.js';
import { runInspectCli } from '../cli/run-cli.js';
import { startBackend } from '../web/backend.js';
import { ConfigFileError, loadConfigTargets } from './config-file.js';

const ROOT = resolve(import.meta.dirname, '../../../..');
const SERVER = join(ROOT, 'servers/everything/dist/main.js');
const dir = mkdtempSync(join(tmpdir(), 'inspector-config-'));
mkdirSync(join(dir, 'sub'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function write(name: string, value: unknown): string {
  const path = join(dir, name);
  writeFileSync(path, typeof value === 'string' ? value : JSON.stringify(value));
  return path;
}

const CONFIG = write('servers.json', {
  mcpServers: {
    everything: { command: process.execPath, args: [SERVER], env: { DEBUG: '0' }, cwd: 'sub' },
    remote: { type: 'streamable-http', url: 'https://example.com/mcp', headers: { 'X-Team': 'a' } },
  },
});

async function cli(argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await runInspectCli(parseInspectArguments(argv), {
    stdout: (text) => (stdout += text),
    stderr: (text) => (stderr += text),
    cwd: dir,
    signal: new AbortController().signal,
  });
  return { code, stdout, stderr };
}

describe('the config file of saved servers', () => {
  it('reads stdio and HTTP servers (cwd relative to the file)', () => {
    expect(loadConfigTargets(CONFIG, '/')).toEqual([
      {
        name: 'everything',
        target: {
          kind: 'stdio',
          command: process.execPath,
          args: [SERVER],
          env: { DEBUG: '0' },
          cwd: join(dir, 'sub'),
        },
      },
      {
        name: 'remote',
        target: {
          kind: 'http',
          url: 'https://example.com/mcp',
          transport: 'streamable-http',
          headers: { 'X-Team': 'a' },
        },
      },
    ]);
  });

  it('refuses what it cannot use, saying where', () => {
    const bad = (value: unknown) => () => loadConfigTargets(write('bad.json', value), dir);
    expect(bad('{ nope')).toThrow(ConfigFileError);
    expect(bad({})).toThrow(/no "mcpServers"/);
    expect(bad({ mcpServers: { a: {} } })).toThrow(/server a needs a "command"/);
    expect(bad({ mcpServers: { a: { url: 'file:///etc/passwd' } } })).toThrow(/url must be http/);
    expect(bad({ mcpServers: { a: { url: 'https://x.example', type: 'ws' } } })).toThrow(/type must be/);
    expect(bad({ mcpServers: { a: { command: 'x', args: [1] } } })).toThrow(
      /args must be an array of strings/,
    );
    expect(() => loadConfigTargets(join(dir, 'missing.json'), dir)).toThrow(/cannot read/);
  });

  it('runs the command-line mode against --server of --config, and refuses an ambiguous or unknown choice', async () => {
    const listed = await cli([
      '--cli',
      '--config',
      CONFIG,
      '--server',
      'everything',
      '--method',
      'prompts/list',
    ]);
    expect(listed.code).toBe(0);
    expect(JSON.parse(listed.stdout)).toMatchObject({ prompts: expect.arrayContaining([expect.anything()]) });
    const ambiguous = await cli(['--cli', '--config', CONFIG, '--method', 'tools/list']);
    expect(ambiguous.code).toBe(1);
    expect(ambiguous.stderr).toMatch(/pick one with --server \(everything, remote\)/);
    const unknown = await cli(['--cli', '--config', CONFIG, '--server', 'nope', '--method', 'tools/list']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/--server nope is not in/);
  });

  it('lets the web page choose among the saved servers by name only', async () => {
    const backend = await startBackend({
      targets: loadConfigTargets(CONFIG, dir),
      initial: 'remote',
      assetsDir: join(ROOT, 'packages/inspector/dist/ui'),
    });
    try {
      const call = (path: string, body?: unknown) =>
        fetch(`${backend.origin}/api/${path}`, {
          method: body === undefined ? 'GET' : 'POST',
          headers: { authorization: `Bearer ${backend.token}`, 'content-type': 'application/json' },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        });
      const state = (await (await call('state')).json()) as Record<string, unknown>;
      expect(state['targetName']).toBe('remote');
      // Header and environment values stay in the backend.
      expect(state['targets']).toEqual([
        { name: 'everything', target: expect.objectContaining({ kind: 'stdio', env: ['DEBUG'] }) },
        { name: 'remote', target: expect.objectContaining({ kind: 'http', headers: ['X-Team'] }) },
      ]);
      const chosen = await call('target', { name: 'everything' });
      expect(((await chosen.json()) as Record<string, unknown>)['targetName']).toBe('everything');
      expect((await call('target', { name: 'node -e "evil()"' })).status).toBe(404);
      expect((await call('target', { command: 'evil' })).status).toBe(404);
    } finally {
      await backend.close();
    }
  });
});
