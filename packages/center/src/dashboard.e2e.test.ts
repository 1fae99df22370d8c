/**
 * The dashboard end to end in headless Chromium (Debian's, driven by playwright-core): the fleet table, a run
 * started from the page with live progress over the event stream, the server page with verdicts and evidence,
 * keyboard navigation, and no data without the token.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCenter, type RunningCenter } from './start.js';
import { chromiumForFile } from './test/browser.js';
import { createFixtureFleet, EVERYTHING_MAIN, type FixtureFleet } from './test/fixture-fleet.js';

const browser = chromiumForFile();

describe('dashboard in headless Chromium', () => {
  let fleet: FixtureFleet;
  let center: RunningCenter;

  beforeAll(async () => {
    fleet = createFixtureFleet(['broken']);
    center = await startCenter({
      root: fleet.root,
      port: 0,
      run: false,
      timeoutMs: 10_000,
      stdout: () => undefined,
      stderr: () => undefined,
    });
  }, 90_000);

  afterAll(async () => {
    await center?.stop();
    fleet?.cleanup();
  });

  it('runs the pipeline from the page and shows live progress, verdicts and evidence', async () => {
    const page = await browser().newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(center.url);
    await page.locator('#fleet').getByRole('link', { name: 'broken' }).waitFor();
    expect(await page.locator('#fleet tbody tr').count()).toBe(1);

    await page.getByRole('button', { name: 'Run pipeline' }).click();
    await page.waitForURL(/#\/run\//);
    // The run page follows the event stream: it reaches "done" without a reload.
    await page.locator('#run-status', { hasText: 'done' }).waitFor({ timeout: 60_000 });
    const grid = await page.locator('#run-grid').innerText();
    expect(grid).toMatch(/described\s/);
    expect(grid).toMatch(/fail/);
    expect(await page.locator('#run-progress').getAttribute('value')).toBe('8');

    await page.locator('#run-grid').getByRole('link', { name: 'broken' }).click();
    await page.locator('#verdicts').waitFor();
    const verdicts = await page.locator('#verdicts').innerText();
    expect(verdicts).toMatch(/packaged\s+fail/);
    expect(verdicts).toMatch(/validates\s+fail/);
    // Stages in pipeline order, and absent sections leave no stray text.
    expect(verdicts.indexOf('described')).toBeLessThan(verdicts.indexOf('generated'));
    expect(await page.locator('main').innerText()).not.toMatch(/^(null|undefined|false)$/m);
    await page.locator('#verdicts details summary').first().click();
    expect(await page.locator('#verdicts pre').first().innerText()).toContain('"manifest"');

    // Back to the fleet from the keyboard, on a freshly loaded page: Tab reaches the skip link, then the header
    // link, which follows on Enter.
    await page.reload();
    await page.locator('#verdicts').waitFor();
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    expect(await page.evaluate('document.activeElement?.textContent')).toBe('MCPEngine command center');
    await page.keyboard.press('Enter');
    await page.locator('#fleet').waitFor();
    expect(await page.locator('#fleet').innerText()).toMatch(/broken/);
    expect(errors).toEqual([]);
    await page.close();
  }, 90_000);

  it('shows no data to a page without the token', async () => {
    const page = await browser().newPage();
    await page.goto(center.url.replace(/\?token=.*/, ''));
    await page.getByRole('heading', { name: 'Error' }).waitFor();
    expect(await page.locator('main').innerText()).toMatch(/token/);
    expect(await page.locator('#fleet').count()).toBe(0);
    await page.close();
  });
});

