/**
 * The examples of docs/add.md run as written (after `npm run build`), in a temporary home and project directory,
 * with "$PWD" standing for the repository as in the docs. Every message of the --verify handshake is checked
 * against the official schema of the negotiated revision.
 */
import { mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tapTransport, WireTap } from '@mcpengine/oracle';
import { splitCommandLine } from '@mcpengine/wire';
import { expect, it } from 'vitest';
import { runCli } from '../cli.js';
import type { CommandIo } from '../command.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../../..');

function examples(): string[] {
  const markdown = readFileSync(join(ROOT, 'docs', 'add.md'), 'utf8');
  const block = /```sh\n([\s\S]*?)```/.exec(markdown)?.[1] ?? '';
  return block.split('\n').filter((line) => line.startsWith('npx mcpengine '));
}

it('docs/add.md: every example command succeeds', async () => {
  const lines = examples();
  expect(lines.length).toBeGreaterThanOrEqual(8);
  const home = mkdtempSync(join(tmpdir(), 'mcpengine-docs-'));
  const project = join(home, 'project');
  mkdirSync(project);
  const tap = new WireTap();
  for (const line of lines) {
    const argv = splitCommandLine(line.replaceAll('"$PWD/', `"${ROOT}/`)).slice(2);
    let out = '';
    let err = '';
    const io: CommandIo & { wrapTransport: <T extends object>(transport: T) => T } = {
      stdout: (text) => void (out += text),
      stderr: (text) => void (err += text),
      env: { HOME: home, PATH: process.env['PATH'] },
      cwd: project,
      isTTY: false,
      signal: new AbortController().signal,
      wrapTransport: (transport) => tapTransport(transport as never, tap, 'client') as typeof transport,
    };
    const code = await runCli(argv, io);
    expect({ line, code, err }).toEqual({ line, code: 0, err: '' });
    if (line.includes('--verify')) expect(out).toContain('Verified: mcpengine-everything');
    if (line.includes('--json')) expect(JSON.parse(out)).toHaveProperty('servers');
  }
  expect(tap.violations).toEqual([]);
  expect(tap.revision).toBeDefined();
  expect(readFileSync(join(project, '.vscode', 'mcp.json'), 'utf8')).toContain(
    '"GITHUB_TOKEN": "${input:GITHUB_TOKEN}"',
  );
});
