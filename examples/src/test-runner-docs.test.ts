/**
 * docs/test-runner.md: each block tagged `<!-- example: <file> -->` is part of that file, the embedded JSON Schema is
 * the published one, and the examples run — the YAML file and the mcp-jest config through `mcpengine test`, and
 * `--generate` against the weather server (the Vitest example runs as examples/src/weather.test.ts).
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const DOC = readFileSync(join(ROOT, 'docs/test-runner.md'), 'utf8');
const lines = (text: string) =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');

async function mcpengine(args: string[], cwd: string): Promise<{ code: number; stdout: string }> {
  try {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [join(ROOT, 'packages/cli/bin/mcpengine.js'), 'test', ...args],
      { cwd },
    );
    return { code: 0, stdout };
  } catch (error) {
    const failure = error as { code: number; stdout: string };
    return { code: failure.code, stdout: failure.stdout };
  }
}

describe('docs/test-runner.md', () => {
  const blocks = [...DOC.matchAll(/<!-- example: (\S+) -->\s*```\w+\n([\s\S]*?)```/g)].map((m) => ({
    file: m[1]!,
    code: m[2]!,
  }));

  it('tags its examples with the files they come from', () => {
    expect(blocks.map((b) => b.file)).toEqual([
      'examples/test/weather.mcp.yaml',
      'servers/everything/test/resources.mcp.yaml',
      'examples/test/mcp-jest.json',
      'examples/src/weather.test.ts',
    ]);
  });

  it.each(blocks.map((b, i) => [i + 1, b.file, b.code] as const))(
    'block %i is a part of %s',
    (_i, file, code) => {
      expect(lines(readFileSync(join(ROOT, file), 'utf8')).join('\n')).toContain(lines(code).join('\n'));
    },
  );

  it('embeds the published JSON Schema of test files', () => {
    const embedded = /<!-- schema: (\S+) -->\s*```json\n([\s\S]*?)```/.exec(DOC);
    expect(embedded?.[1]).toBe('packages/test-runner/schema/test-file.schema.json');
    expect(JSON.parse(embedded![2]!)).toEqual(JSON.parse(readFileSync(join(ROOT, embedded![1]!), 'utf8')));
  });

  it('the YAML example passes', async () => {
    const { code, stdout } = await mcpengine(['weather.mcp.yaml'], join(ROOT, 'examples/test'));
    expect(stdout).toMatch(/Tests: 10 passed, 0 failed \(1 file\)/);
    expect(code).toBe(0);
  }, 60_000);

  it('the mcp-jest example passes', async () => {
    const { code, stdout } = await mcpengine(['--config', 'mcp-jest.json'], join(ROOT, 'examples/test'));
    expect(stdout).toMatch(/Tests: 2 passed, 0 failed/);
    expect(code).toBe(0);
  }, 60_000);

  it('--generate finds no defect in the weather server', async () => {
    const { code, stdout } = await mcpengine(
      ['--generate', '--stdio', `${process.execPath} ${join(ROOT, 'examples/dist/weather-server.js')}`],
      ROOT,
    );
    expect(stdout).toMatch(/Tests: \d+ passed, 0 failed/);
    expect(code).toBe(0);
  }, 60_000);
});
