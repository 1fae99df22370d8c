/**
 * The command end to end on corpus servers: report files, exit codes, and the tool-definition baseline.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CORPUS_DIR } from '@mcpengine/validator/corpus';
import { runCli } from '../cli.js';
import type { ValidationReport } from '@mcpengine/validator';

const work = mkdtempSync(join(tmpdir(), 'mcpengine-command-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

async function run(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(['validate', ...args], {
    stdout: (t) => void (stdout += t),
    stderr: (t) => void (stderr += t),
    env,
    cwd: process.cwd(),
    isTTY: false,
    signal: new AbortController().signal,
  });
  return { code, stdout, stderr };
}

const server = (file: string): string => `"${process.execPath}" "${join(CORPUS_DIR, file)}"`;

describe('mcpengine validate', () => {
  it('writes the three reports and exits 0 for a correct server', async () => {
    const [json, junit, html] = ['r.json', 'r.xml', 'r.html'].map((name) => join(work, 'reports', name));
    const { code, stdout, stderr } = await run([
      '--stdio',
      server('correct.mjs'),
      '--json',
      json!,
      '--junit',
      junit!,
      '--html',
      html!,
      '--no-color',
      '--timings',
    ]);
    expect(code).toBe(0);
    expect(stdout).toMatch(/PASS: no MUST failed/);
    // --timings: where the time went, on stderr only.
    expect(stderr).toMatch(/^timings: \d+ ms wall, validator CPU \d+ ms, \d+ connection\(s\) opened/);
    expect(stderr).toMatch(/\n {2}2025-11-25: \d+ ms \(at \d+ ms\), \d+ connection\(s\)\n/);
    expect(stderr).toMatch(/\n {4}lane robustness: \d+ ms/);
    expect(stdout).not.toContain('timings:');
    const report = JSON.parse(readFileSync(json!, 'utf8')) as ValidationReport;
    expect(report.revisions.map((r) => r.revision)).toEqual(['2026-07-28', '2025-11-25']);
    expect(report.server).toEqual({ name: 'corpus-server', version: '1.0.0' });
    expect(readFileSync(junit!, 'utf8')).toContain('<testsuites');
    expect(readFileSync(html!, 'utf8')).toContain('corpus-server');
  }, 120_000);

  it('exits 1 when a MUST fails, and shows the requirement and the exchange', async () => {
    const { code, stdout } = await run([
      '--stdio',
      server('notification-answered.mjs'),
      '--revision',
      '2025-11-25',
      '--no-color',
    ]);
    expect(code).toBe(1);
    // One finding per root cause: the check, the level, the revision, then the evidence and the spec sentence.
    expect(stdout).toContain('✗ MUST   jsonrpc.notification-unanswered (2025-11-25)');
    expect(stdout).toContain('the server answered a notification');
    expect(stdout).toContain('“The receiver MUST NOT send a response.”');
    expect(stdout).toContain('FAIL:');
  }, 120_000);

  it('records tool definitions, then reports the ones that changed', async () => {
    const baseline = join(work, 'baseline.json');
    const first = await run([
      '--stdio',
      server('correct.mjs'),
      '--revision',
      '2025-11-25',
      '--baseline',
      baseline,
    ]);
    expect(first.code).toBe(0);
    expect(existsSync(baseline)).toBe(true);
    const json = join(work, 'changed.json');
    const second = await run([
      '--stdio',
      server('tool-hidden-instructions.mjs'),
      '--revision',
      '2025-11-25',
      '--baseline',
      baseline,
      '--json',
      json,
    ]);
    expect(second.code).toBe(0);
    const report = JSON.parse(readFileSync(json, 'utf8')) as ValidationReport;
    const changed = report.revisions[0]!.advisory.find((a) => a.check.id === 'security.definition-changed')!;
    expect(changed.verdict).toBe('warning');
    expect(changed.message).toBe('changed: echo');
  }, 120_000);

  it('never prints the bearer token', async () => {
    const { code, stdout, stderr } = await run(
      ['--url', 'http://127.0.0.1:9/mcp', '--bearer-env', 'TOKEN', '--timeout', '500'],
      { TOKEN: 'secret-token-value' },
    );
    expect(code).toBe(2);
    expect(`${stdout}${stderr}`).not.toContain('secret-token-value');
  });

  it('prints its usage for --help, and a usage error with exit 2', async () => {
    expect((await run(['--help'])).stdout).toContain('Usage: mcpengine validate');
    const bad = await run(['--stdio']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('mcpengine validate: --stdio needs a value');
  });
});
