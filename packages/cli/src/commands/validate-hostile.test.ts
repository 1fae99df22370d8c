/**
 * The validator's own robustness: servers that hang, crash, flood, talk garbage, die mid-request or cut their
 * streams get failing verdicts with evidence, the command exits cleanly (1), and no process outlives it.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CORPUS_DIR, startHttpServer } from '@mcpengine/validator/corpus';
import { runCli } from '../cli.js';
import type { ValidationReport } from '@mcpengine/validator';
import { trackedGroupCount } from '@mcpengine/wire';

const HOSTILE = join(CORPUS_DIR, 'hostile');
const work = mkdtempSync(join(tmpdir(), 'mcpengine-hostile-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

async function validate(args: string[]): Promise<{ code: number; report: ValidationReport; stdout: string }> {
  const json = join(work, `report-${Math.random().toString(36).slice(2)}.json`);
  let stdout = '';
  const code = await runCli(['validate', ...args, '--timeout', '1000', '--json', json], {
    stdout: (text) => void (stdout += text),
    stderr: () => {},
    env: {},
    cwd: process.cwd(),
    isTTY: false,
    signal: new AbortController().signal,
  });
  return { code, report: JSON.parse(readFileSync(json, 'utf8')) as ValidationReport, stdout };
}

function failing(report: ValidationReport): string[] {
  return [
    ...new Set(
      report.revisions.flatMap((r) =>
        Object.entries(r.checks)
          .filter(([, o]) => o.status === 'fail')
          .map(([id]) => id),
      ),
    ),
  ].sort();
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

const stdio = (file: string): string => `"${process.execPath}" "${join(HOSTILE, file)}"`;
/** Starts a hostile HTTP server of the corpus and waits for its URL. */
const startHostileHttp = (file: string) =>
  startHttpServer(process.execPath, [join(HOSTILE, file)], /hostile server on (\S+)/);

