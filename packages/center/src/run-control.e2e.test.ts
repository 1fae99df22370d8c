/**
 * Cancel and resume from the dashboard, and App previews that end with their tab, end to end in headless
 * Chromium. The cancelled run is held at a known stage by a gate: the fixture server's `wait_for_gate` tool
 * (called by its recorded test) answers only once the test creates the gate file, and marks when it is waiting.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STAGES } from './stages.js';
import { startCenter, type RunningCenter } from './start.js';
import { chromiumForFile } from './test/browser.js';
import { EVERYTHING_MAIN } from './test/fixture-fleet.js';

const ENGINE = resolve(fileURLToPath(new URL('../../mcpengine/dist', import.meta.url)));

const browser = chromiumForFile();

describe('cancel and resume from the run page', () => {
  let root: string;
  let dir: string;
  let center: RunningCenter;

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'mcpengine-center-cancel-'));
    dir = join(root, 'servers', 'gated');
    mkdirSync(join(dir, 'test'), { recursive: true });
    mkdirSync(join(dir, 'src'), { recursive: true });
    const server = pathToFileURL(join(ENGINE, 'server', 'index.js')).href;
    const stdio = pathToFileURL(join(ENGINE, 'transports', 'stdio', 'index.js')).href;
    writeFileSync(
      join(dir, 'main.mjs'),
      [
        "import { existsSync, writeFileSync } from 'node:fs';",
        `import { exitWhenClosed, McpServer } from ${JSON.stringify(server)};`,
        `import { serveStdio } from ${JSON.stringify(stdio)};`,
        "const server = new McpServer({ name: 'gated', version: '1.0.0' });",
        'server.addTool({',
        "  name: 'echo',",
        "  description: 'Echoes its text back; use it to check that the server answers.',",
        "  inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'], additionalProperties: false },",
        '  annotations: { readOnlyHint: true },',
        '  handler: async ({ text }) => text,',
        '});',
        // Not read-only: the validator does not call it, only the recorded test does.
        'server.addTool({',
        "  name: 'wait_for_gate',",
        "  description: 'Waits until the gate file exists, then answers open; use it to hold a test run.',",
        "  inputSchema: { type: 'object', additionalProperties: false },",
        '  annotations: { readOnlyHint: false, destructiveHint: false },',
        '  handler: async () => {',
        "    writeFileSync('waiting', '');",
        "    while (!existsSync('gate')) await new Promise((wait) => setTimeout(wait, 50));",
        "    return 'open';",
        '  },',
        '});',
        'exitWhenClosed(await serveStdio(server));',
        '',
      ].join('\n'),
    );
    writeFileSync(
      join(dir, 'fleet.json'),
      JSON.stringify({
        name: 'gated',
        title: 'Gated',
        description: 'A server whose recorded test waits for a gate file.',
        origin: 'handwritten',
        stdio: 'node main.mjs',
        tests: 'test',
        serverJson: 'server.json',
      }),
    );
    writeFileSync(
      join(dir, 'test', 'gate.mcp.yaml'),
      [
        'name: gate',
        'server:',
        '  stdio: node ../main.mjs',
        'tests:',
        '  - name: the gate opens',
        '    tool: wait_for_gate',
        '    arguments: {}',
        '    timeout: 600000',
        '    expect:',
        '      text: open',
        '',
      ].join('\n'),
    );
    writeFileSync(
      join(dir, 'server.json'),
      JSON.stringify({
        $schema: 'https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json',
        name: 'io.github.mcpengine/gated',
        description: 'A server whose recorded test waits for a gate file',
        version: '0.1.0',
        packages: [
          {
            registryType: 'npm',
            identifier: '@mcpengine/gated',
            version: '0.1.0',
            transport: { type: 'stdio' },
          },
        ],
      }),
    );
    center = await startCenter({
      root,
      port: 0,
      run: false,
      timeoutMs: 10_000,
      stdout: () => undefined,
      stderr: () => undefined,
    });
  }, 90_000);

  afterAll(async () => {
    // Whatever happened, let a waiting test finish so the server exits.
    if (dir !== undefined) writeFileSync(join(dir, 'test', 'gate'), '');
    await center?.stop();
    if (root !== undefined) rmSync(root, { recursive: true, force: true });
  });

  it('cancels a run with the button, resumes it with the button, and loses or repeats no stage', async () => {
    const page = await browser().newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    try {
      await page.goto(center.url);
      await page.locator('#fleet').getByRole('link', { name: 'gated' }).waitFor();
      await page.getByRole('button', { name: 'Run pipeline' }).click();
      await page.waitForURL(/#\/run\//);
      const runId = decodeURIComponent(/#\/run\/(.+)$/.exec(page.url())![1]!);

      // The tests stage is under way and held by the gate (the test's server runs in the test folder).
      await expect.poll(() => existsSync(join(dir, 'test', 'waiting')), { timeout: 120_000 }).toBe(true);
      await page.locator('#run-grid td', { hasText: 'running…' }).waitFor();
      const before = await center.store.runResults(runId);
      // (Sorted: stages that end in the same millisecond come back in either order.)
      expect(before.map((result) => result.stage).sort()).toEqual(
        ['described', 'generated', 'builds', 'validates'].sort(),
      );

      await page.getByRole('button', { name: 'Cancel' }).click();
      await page.locator('#run-status', { hasText: 'cancelled' }).waitFor({ timeout: 60_000 });
      expect((await center.store.getRun(runId))?.status).toBe('cancelled');
      // The stage cut short left no result; the finished ones are kept.
      const key = (result: { stage: string }): string => result.stage;
      const sorted = <T extends { stage: string }>(results: T[]): T[] =>
        [...results].sort((a, b) => key(a).localeCompare(key(b)));
      expect(sorted(await center.store.runResults(runId))).toEqual(sorted(before));
      expect(await page.locator('#run-progress').getAttribute('value')).toBe('4');

      writeFileSync(join(dir, 'test', 'gate'), '');
      await page.getByRole('button', { name: 'Resume' }).click();
      await page.locator('#run-status', { hasText: 'done' }).waitFor({ timeout: 120_000 });
      expect(await page.locator('#run-progress').getAttribute('value')).toBe(String(STAGES.length));

      // Every stage once: the four kept as they were (same row, not run again), the rest run on resume.
      const after = await center.store.runResults(runId);
      expect(after.map((result) => result.stage).sort()).toEqual([...STAGES].sort());
      for (const kept of before) expect(after.find((result) => result.stage === kept.stage)).toEqual(kept);
      const tests = after.find((result) => result.stage === 'tests')!;
      expect(tests.verdict).toBe('pass');
      expect(tests.finishedAt).toBeGreaterThan(Math.max(...before.map((result) => result.finishedAt)));
      expect((await center.store.getRun(runId))?.status).toBe('done');
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  }, 300_000);
});

describe('an App preview ends with its tab', () => {
  let root: string;
  let pids: string;
  let center: RunningCenter;

  const alive = (pid: number): boolean => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  const started = (): number[] =>
    existsSync(pids) ? readFileSync(pids, 'utf8').trim().split('\n').map(Number) : [];

  beforeAll(async () => {
    // The everything server, behind a wrapper that notes the pid of every process the center starts.
    root = mkdtempSync(join(tmpdir(), 'mcpengine-center-preview-'));
    const dir = join(root, 'servers', 'everything');
    mkdirSync(dir, { recursive: true });
    pids = join(root, 'pids');
    writeFileSync(
      join(dir, 'main.mjs'),
      `import { appendFileSync } from 'node:fs';\nappendFileSync(${JSON.stringify(pids)}, process.pid + '\\n');\nawait import(${JSON.stringify(pathToFileURL(EVERYTHING_MAIN).href)});\n`,
    );
    writeFileSync(
      join(dir, 'fleet.json'),
      JSON.stringify({
        name: 'everything',
        title: 'Everything',
        description: 'The reference server and its chart app.',
        origin: 'handwritten',
        stdio: 'node main.mjs',
        apps: true,
      }),
    );
    center = await startCenter({
      root,
      port: 0,
      run: false,
      timeoutMs: 15_000,
      previewGraceMs: 500,
      stdout: () => undefined,
      stderr: () => undefined,
    });
  }, 90_000);

  afterAll(async () => {
    await center?.stop();
    if (root !== undefined) rmSync(root, { recursive: true, force: true });
  });

  it('closes the preview and its server process once the tab is closed', async () => {
    const page = await browser().newPage();
    await page.goto(`${center.url}#/server/everything`);
    const views = page.locator('#app-views');
    await views.waitFor({ timeout: 30_000 });
    await views.getByRole('button', { name: 'Preview' }).click();
    await expect
      .poll(() => page.getByTestId('app-status').textContent(), { timeout: 30_000 })
      .toMatch(/initialized/);
    expect(center.previews.openPreviews).toHaveLength(1);
    // The listing's connections are closed already; the preview's server (the last one started) runs.
    const preview = started().at(-1)!;
    await expect.poll(() => started().filter(alive)).toEqual([preview]);

    await page.close();
    await expect.poll(() => center.previews.openPreviews, { timeout: 30_000 }).toEqual([]);
    await expect.poll(() => alive(preview), { timeout: 30_000 }).toBe(false);
    expect(started().filter(alive)).toEqual([]);
  }, 120_000);
});
