/**
 * The fleet's MCP Apps views under the inspector's reference host, end to end in headless Chromium: the Google
 * Search Console performance dashboard (opened under compare_periods) and the Twilio message log (opened under
 * list_messages). Each server runs on its fleet.json environment with the cassette hook of `mcpengine test`
 * (NODE_OPTIONS --import), replaying servers/<name>/test/apps/cassette.json: the API answers Prism gave, no
 * network. Tool input and result arrive in the View, its app-only tool goes through the host to the server and
 * the API, and the CSP (no origin declared) blocks the View's own requests.
 *
 * Re-recording (Prism on the fleet.json ports, as `npm run fleet:record` does): FLEET_APPS_RECORD=<server> makes
 * the hook record instead, and the test writes the cassette.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Frame, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../../test/browser.js';
import { startBackend, type RunningBackend } from '../backend.js';

const ROOT = resolve(import.meta.dirname, '../../../../..');
const ASSETS = join(ROOT, 'packages/inspector/dist/ui');
const HOOK = join(ROOT, 'packages/test-runner/dist/cassette/hook.js');

let browser: Browser;
const backends: RunningBackend[] = [];
const cleanups: (() => void)[] = [];

interface Manifest {
  env: Record<string, string>;
}

/**
 * Starts the inspector on a fleet server with the cassette hook (replay, or record for FLEET_APPS_RECORD); the
 * returned `finish` writes a recording and returns the requests the cassette did not hold.
 */
async function fleetBackend(name: string, secrets: string[]) {
  const dir = join(ROOT, 'servers', name);
  const entry = join(dir, 'dist/index.js');
  if (!existsSync(entry)) throw new Error(`build the ${name} server first: npm run build`);
  const manifest = JSON.parse(readFileSync(join(dir, 'fleet.json'), 'utf8')) as Manifest;
  const cassette = join(dir, 'test/apps/cassette.json');
  const record = process.env['FLEET_APPS_RECORD'] === name;
  const work = mkdtempSync(join(tmpdir(), 'fleet-apps-'));
  cleanups.push(() => rmSync(work, { recursive: true, force: true }));
  const journal = join(work, 'journal.jsonl');
  writeFileSync(journal, '');
  const backend = await startBackend({
    target: {
      kind: 'stdio',
      command: process.execPath,
      args: [entry],
      cwd: dir,
      env: {
        ...manifest.env,
        NODE_OPTIONS: `--import "${pathToFileURL(HOOK).href}"`,
        MCPENGINE_CASSETTE_MODE: record ? 'record' : 'replay',
        MCPENGINE_CASSETTE: cassette,
        MCPENGINE_CASSETTE_JOURNAL: journal,
        MCPENGINE_CASSETTE_SECRETS: secrets.join(','),
      },
    },
    assetsDir: ASSETS,
  });
  backends.push(backend);
  const finish = (): string[] => {
    const entries = readFileSync(journal, 'utf8')
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => JSON.parse(line) as { recorded?: unknown; miss?: { method: string; url: string } });
    if (record) {
      const interactions = entries.flatMap((entry) => (entry.recorded === undefined ? [] : [entry.recorded]));
      writeFileSync(cassette, `${JSON.stringify({ version: 1, interactions }, null, 2)}\n`);
    }
    return entries.flatMap((entry) =>
      entry.miss === undefined ? [] : [`${entry.miss.method} ${entry.miss.url}`],
    );
  };
  return { backend, finish };
}