describe('hostile stdio servers', () => {
  it('a server that never answers fails the handshake', async () => {
    const { code, report } = await validate(['--stdio', stdio('never-answers.mjs')]);
    expect(code).toBe(1);
    expect(failing(report)).toEqual([
      'lifecycle.initialize-result',
      'lifecycle.ping-before-initialize',
      'lifecycle.request-before-initialize',
      'lifecycle.version-malformed',
      'lifecycle.version-unsupported',
    ]);
    expect(report.notes).toEqual([
      'the server negotiated no protocol revision; the handshake results are reported under 2025-11-25',
    ]);
    expect(trackedGroupCount()).toBe(0);
  }, 60_000);

  it('a server that crashes at start fails with its exit status and stderr as evidence', async () => {
    const { code, report } = await validate(['--stdio', stdio('crashes-at-start.mjs')]);
    expect(code).toBe(1);
    const initialize = report.revisions[0]!.requirements.find(
      (v) => v.requirement.id === 'lifecycle-f65a1a0e',
    )!;
    expect(initialize.verdict).toBe('fail');
    expect(
      initialize.evidence.some(
        (e) => e.received?.includes('exited with code 3; stderr: fatal: cannot load configuration') === true,
      ),
    ).toBe(true);
    expect(trackedGroupCount()).toBe(0);
  }, 60_000);

  it('garbage on stdout fails the stdout rule and the handshake', async () => {
    const { code, report } = await validate(['--stdio', stdio('garbage.mjs')]);
    expect(code).toBe(1);
    expect(failing(report)).toContain('stdio.stdout-messages-only');
    expect(failing(report)).toContain('lifecycle.initialize-result');
    const stdout = report.revisions[0]!.requirements.find((v) => v.requirement.id === 'transports-4b24da74')!;
    expect(stdout.verdict).toBe('fail');
    expect(stdout.evidence[0]!.received).toContain('garbage 1 {not json');
  }, 60_000);

  it('a server that dies in the middle of a response fails the requests it left unanswered', async () => {
    const { code, report } = await validate([
      '--stdio',
      stdio('dies-after-initialize.mjs'),
      '--revision',
      '2025-11-25',
    ]);
    expect(code).toBe(1);
    const checks = report.revisions[0]!.checks;
    expect(checks['lifecycle.initialize-result']!.status).toBe('pass');
    expect(checks['lifecycle.ping']!.status).toBe('fail');
    expect(checks['lifecycle.ping']!.message).toContain('exited with code 1');
    expect(trackedGroupCount()).toBe(0);
  }, 60_000);

  it('a server that ignores stdin closing and SIGTERM is killed with its children', async () => {
    const pidFile = join(work, 'immortal.pids');
    const { code } = await validate(['--stdio', stdio('immortal.mjs'), '--env', `PID_FILE=${pidFile}`]);
    expect(code).toBe(1);
    const pids = readFileSync(pidFile, 'utf8').trim().split('\n').map(Number);
    expect(pids.length).toBeGreaterThanOrEqual(2);
    expect(pids.filter(alive)).toEqual([]);
    expect(trackedGroupCount()).toBe(0);
  }, 60_000);

  it('an endless line on stdout is cut and reported', async () => {
    const { code, report } = await validate(['--stdio', stdio('floods-at-start.mjs')]);
    expect(code).toBe(1);
    const checks = report.revisions[0]!.checks;
    expect(checks['stdio.bounded-output']!.status).toBe('fail');
    expect(checks['stdio.bounded-output']!.message).toBe(
      'the server wrote a line longer than 8388608 bytes to stdout; it was stopped',
    );
    expect(checks['stdio.stdout-messages-only']!.status).toBe('fail');
    expect(checks['lifecycle.initialize-result']!.status).toBe('fail');
    expect(trackedGroupCount()).toBe(0);
  }, 60_000);

  it('a command that cannot be started is a usage error (exit 2)', async () => {
    let stderr = '';
    const code = await runCli(['validate', '--stdio', join(work, 'no-such-command')], {
      stdout: () => {},
      stderr: (t) => void (stderr += t),
      env: {},
      cwd: process.cwd(),
      isTTY: false,
      signal: new AbortController().signal,
    });
    expect(code).toBe(2);
    expect(stderr).toContain('cannot start the server');
  });
});

describe('hostile HTTP servers', () => {
  it('a server that accepts connections and never answers fails the handshake', async () => {
    const server = await startHostileHttp('http-hangs.mjs');
    try {
      const { code, report } = await validate(['--url', server.url, '--transport', 'streamable-http']);
      expect(code).toBe(1);
      expect(failing(report)).toEqual([
        'lifecycle.initialize-result',
        'lifecycle.version-malformed',
        'lifecycle.version-unsupported',
      ]);
      expect(report.revisions[0]!.checks['lifecycle.initialize-result']!.message).toContain(
        'no response within',
      );
    } finally {
      await server.stop();
    }
  }, 60_000);

  it('a server that cuts its event streams mid-event fails the handshake with the partial stream as evidence', async () => {
    const server = await startHostileHttp('http-cuts-stream.mjs');
    try {
      const { code, report } = await validate(['--url', server.url, '--transport', 'streamable-http']);
      expect(code).toBe(1);
      const initialize = report.revisions[0]!.requirements.find(
        (v) => v.requirement.id === 'lifecycle-f65a1a0e',
      )!;
      expect(initialize.verdict).toBe('fail');
      expect(initialize.evidence[0]!.received).toContain('data: {"jsonrpc":"2.0","id":');
    } finally {
      await server.stop();
    }
  }, 60_000);

  it('an endpoint nobody listens on is a connection error (exit 2)', async () => {
    let stderr = '';
    const code = await runCli(['validate', '--url', 'http://127.0.0.1:9/mcp', '--timeout', '1000'], {
      stdout: () => {},
      stderr: (t) => void (stderr += t),
      env: {},
      cwd: process.cwd(),
      isTTY: false,
      signal: new AbortController().signal,
    });
    expect(code).toBe(2);
    expect(stderr).toContain('mcpengine validate:');
  });
});
