/**
 * `--config` reload at the backend (no browser): the saved servers follow the file when it changes (also when an
 * editor replaces it) and on the page's Reload; bad content is reported and the previous list kept; the page can
 * never name another file, nor a command.
 */
import { mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfigTargets } from '../core/config-file.js';
import { startBackend, type RunningBackend } from './backend.js';

const ROOT = resolve(import.meta.dirname, '../../../..');
const SERVER = join(ROOT, 'servers/everything/dist/main.js');

let dir: string;
let file: string;
let backend: RunningBackend;

const config = (servers: Record<string, unknown>) => JSON.stringify({ mcpServers: servers });

interface State {
  targets: { name: string; target: { kind: string; command?: string } }[];
  targetName: string | null;
  connected: boolean;
  config: { path: string; error: string | null; reloads: number; servers: string[] } | null;
  error?: string;
}

async function api(path: string, body?: unknown): Promise<{ status: number; body: State }> {
  const response = await fetch(`${backend.origin}/api/${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: {
      authorization: `Bearer ${backend.token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: (await response.json()) as State };
}
const state = async () => (await api('state')).body;
const names = async () => (await state()).targets.map((named) => named.name);

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'inspect-config-'));
  file = join(dir, 'mcp.json');
  writeFileSync(
    file,
    config({
      everything: { command: process.execPath, args: [SERVER] },
      other: { command: process.execPath, args: [SERVER] },
    }),
  );
  backend = await startBackend({
    targets: loadConfigTargets('mcp.json', dir),
    configFile: { path: 'mcp.json', cwd: dir },
    initial: 'other',
    assetsDir: join(ROOT, 'packages/inspector/dist/ui'),
  });
});

afterAll(async () => {
  await backend?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the --config file, read again', () => {
  it('follows the file when it changes, also when an editor replaces it', async () => {
    expect(await names()).toEqual(['everything', 'other']);
    expect((await state()).config).toMatchObject({
      path: file,
      error: null,
      servers: ['everything', 'other'],
    });
    writeFileSync(
      file,
      config({
        everything: { command: process.execPath, args: [SERVER] },
        other: { command: process.execPath, args: [SERVER] },
        third: { url: 'http://127.0.0.1:9/mcp' },
      }),
    );
    await expect.poll(names, { timeout: 10_000 }).toEqual(['everything', 'other', 'third']);
    // Written to a copy, then renamed over the file (as editors do).
    const copy = join(dir, 'mcp.json.tmp');
    writeFileSync(
      copy,
      config({ everything: { command: process.execPath, args: [SERVER] }, other: { command: 'node' } }),
    );
    renameSync(copy, file);
    await expect.poll(names, { timeout: 10_000 }).toEqual(['everything', 'other']);
    expect((await state()).targets[1]!.target.command).toBe('node');
  });

  it('reports bad content clearly and keeps the previous list', async () => {
    const before = await state();
    writeFileSync(file, '{ "mcpServers": { "broken": ');
    await expect
      .poll(async () => (await state()).config?.error ?? '', { timeout: 10_000 })
      .toMatch(/^the config file .*mcp\.json is not JSON: [^\n]* \(the previous list of servers is kept\)$/);
    expect(await names()).toEqual(before.targets.map((named) => named.name));
    writeFileSync(file, config({ other: { url: 'ftp://example.com/' } }));
    await expect
      .poll(async () => (await state()).config?.error ?? '', { timeout: 10_000 })
      .toMatch(/server other: url must be http\(s\), got ftp:\/\/example\.com\/ \(the previous list/);
    expect(await names()).toEqual(before.targets.map((named) => named.name));
  });

  it('reloads on the page’s request, reading only the launch’s file; a server gone is left', async () => {
    // The page cannot name another file: whatever it sends, the launch's file is read.
    writeFileSync(
      file,
      config({
        everything: { command: process.execPath, args: [SERVER] },
        other: { command: process.execPath, args: [SERVER] },
      }),
    );
    writeFileSync(join(dir, 'other.json'), config({ evil: { command: 'touch', args: ['/tmp/pwned'] } }));
    const reloaded = await api('config/reload', { path: join(dir, 'other.json'), file: 'other.json' });
    expect(reloaded.status).toBe(200);
    expect(reloaded.body.config?.error).toBeNull();
    expect(reloaded.body.targets.map((named) => named.name)).toEqual(['everything', 'other']);
    // Nor a command: choosing a name that is not in the file is refused.
    expect((await api('target', { name: 'evil' })).status).toBe(404);
    // The server in use disappears from the file: the page is moved to the first one left.
    expect((await api('target', { name: 'other' })).status).toBe(200);
    writeFileSync(file, config({ everything: { command: process.execPath, args: [SERVER] } }));
    const after = await api('config/reload', {});
    expect(after.body.config?.error).toBeNull();
    expect(after.body.targets.map((named) => named.name)).toEqual(['everything']);
    expect(after.body.targetName).toBe('everything');
  });

  it('is refused when the inspector was started without --config', async () => {
    const plain = await startBackend({
      target: { kind: 'stdio', command: process.execPath, args: [SERVER] },
      assetsDir: join(ROOT, 'packages/inspector/dist/ui'),
    });
    try {
      const response = await fetch(`${plain.origin}/api/config/reload`, {
        method: 'POST',
        headers: { authorization: `Bearer ${plain.token}`, 'content-type': 'application/json' },
        body: '{}',
      });
      expect(response.status).toBe(409);
      expect(((await response.json()) as { error: string }).error).toMatch(/not started with --config/);
    } finally {
      await plain.close();
    }
  });
});