describe('MCP Apps previews on the server page, through the inspector host', () => {
  let root: string;
  let center: RunningCenter;

  beforeAll(async () => {
    // The everything server with its show_chart app, and one recorded test that calls show_chart.
    root = mkdtempSync(join(tmpdir(), 'mcpengine-center-apps-'));
    const dir = join(root, 'servers', 'everything');
    mkdirSync(join(dir, 'test'), { recursive: true });
    writeFileSync(
      join(dir, 'fleet.json'),
      JSON.stringify({
        name: 'everything',
        title: 'Everything',
        description: 'The reference server and its chart app.',
        origin: 'handwritten',
        stdio: `node ${EVERYTHING_MAIN}`,
        tests: 'test',
        apps: true,
      }),
    );
    writeFileSync(
      join(dir, 'test', 'chart.mcp.yaml'),
      [
        'name: chart',
        'server:',
        `  stdio: node ${EVERYTHING_MAIN}`,
        'tests:',
        '  - name: a bad chart is refused',
        '    tool: show_chart',
        '    arguments: { values: nope }',
        '    expect: { rejectsInput: true }',
        '  - name: the chart of three values',
        '    tool: show_chart',
        '    arguments: { title: Sales, values: [3, 1, 4] }',
        '    expect:',
        '      structuredContent: { title: Sales, values: [3, 1, 4], total: 8, min: 1, max: 4 }',
        '',
      ].join('\n'),
    );
    center = await startCenter({
      root,
      port: 0,
      run: false,
      timeoutMs: 15_000,
      stdout: () => undefined,
      stderr: () => undefined,
    });
  }, 90_000);

  afterAll(async () => {
    await center?.stop();
    if (root !== undefined) rmSync(root, { recursive: true, force: true });
  });

  it('lists the view, renders it in the sandbox fed with a recorded result, and enforces visibility', async () => {
    const page = await browser().newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    try {
      await page.goto(`${center.url}#/server/everything`);
      // The view, the tools that link it (with their visibility), what it declares and what the host grants.
      const views = page.locator('#app-views');
      await views.waitFor({ timeout: 30_000 });
      const listed = await views.innerText();
      expect(listed).toContain('ui://everything/chart.html');
      expect(listed).toMatch(/show_chart \(model\)/);
      expect(listed).toMatch(/chart_append \(app\)/);
      expect(listed).toContain("default-src 'none'");
      expect(listed).toContain("connect-src 'none'");
      // The sample arguments are the recorded test's (the failing-input case is passed over).
      expect(listed).toContain('show_chart({"title":"Sales","values":[3,1,4]})');
      expect(listed).toContain('from test test/chart.mcp.yaml: the chart of three values');

      await views.getByRole('button', { name: 'Preview' }).click();
      await expect
        .poll(() => page.getByTestId('app-status').textContent(), { timeout: 30_000 })
        .toMatch(/initialized/);
      // The View runs in the proxy's inner frame, on the sandbox origin — never in the dashboard's.
      const dashboard = new URL(center.url).origin;
      const proxy = page.frames().find((frame) => frame.parentFrame() === page.mainFrame());
      if (proxy === undefined) throw new Error('no sandbox proxy frame');
      const sandboxOrigin = new URL(proxy.url()).origin;
      expect(sandboxOrigin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(sandboxOrigin).not.toBe(dashboard);
      const view = proxy.childFrames()[0];
      if (view === undefined) throw new Error('no view frame');
      // The View's frame has an opaque origin, and the dashboard cannot reach into the proxy's document.
      expect(await view.evaluate(() => (globalThis as never as { origin: string }).origin)).toBe('null');
      expect(
        await page.evaluate(
          `(() => { try { return document.querySelector('iframe.app-frame').contentDocument === null ? 'blocked' : 'reachable'; } catch { return 'blocked'; } })()`,
        ),
      ).toBe('blocked');
      // The page allows frames only from the sandbox origin.
      const response = await page.request.get(center.url);
      expect(response.headers()['content-security-policy']).toContain(`frame-src ${sandboxOrigin};`);

      // The recorded call's result is drawn.
      await expect.poll(() => view.locator('#status').textContent()).toBe('Result received: 3 values');
      expect(await view.locator('.bar').count()).toBe(3);
      expect(await view.locator('#summary').textContent()).toBe('3 values, total 8');

      // The View's own call of the app-only chart_append goes through the host to the server.
      await view.locator('#value').fill('9');
      await view.locator('#add').click();
      await expect.poll(() => view.locator('#status').textContent()).toBe('Added 9: 4 values');
      expect(await view.locator('#summary').textContent()).toBe('4 values, total 17');

      // A call of the model-only show_chart from the View is refused by the host.
      const refused = await view.evaluate(
        () =>
          new Promise<unknown>((answer) => {
            const id = 'probe-show-chart';
            const self = globalThis as never as {
              parent: { postMessage(message: unknown, target: string): void };
              addEventListener(type: 'message', listener: (event: { data: unknown }) => void): void;
            };
            self.addEventListener('message', (event) => {
              const data = event.data as { id?: unknown; error?: unknown; result?: unknown } | null;
              if (data?.id === id) answer(data.error ?? data.result);
            });
            self.parent.postMessage(
              {
                jsonrpc: '2.0',
                id,
                method: 'tools/call',
                params: { name: 'show_chart', arguments: { values: [1] } },
              },
              '*',
            );
          }),
      );
      expect(refused).toMatchObject({ code: -32000, message: expect.stringMatching(/visibility/) });

      // The host's record of the View: the CSP it logged, input and result sent, the refusal.
      const viewId = /\/view\/([A-Za-z0-9_-]+)/.exec(proxy.url())![1]!;
      const token = new URL(center.url).searchParams.get('token')!;
      const base = `${dashboard}/api/apps/${viewId}`;
      const timeline = await (await page.request.get(`${base}?token=${token}`)).json();
      const text = (timeline.timeline as { text: string }[]).map((entry) => entry.text).join('\n');
      expect(text).toMatch(/CSP default-src 'none'/);
      expect(text).toMatch(/host → view ui\/notifications\/tool-input/);
      expect(text).toMatch(/host → view ui\/notifications\/tool-result/);
      expect(text).toMatch(/refused tools\/call show_chart/);
      // Without the token, the host routes answer nothing.
      expect((await page.request.get(base)).status()).toBe(401);
      expect(
        (
          await page.request.post(`${dashboard}/api/servers/everything/apps`, {
            data: { uri: 'ui://everything/chart.html' },
          })
        ).status(),
      ).toBe(401);

      // Closing tears the View down and unregisters its proxy document.
      await page.getByRole('button', { name: 'Close preview' }).click();
      await expect.poll(() => page.locator('iframe.app-frame').count()).toBe(0);
      expect((await page.request.get(proxy.url())).status()).toBe(404);
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  }, 90_000);
});
