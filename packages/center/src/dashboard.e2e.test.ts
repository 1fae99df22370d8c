/**
 * The dashboard end to end in headless Chromium (Debian's, driven by playwright-core): the fleet table, a run
 * started from the page with live progress over the event stream, the server page with verdicts and evidence,
 * keyboard navigation, and no data without the token.
 */
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCenter, type RunningCenter } from './start.js';
import { createFixtureFleet, type FixtureFleet } from './test/fixture-fleet.js';

// Debian's Chromium (`.ci/run` installs it when missing).
const CHROMIUM = '/usr/bin/chromium';
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

describe('dashboard in headless Chromium', () => {
  let fleet: FixtureFleet;
  let center: RunningCenter;
  let browser: Browser;

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
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS, timeout: 60_000 });
  }, 90_000);

  afterAll(async () => {
    await browser?.close();
    await center?.stop();
    fleet?.cleanup();
  });

  it('runs the pipeline from the page and shows live progress, verdicts and evidence', async () => {
    const page = await browser.newPage();
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
    const page = await browser.newPage();
    await page.goto(center.url.replace(/\?token=.*/, ''));
    await page.getByRole('heading', { name: 'Error' }).waitFor();
    expect(await page.locator('main').innerText()).toMatch(/token/);
    expect(await page.locator('#fleet').count()).toBe(0);
    await page.close();
  });
});
