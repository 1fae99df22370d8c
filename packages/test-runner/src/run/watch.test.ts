/** `--watch`: a change to a test file runs it again; interrupting ends the watch with the last run's exit code. */
import { appendFileSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CORPUS_DIR } from '../test/corpus.js';
import { watchRuns } from './watch.js';

describe('--watch', () => {
  it('runs again when a test file changes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcpengine-watch-'));
    const file = join(dir, 'echo.mcp.yaml');
    writeFileSync(
      file,
      `server:\n  command: ${JSON.stringify(process.execPath)}\n  args: [${JSON.stringify(join(CORPUS_DIR, 'correct.mjs'))}]\ntests:\n  - name: echo\n    tool: echo\n    arguments: { text: hi }\n    expect: { text: hi }\n`,
    );
    let out = '';
    const interrupt = new AbortController();
    const runs = () => (out.match(/Tests: /g) ?? []).length;
    const until = async (condition: () => boolean) => {
      for (let i = 0; i < 200 && !condition(); i++) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(condition()).toBe(true);
    };
    const watching = watchRuns(
      { files: [file], color: false },
      {
        stdout: (text) => void (out += text),
        stderr: (text) => void (out += text),
        cwd: dir,
        isTTY: false,
        signal: interrupt.signal,
      },
      [],
    );
    await until(() => out.includes('Watching 1 path(s)'));
    expect(runs()).toBe(1);
    appendFileSync(file, '# touched\n');
    await until(() => runs() === 2 && out.includes('Watching for changes (Ctrl-C to stop).'));
    expect(out).toContain('Change detected: running again…');
    interrupt.abort();
    expect(await watching).toBe(0);
  }, 30_000);
});
