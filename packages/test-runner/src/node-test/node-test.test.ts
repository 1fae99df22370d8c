/** The node:test API, run as Node runs it: `node --test` on a file that uses it against the everything server. */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..', '..', '..');

describe('node:test API', () => {
  it('passes what holds and fails what does not, with the reason', async () => {
    const run = promisify(execFile)(
      process.execPath,
      ['--test', '--test-reporter=tap', join(import.meta.dirname, 'fixture.mjs')],
      {
        env: { ...process.env, EVERYTHING: join(ROOT, 'servers/everything/dist/main.js') },
        cwd: ROOT,
      },
    );
    const output = await run.then(
      (r) => r.stdout,
      (error: { stdout: string; code: number }) => {
        expect(error.code).toBe(1);
        return error.stdout;
      },
    );
    expect(output).toMatch(/^ok \d+ - add$/m);
    expect(output).toMatch(/^ok \d+ - tool error$/m);
    expect(output).toMatch(/^ok \d+ - invalid input$/m);
    expect(output).toMatch(/^ok \d+ - unknown tool$/m);
    expect(output).toMatch(/^ok \d+ - text$/m);
    expect(output).toMatch(/^not ok \d+ - a failing assertion fails$/m);
    expect(output).toMatch(/structuredContent\.sum: expected 4, got 3/);
    expect(output).toMatch(/^# pass 5$/m);
    expect(output).toMatch(/^# fail 1$/m);
  }, 60_000);
});
