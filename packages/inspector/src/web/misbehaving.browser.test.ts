/**
 * A misbehaving server in the web UI (headless Chromium): garbage and schema breaks are flagged in the timeline,
 * a flood of 3,000 notifications and 100 garbage lines leaves the page usable, 1,500 tools stay searchable in a
 * virtualised list, and a server that dies mid-call is reported — the page can connect again. A `text/html`
 * resource is rendered in a frame of the sandbox origin where its script never runs and nothing reaches the
 * inspector's origin, with a source view.
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Browser } from 'playwright-core';
import { launchChromium } from '../test/browser.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBackend, type RunningBackend } from './backend.js';

const ROOT = resolve(import.meta.dirname, '../../../..');
const ASSETS = join(ROOT, 'packages/inspector/dist/ui');
const FIXTURE = join(import.meta.dirname, '../core/misbehaving-server.fixture.mjs');

let browser: Browser;
let backend: RunningBackend;

beforeAll(async () => {
  if (!existsSync(join(ASSETS, 'app.js'))) throw new Error('build the UI first: npm run build');
  browser = await launchChromium();
  backend = await startBackend({
    target: { kind: 'stdio', command: process.execPath, args: [FIXTURE, '--tools', '1500'] },
    assetsDir: ASSETS,
  });
}, 60_000);

afterAll(async () => {
  await backend?.close();
  await browser?.close();
});

describe('the inspector UI with a misbehaving server', () => {
  it('survives garbage, a flood and a crash, with 1,500 tools in a virtualised list', async () => {
    const page = await browser.newPage();
    const status = () => page.getByTestId('status').textContent();
    try {
      await page.goto(backend.url);
      await page.getByRole('button', { name: 'Connect', exact: true }).click();
      await expect.poll(status, { timeout: 20_000 }).toMatch(/Connected to misbehaving at 2025-06-18/);

      // 1,504 tools (one without a name): all listed, few rows in the DOM, the last one reachable.
      await page.getByRole('tab', { name: 'Tools' }).click();
      await expect.poll(() => page.getByTestId('tools-count').textContent()).toBe('1504 of 1504');
      expect(await page.getByRole('list', { name: 'tools' }).locator('li').count()).toBeLessThan(60);
      await page.getByRole('searchbox', { name: 'Search tools' }).fill('tool-1500');
      await expect.poll(() => page.getByTestId('tools-count').textContent()).toBe('1 of 1504');
      await page.getByRole('searchbox', { name: 'Search tools' }).fill('flood');
      await page.getByRole('button', { name: 'flood', exact: true }).click();
      await page.getByRole('button', { name: 'Call tool' }).click();
      await expect
        .poll(() => page.getByTestId('result').textContent(), { timeout: 20_000 })
        .toMatch(/flooded/);

      // The timeline holds every entry, shows only a window of them, and flags garbage and bad results.
      await page.getByRole('tab', { name: 'Timeline' }).click();
      await expect
        .poll(() => page.getByRole('heading', { level: 2 }).textContent(), { timeout: 20_000 })
        .toMatch(/: (3[1-9]\d\d) entries, (10[1-9]|1[1-9]\d) schema violation/);
      expect(await page.getByRole('list', { name: 'Timeline entries' }).locator('li').count()).toBeLessThan(
        60,
      );
      await page.getByRole('checkbox', { name: 'Only violations' }).check();
      await page.getByRole('searchbox', { name: 'Filter the timeline' }).fill('not JSON: this line');
      await page.getByRole('list', { name: 'Timeline entries' }).getByRole('button').first().click();
      await expect
        .poll(() => page.getByRole('region', { name: 'Selected entry' }).textContent())
        .toMatch(/this line is not JSON/);

      // A text/html resource: rendered (its style applies) in a sandboxed frame of another origin; its script,
      // which would rewrite the page and call the inspector's API, never runs.
      const toInspector: string[] = [];
      page.on('request', (request) => {
        if (request.frame() !== page.mainFrame() && request.url().startsWith(backend.origin))
          toInspector.push(request.url());
      });
      // Chromium says so when it refuses to run a sandboxed frame's script.
      const scriptBlocked = page.waitForEvent('console', {
        predicate: (message) => /Blocked script execution in .*\/html\//.test(message.text()),
      });
      await page.getByRole('tab', { name: 'Resources' }).click();
      await page.getByRole('button', { name: 'hostile://page.html' }).click();
      const frameElement = page.locator('iframe.html-frame');
      await frameElement.waitFor();
      expect(await frameElement.getAttribute('sandbox')).toBe('');
      expect(new URL((await frameElement.getAttribute('src'))!).origin).toBe(backend.sandboxOrigin);
      const html = (await (await frameElement.elementHandle())!.contentFrame())!;
      await html.locator('#marker').waitFor();
      expect(await html.locator('#marker').textContent()).toBe('static content');
      expect(
        await html
          .locator('#marker')
          .evaluate(
            (el) =>
              (globalThis as never as { getComputedStyle(e: unknown): { color: string } }).getComputedStyle(
                el,
              ).color,
          ),
      ).toBe('rgb(1, 2, 3)');
      // Even code run in that frame (here by the test) has an opaque origin and cannot reach the inspector.
      expect(await html.evaluate(() => (globalThis as never as { origin: string }).origin)).toBe('null');
      expect(
        await html.evaluate(() => {
          try {
            return (globalThis as never as { parent: { document: { title: string } } }).parent.document.title;
          } catch {
            return 'blocked';
          }
        }),
      ).toBe('blocked');
      await scriptBlocked;
      const formBlocked = page.waitForEvent('console', {
        predicate: (message) => /Blocked form submission/.test(message.text()),
      });
      await html.locator('#submit').click();
      await formBlocked;
      expect(await html.locator('#marker').textContent()).toBe('static content');
      expect(toInspector).toEqual([]);
      // The source, as text.
      await page.getByRole('button', { name: 'Show source' }).click();
      expect(await page.getByTestId('html-source').textContent()).toContain(
        "document.getElementById('marker').textContent = 'script ran';",
      );
      expect(await page.locator('iframe.html-frame').count()).toBe(0);

      // The server dies mid-call: the call fails, the page says why, and a new connection works.
      await page.getByRole('tab', { name: 'Tools' }).click();
      await page.getByRole('searchbox', { name: 'Search tools' }).fill('crash');
      await page.getByRole('button', { name: 'crash', exact: true }).click();
      await page.getByRole('button', { name: 'Call tool' }).click();
      await expect.poll(status, { timeout: 20_000 }).toMatch(/Not connected/);
      await expect.poll(() => page.getByRole('alert').first().textContent()).toMatch(/closed the connection/);
      await page.getByRole('button', { name: 'Connect', exact: true }).click();
      await expect.poll(status, { timeout: 20_000 }).toMatch(/Connected to misbehaving/);
      // The new session's timeline starts afresh, and the page still answers.
      await page.getByRole('tab', { name: 'Timeline' }).click();
      await expect
        .poll(() => page.getByRole('heading', { level: 2 }).textContent())
        .toMatch(/Timeline: \d{1,2} entries/);
    } finally {
      await page.close();
    }
  });
});
