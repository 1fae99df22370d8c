/**
 * `mcpengine test` end to end through the CLI frame: exit codes 0/1/2, the JSON and JUnit reports, malformed
 * files with positions, mcp-jest configs, and `--generate --write` whose file runs again as a test file.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../cli.js';

const CORPUS = resolve(import.meta.dirname, '../../../test-runner/corpus');
const node = JSON.stringify(process.execPath);

async function cli(args: string[], cwd: string): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runCli(['test', ...args], {
    stdout: (text) => void (out += text),
    stderr: (text) => void (err += text),
    env: { NO_COLOR: '1' },
    cwd,
    isTTY: false,
    signal: new AbortController().signal,
  });
  return { code, out, err };
}

function workspace(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'mcpengine-test-cli-'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

const suite = (server: string, expected: number) => `server:
  stdio: '${process.execPath} ${join(CORPUS, server)}'
timeout: 3000
tests:
  - name: add sums
    tool: add
    arguments: { a: 2, b: 3 }
    expect:
      structuredContent: { sum: ${expected} }
  - name: echo echoes
    tool: echo
    arguments: { text: hi }
    expect: { text: hi }
`;

describe('mcpengine test', () => {
  it('exit 0 when every test passes; the JSON and JUnit reports are written', async () => {
    const dir = workspace({ 'ok.mcp.yaml': suite('correct.mjs', 5) });
    const { code, out } = await cli(['--json', 'out/report.json', '--junit', 'out/junit.xml'], dir);
    expect(out).toMatch(/Tests: 2 passed, 0 failed \(1 file\)/);
    expect(code).toBe(0);
    const report = JSON.parse(readFileSync(join(dir, 'out/report.json'), 'utf8')) as {
      format: string;
      passed: number;
      exitCode: number;
    };
    expect(report).toMatchObject({ format: 'mcpengine-test-report', passed: 2, exitCode: 0 });
    expect(readFileSync(join(dir, 'out/junit.xml'), 'utf8')).toMatch(
      /<testsuite name="ok.mcp.yaml" [^>]*tests="2" failures="0"/,
    );
  }, 30_000);

  it('exit 1 on a failing test, which is shown with what was sent and received', async () => {
    const dir = workspace({ 'bad.mcp.yaml': suite('wrong-answer.mjs', 5) });
    const { code, out } = await cli(['bad.mcp.yaml', '--junit', 'junit.xml'], dir);
    expect(code).toBe(1);
    expect(out).toMatch(/✗ add sums .*bad\.mcp\.yaml:5:5/);
    expect(out).toMatch(/structuredContent\.sum: expected 5, got 6/);
    expect(out).toMatch(/sent: \{"method":"tools\/call"/);
    expect(readFileSync(join(dir, 'junit.xml'), 'utf8')).toMatch(
      /<testcase name="add sums"[^>]*><failure message="structuredContent\.sum: expected 5, got 6">/,
    );
  }, 30_000);

  it('exit 2 for a malformed file, with file:line:column', async () => {
    const dir = workspace({
      'broken.mcp.yaml':
        'server:\n  stdio: node x.js\ntests:\n  - name: x\n    tool: add\n    expect: { isEror: true }\n',
    });
    const { code, out } = await cli([], dir);
    expect(code).toBe(2);
    expect(out).toContain(`${join(dir, 'broken.mcp.yaml')}:6:15: unknown key "isEror" in tests.0.expect`);
  });

  it('exit 2 when the server cannot be reached', async () => {
    const dir = workspace({
      'gone.mcp.yaml': 'server:\n  stdio: no-such-server-binary\ntests:\n  - { name: ping, ping: true }\n',
    });
    const { code, out } = await cli(['gone.mcp.yaml'], dir);
    expect(code).toBe(2);
    expect(out).toMatch(/✗ connect .*cannot start no-such-server-binary/s);
  });

  it('--generate: exit 2 with one line when the server exits at startup', async () => {
    const dir = workspace({});
    const { code, err } = await cli(['--generate', '--stdio', `${process.execPath} -e process.exit(3)`], dir);
    expect(code).toBe(2);
    expect(err).toBe(
      'mcpengine test: cannot connect to the server: Cannot send initialize: the server exited with code 3\n',
    );
  });

  it('exit 2 for usage errors', async () => {
    const dir = workspace({});
    expect((await cli([], dir)).err).toMatch(/no test files/);
    expect((await cli(['--generate'], dir)).code).toBe(2);
    expect((await cli(['--generate'], dir)).err).toMatch(/--generate needs exactly one of --stdio and --url/);
    expect((await cli(['--stdio', 'node s.js'], dir)).err).toMatch(/--stdio goes with --generate/);
    expect((await cli(['x.mcp.yaml', '--jobs', '0'], dir)).err).toMatch(
      /--jobs needs a positive whole number/,
    );
    expect((await cli(['--generate', '--url', 'ftp://x'], dir)).err).toMatch(
      /--url must be an http\(s\) URL/,
    );
  });

  it('runs mcp-jest configs unchanged, failing isError results', async () => {
    const config = (server: string) =>
      JSON.stringify({
        server: { command: process.execPath, args: [join(CORPUS, server)] },
        tests: { tools: { echo: { args: { text: 'hi' }, expect: "content[0].text === 'hi'" } } },
      });
    const dir = workspace({
      'good.json': config('correct.mjs'),
      'flagged.json': config('error-flagged-success.mjs'),
    });
    expect((await cli(['--config', 'good.json'], dir)).code).toBe(0);
    const flagged = await cli(['--config', 'flagged.json'], dir);
    expect(flagged.code).toBe(1);
    expect(flagged.out).toMatch(/✗ tool echo[\s\S]*the tool reported an error \(isError: true\): "hi"/);
  }, 30_000);

  it('--generate finds definite defects (exit 1) and --write saves a test file that runs as is', async () => {
    const dir = workspace({});
    const broken = await cli(
      [
        '--generate',
        '--stdio',
        `${node} ${JSON.stringify(join(CORPUS, 'type-coercion.mjs'))}`,
        '--timeout',
        '3000',
      ],
      dir,
    );
    expect(broken.code).toBe(1);
    expect(broken.out).toMatch(/✗ add: a of the wrong type[\s\S]*success for invalid input/);

    const made = await cli(
      [
        '--generate',
        '--stdio',
        `${node} ${JSON.stringify(join(CORPUS, 'correct.mjs'))}`,
        '--write',
        'generated.mcp.yaml',
      ],
      dir,
    );
    expect(made.code).toBe(0);
    expect(made.out).toMatch(/Generated tests written to generated\.mcp\.yaml/);
    const written = readFileSync(join(dir, 'generated.mcp.yaml'), 'utf8');
    expect(written).toMatch(/^# Generated by `mcpengine test --generate`/);
    expect(written).toMatch(/rejectsInput: true/);
    const rerun = await cli(['generated.mcp.yaml'], dir);
    expect(rerun.out).toMatch(/Tests: \d+ passed, 0 failed/);
    expect(rerun.code).toBe(0);
  }, 60_000);
});