/** A loopback server that counts requests (CORS open: only the CSP can stop the View's fetch). */
async function countingServer(): Promise<{ origin: string; hits: () => number }> {
  let hits = 0;
  const server: Server = createServer((_request, response) => {
    hits++;
    response.writeHead(200, { 'access-control-allow-origin': '*' });
    response.end('reached');
  });
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', () => ready()));
  cleanups.push(() => {
    server.closeAllConnections();
    server.close();
  });
  const address = server.address();
  return {
    origin: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`,
    hits: () => hits,
  };
}

beforeAll(async () => {
  if (!existsSync(join(ASSETS, 'app.js'))) throw new Error('build the UI first: npm run build');
  if (!existsSync(HOOK)) throw new Error('build the test runner first: npm run build');
  browser = await launchChromium();
}, 60_000);

afterAll(async () => {
  for (const backend of backends) await backend.close();
  for (const cleanup of cleanups) cleanup();
  await browser?.close();
});

/** Connects, fills the tool's form, calls it and opens its app view; returns the View's frame. */
async function renderApp(
  backend: RunningBackend,
  tool: string,
  fields: Record<string, string>,
): Promise<{ page: Page; view: Frame }> {
  const page = await browser.newPage();
  await page.goto(backend.url);
  await page.getByRole('button', { name: 'Connect', exact: true }).click();
  await expect
    .poll(() => page.getByTestId('status').textContent(), { timeout: 20_000 })
    .toMatch(/Connected to/);
  await page.getByRole('tab', { name: 'Tools' }).click();
  await page.getByRole('searchbox', { name: 'Search tools' }).fill(tool);
  await page.getByRole('button', { name: tool, exact: true }).click();
  for (const [field, value] of Object.entries(fields)) await page.locator(`[id="args.${field}"]`).fill(value);
  await page.getByRole('button', { name: 'Call tool' }).click();
  await expect.poll(() => page.getByTestId('result').count()).toBe(1);
  await page.getByRole('button', { name: 'Open app view' }).click();
  await expect
    .poll(() => page.getByTestId('app-status').textContent(), { timeout: 20_000 })
    .toMatch(/initialized/);
  const proxy = page.frames().find((frame) => frame.url().startsWith(backend.sandboxOrigin));
  const view = proxy?.childFrames()[0];
  if (view === undefined) throw new Error('no view frame under the sandbox proxy');
  return { page, view };
}

async function timelineText(page: Page): Promise<string> {
  await page.getByRole('tab', { name: 'Timeline' }).click();
  return (await page.locator('.timeline').textContent()) ?? '';
}

/** The View fetches an origin no `_meta.ui.csp` declared: the host's CSP must block it before any request. */
async function expectCspHolds(page: Page, view: Frame): Promise<void> {
  const csp = (await page.getByTestId('app-csp').textContent()) ?? '';
  expect(csp).toContain("connect-src 'none'");
  expect(csp).toContain("frame-src 'none'");
  const outside = await countingServer();
  const outcome = await view.evaluate(
    (url) =>
      fetch(url).then(
        (response) => `status ${response.status}`,
        () => 'blocked',
      ),
    `${outside.origin}/leak`,
  );
  expect(outcome).toBe('blocked');
  expect(outside.hits()).toBe(0);
}

/** A `tools/call` the View sends itself (no button for it), answered through the host. */
function viewCall(view: Frame, name: string, args: Record<string, unknown>): Promise<unknown> {
  return view.evaluate(
    ([tool, toolArgs]) =>
      new Promise<unknown>((answer) => {
        const id = `probe-${tool}`;
        const self = globalThis as never as {
          parent: { postMessage(message: unknown, target: string): void };
          addEventListener(type: 'message', listener: (event: { data: unknown }) => void): void;
        };
        self.addEventListener('message', (event) => {
          const data = event.data as { id?: unknown; error?: unknown; result?: unknown } | null;
          if (data?.id === id) answer(data.error ?? data.result);
        });
        self.parent.postMessage(
          { jsonrpc: '2.0', id, method: 'tools/call', params: { name: tool, arguments: toolArgs } },
          '*',
        );
      }),
    [name, args] as const,
  );
}

describe('the fleet MCP Apps views render in the reference host', () => {
  it('google-search-console: the performance dashboard under compare_periods, and its app-only tool', async () => {
    const { backend, finish } = await fleetBackend('google-search-console', [
      'GOOGLE_SEARCH_CONSOLE_OAUTH2_ACCESS_TOKEN',
    ]);
    const { page, view } = await renderApp(backend, 'compare_periods', {
      siteUrl: 'sc-domain:example.com',
      days: '28',
      endDate: '2026-10-28',
    });
    try {
      // The input (the property, the period) and the result (totals and changes) arrive, then the View loads
      // the daily series and the movers through load_performance_dashboard (app-only).
      await expect
        .poll(() => view.locator('#status').textContent(), { timeout: 20_000 })
        .toBe('Dashboard loaded: 1 day, movers by query');
      expect(await view.locator('#title').textContent()).toBe('Search performance: sc-domain:example.com');
      expect(await view.locator('#period').textContent()).toBe(
        '2026-10-01 to 2026-10-28 compared with 2026-09-03 to 2026-09-30',
      );
      expect(await view.locator('#days').inputValue()).toBe('28');
      // Prism's example row carries the smallest double for every metric; the server counts it as 0.
      expect(await view.locator('#kpi-clicks').textContent()).toBe('0');
      expect(await view.locator('#kpi-ctr').textContent()).toBe('0.0%');
      expect(await view.locator('#chart circle').count()).toBe(1);
      expect(await view.locator('#chart polyline.current').count()).toBe(1);
      expect(await view.locator('#movers-title').textContent()).toBe('Top movers by query');

      // The controls: movers by page, a year earlier: another app-only call, another dashboard.
      await view.locator('#dimension').selectOption('page');
      await view.locator('#compare').selectOption('previous_year');
      await view.locator('#update').click();
      await expect
        .poll(() => view.locator('#status').textContent())
        .toBe('Dashboard loaded: 1 day, movers by page');
      expect(await view.locator('#movers-key').textContent()).toBe('Page');
      expect(await view.locator('#period').textContent()).toBe(
        '2026-10-01 to 2026-10-28 compared with 2025-10-02 to 2025-10-29',
      );
      // A metric button redraws the chart from the loaded series (no call).
      await view.locator('.kpi[data-metric="position"]').click();
      expect(await view.locator('#legend').textContent()).toMatch(/^position per day, 1 day \(solid\)/);

      await expectCspHolds(page, view);
      const text = await timelineText(page);
      expect(text).toMatch(/host → view ui\/notifications\/tool-input/);
      expect(text).toMatch(/host → view ui\/notifications\/tool-result/);
      expect(text.match(/view → host tools\/call/g)?.length ?? 0).toBeGreaterThanOrEqual(2);
      expect(text).not.toMatch(/refused tools\/call/);
      expect(finish()).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it('twilio: the message log under list_messages, filters, and the app-only pager', async () => {
    const { backend, finish } = await fleetBackend('twilio', ['TWILIO_AUTH_TOKEN']);
    const { page, view } = await renderApp(backend, 'list_messages', { To: '+14155552671', PageSize: '20' });
    try {
      await expect.poll(() => view.locator('#status').textContent()).toBe('Result received: 1 message');
      // The input filled the View's server filters; the result is the table.
      expect(await view.locator('#to').inputValue()).toBe('+14155552671');
      const row = view.locator('#messages tbody tr');
      expect(await row.count()).toBe(1);
      expect(await row.locator('td').nth(0).textContent()).toBe('queued');
      expect(await row.locator('td').nth(1).textContent()).toBe('inbound');
      expect(await view.locator('#count').textContent()).toBe('1 of 1 message on page 1');
      // Prism's example next_page_uri is http://example.com: not a page of this API, so no Next.
      expect(await view.locator('#next').isDisabled()).toBe(true);

      // Filters of the page, in the View.
      await view.locator('#filter-status').selectOption('delivered');
      expect(await row.count()).toBe(0);
      expect(await view.locator('#count').textContent()).toBe('0 of 1 message on page 1');
      await view.locator('#filter-status').selectOption('');
      await view.locator('#filter-direction').selectOption('outbound');
      expect(await row.count()).toBe(0);
      await view.locator('#filter-direction').selectOption('inbound');
      expect(await row.count()).toBe(1);

      // A server filter: the app-only message_log_page loads a new first page through the host.
      await view.locator('#from').fill('+14155550100');
      await view.locator('#load').click();
      await expect.poll(() => view.locator('#status').textContent()).toBe('Loaded the first page: 1 message');

      // The pager refuses a page URI that is not this account's message list (no fetch of arbitrary URLs).
      const refused = (await viewCall(view, 'message_log_page', { pageUri: 'http://example.com' })) as {
        isError?: boolean;
        content?: { text?: string }[];
      };
      expect(refused.isError).toBe(true);
      expect(refused.content?.[0]?.text).toBe('not a page of this message log: http://example.com');

      await expectCspHolds(page, view);
      const text = await timelineText(page);
      expect(text).toMatch(/host → view ui\/notifications\/tool-input/);
      expect(text).toMatch(/host → view ui\/notifications\/tool-result/);
      expect(text).not.toMatch(/refused tools\/call/);
      expect(finish()).toEqual([]);
    } finally {
      await page.close();
    }
  });
});
