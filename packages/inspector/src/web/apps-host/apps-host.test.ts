/**
 * The MCP Apps reference host end to end, in headless Chromium (Debian's `chromium`, driven by playwright-core):
 * the official example app servers (`@modelcontextprotocol/server-basic-vanillajs`, `-budget-allocator`,
 * `-basic-preact`, over stdio), the everything server's `show_chart` (our own View, built with @mcpengine/apps-view)
 * and the validator corpus' app server render in the inspector; tool input and result arrive in the View; a
 * View-initiated tool call works; a call to a tool without `app` visibility is refused; the CSP blocks an
 * undeclared origin; every postMessage is in the session timeline.
 */
import { createServer, type Server } from 'node:http';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Browser, Frame, Page } from 'playwright-core';
import { launchChromium } from '../../test/browser.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBackend, type RunningBackend } from '../backend.js';

const ROOT = resolve(import.meta.dirname, '../../../../..');
const ASSETS = join(ROOT, 'packages/inspector/dist/ui');
const OFFICIAL = (name: string) => join(ROOT, 'node_modules/@modelcontextprotocol', name, 'dist/index.js');
const CORPUS_APP = join(ROOT, 'packages/validator/corpus/apps/correct-app.mjs');
const EVERYTHING = join(ROOT, 'servers/everything/dist/main.js');

let browser: Browser;
const backends: RunningBackend[] = [];
const servers: Server[] = [];

/** A loopback HTTP server that counts the requests it gets (CORS open, so only the CSP can stop a fetch). */
async function countingServer(): Promise<{ origin: string; hits: () => number }> {
  let hits = 0;
  const server = createServer((_request, response) => {
    hits++;
    response.writeHead(200, { 'access-control-allow-origin': '*', 'content-type': 'text/plain' });
    response.end('reached');
  });
  servers.push(server);
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', () => ready()));
  const address = server.address();
  return {
    origin: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`,
    hits: () => hits,
  };
}

async function backendFor(
  command: string,
  args: string[],
  env?: Record<string, string>,
): Promise<RunningBackend> {
  const backend = await startBackend({
    target: {
      kind: 'stdio',
      command,
      args,
      ...(env === undefined ? {} : { env: { ...process.env, ...env } as Record<string, string> }),
    },
    assetsDir: ASSETS,
  });
  backends.push(backend);
  return backend;
}

beforeAll(async () => {
  if (!existsSync(join(ASSETS, 'app.js'))) throw new Error('build the UI first: npm run build');
  browser = await launchChromium();
}, 60_000);

afterAll(async () => {
  for (const backend of backends) await backend.close();
  for (const server of servers) {
    server.closeAllConnections();
    server.close();
  }
  await browser?.close();
});

/**
 * Opens the UI, connects, calls `tool` through its form (`text` fills `args.text`, a function fills the form
 * itself), then opens its app view; returns the View's frame.
 */
async function renderApp(
  backend: RunningBackend,
  tool: string,
  serverName: RegExp,
  text?: string | ((page: Page) => Promise<void>),
  url = backend.url,
): Promise<{ page: Page; view: Frame }> {
  const page = await browser.newPage();
  await page.goto(url);
  await page.getByRole('button', { name: 'Connect', exact: true }).click();
  await expect.poll(() => page.getByTestId('status').textContent(), { timeout: 20_000 }).toMatch(serverName);
  await page.getByRole('tab', { name: 'Tools' }).click();
  // The tool list is virtualised: search first so the tool's row is rendered whatever the server's tool count.
  await page.getByRole('searchbox', { name: 'Search tools' }).fill(tool);
  await page.getByRole('button', { name: tool, exact: true }).click();
  if (typeof text === 'string') await page.locator('[id="args.text"]').fill(text);
  else if (text !== undefined) await text(page);
  await page.getByRole('button', { name: 'Call tool' }).click();
  await expect.poll(() => page.getByTestId('result').count()).toBe(1);
  await page.getByRole('button', { name: 'Open app view' }).click();
  await expect
    .poll(() => page.getByTestId('app-status').textContent(), { timeout: 20_000 })
    .toMatch(/initialized/);
  // The proxy frame (sandbox origin) holds the View's frame.
  const proxy = page.frames().find((frame) => frame.url().startsWith(backend.sandboxOrigin));
  if (proxy === undefined) throw new Error('no sandbox proxy frame');
  const view = proxy.childFrames()[0];
  if (view === undefined) throw new Error('no view frame');
  return { page, view };
}

async function timelineText(page: Page): Promise<string> {
  await page.getByRole('tab', { name: 'Timeline' }).click();
  return (await page.locator('.timeline').textContent()) ?? '';
}

describe('the reference host renders the official example apps', () => {
  it('server-basic-vanillajs: the result arrives, and the View calls a tool itself', async () => {
    const backend = await backendFor(process.execPath, [OFFICIAL('server-basic-vanillajs'), '--stdio']);
    const { page, view } = await renderApp(backend, 'get-time', /Connected to/);
    try {
      // The proxy runs on another origin than the inspector, and the inspector is not framed by it.
      expect(new URL(backend.sandboxOrigin).origin).not.toBe(new URL(backend.origin).origin);
      const iso = /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d/;
      await expect.poll(() => view.locator('#server-time').textContent()).toMatch(iso);
      const before = (await view.locator('#server-time').textContent()) ?? '';
      await view.locator('#get-time-btn').click();
      await expect
        .poll(async () => (await timelineText(page)).match(/view → host tools\/call/g)?.length ?? 0)
        .toBeGreaterThan(0);
      const text = await timelineText(page);
      expect(text).toMatch(/sandbox → host ui\/notifications\/sandbox-proxy-ready/);
      expect(text).toMatch(/host → view ui\/notifications\/sandbox-resource-ready/);
      expect(text).toMatch(/view → host ui\/initialize/);
      expect(text).toMatch(/host → view ui\/notifications\/tool-input/);
      expect(text).toMatch(/host → view ui\/notifications\/tool-result/);
      expect(before).toMatch(iso);
    } finally {
      await page.close();
    }
  });

  it('server-budget-allocator: its View renders the tool result', async () => {
    const backend = await backendFor(process.execPath, [OFFICIAL('server-budget-allocator'), '--stdio']);
    const { page, view } = await renderApp(backend, 'get-budget-data', /Connected to/);
    try {
      await expect.poll(() => view.locator('body').textContent(), { timeout: 20_000 }).toMatch(/Marketing/);
      expect(await timelineText(page)).toMatch(/host → view ui\/notifications\/tool-result/);
    } finally {
      await page.close();
    }
  });

  it('server-basic-preact: the result arrives in a Preact View', async () => {
    const backend = await backendFor(process.execPath, [OFFICIAL('server-basic-preact'), '--stdio']);
    const { page, view } = await renderApp(backend, 'get-time', /Connected to/);
    try {
      await expect.poll(() => view.locator('body').textContent()).toMatch(/\d{4}-\d\d-\d\dT\d\d:\d\d/);
    } finally {
      await page.close();
    }
  });
});

describe('the reference host renders our own app (the everything server, a View built with @mcpengine/apps-view)', () => {
  it('show_chart: input and result arrive, chart_append works through the host, a model-only call is refused', async () => {
    if (!existsSync(EVERYTHING)) throw new Error('build the everything server first: npm run build');
    const backend = await backendFor(process.execPath, [EVERYTHING]);
    const { page, view } = await renderApp(backend, 'show_chart', /Connected to/, async (form) => {
      await form.locator('[id="args.title"]').fill('<b>Sales</b>');
      for (const [index, value] of ['3', '1'].entries()) {
        await form.getByRole('button', { name: 'Add to values' }).click();
        await form.locator(`[id="args.values.${index}"]`).fill(value);
      }
    });
    try {
      // Tool input, then the result: the view draws the chart, the title as text, never as markup.
      await expect.poll(() => view.locator('#status').textContent()).toBe('Result received: 2 values');
      expect(await view.locator('#title').textContent()).toBe('<b>Sales</b>');
      expect(await view.locator('#title b').count()).toBe(0);
      expect(await view.locator('.bar').count()).toBe(2);
      expect(await view.locator('#summary').textContent()).toBe('2 values, total 4');

      // The view calls the app-only chart_append through the host; the server answers the new chart.
      await view.locator('#value').fill('9');
      await view.locator('#add').click();
      await expect.poll(() => view.locator('#status').textContent()).toBe('Added 9: 3 values');
      expect(await view.locator('.bar').count()).toBe(3);
      expect(await view.locator('#summary').textContent()).toBe('3 values, total 13');

      // A call from the View to the model-only show_chart is refused by the host, never reaching the server.
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

      // Timeline entries reach the page over the event stream, possibly after the View had its answer.
      await expect.poll(() => timelineText(page)).toMatch(/refused tools\/call show_chart/);
      const text = await timelineText(page);
      expect(text).toMatch(/host → view ui\/notifications\/tool-input/);
      expect(text).toMatch(/host → view ui\/notifications\/tool-result/);
      expect(text).toMatch(/view → host tools\/call/);
      expect(text).toMatch(/refused tools\/call show_chart/);
      expect(text).not.toMatch(/refused tools\/call chart_append/);
    } finally {
      await page.close();
    }
  });
});

describe('the host enforces the spec on a View', () => {
  it('delivers input and result, refuses a tool without app visibility, blocks undeclared origins, tears down', async () => {
    const declared = await countingServer();
    const undeclared = await countingServer();
    const backend = await backendFor(process.execPath, [CORPUS_APP], { CORPUS_APP_CONNECT: declared.origin });
    const { page, view } = await renderApp(backend, 'show_view', /Connected to corpus-server/);
    try {
      await expect.poll(() => view.locator('#input').textContent()).toMatch(/^input \{/);
      await expect.poll(() => view.locator('#result').textContent()).toMatch(/^result \{"shown":/);
      // The CSP is the spec's default plus the declared origin only.
      const csp = (await page.getByTestId('app-csp').textContent()) ?? '';
      expect(csp).toContain(`connect-src ${declared.origin}`);
      expect(csp).toContain("object-src 'none'");
      expect(csp).toContain("frame-src 'none'");

      // A View-initiated call of an app tool works; one of a model-only tool is refused by the host.
      expect(
        await view.evaluate(() =>
          (globalThis as never as { corpusApp: { call(n: string): Promise<string> } }).corpusApp.call(
            'app_refresh',
          ),
        ),
      ).toMatch(/^ok .*refreshed/);
      expect(
        await view.evaluate(() =>
          (globalThis as never as { corpusApp: { call(n: string): Promise<string> } }).corpusApp.call(
            'model_only',
          ),
        ),
      ).toMatch(/^error -32000 .*visibility/);
      // A tool the server never listed is refused too: the host, not the View, decides what may be called.
      expect(
        await view.evaluate(() =>
          (globalThis as never as { corpusApp: { call(n: string): Promise<string> } }).corpusApp.call(
            'never_listed',
          ),
        ),
      ).toMatch(/^error -32602 .*did not list it/);

      // The declared origin is reachable; the undeclared one is blocked by the CSP and never sees a request.
      type Fetcher = { corpusApp: { fetch(u: string): Promise<string> } };
      expect(
        await view.evaluate(
          (url) => (globalThis as never as Fetcher).corpusApp.fetch(url),
          `${declared.origin}/ok`,
        ),
      ).toBe('status 200');
      expect(
        await view.evaluate(
          (url) => (globalThis as never as Fetcher).corpusApp.fetch(url),
          `${undeclared.origin}/leak`,
        ),
      ).toBe('blocked');
      await expect
        .poll(() => view.locator('#csp').textContent())
        .toContain(`violated connect-src ${undeclared.origin}`);
      expect(undeclared.hits()).toBe(0);
      expect(declared.hits()).toBe(1);

      // Display modes: the host switches to a mode both sides support and says so in the host context.
      type Modes = { corpusApp: { displayMode(m: string): Promise<string> } };
      expect(await view.evaluate(() => (globalThis as never as Modes).corpusApp.displayMode('pip'))).toBe(
        'inline',
      );
      expect(
        await view.evaluate(() => (globalThis as never as Modes).corpusApp.displayMode('fullscreen')),
      ).toBe('fullscreen');
      await expect.poll(() => view.locator('#context').textContent()).toMatch(/mode fullscreen/);
      expect(await page.getByTestId('app-view').getAttribute('data-display-mode')).toBe('fullscreen');

      // Size changes: the View asked for 420 px.
      await expect
        .poll(() =>
          page
            .locator('.app-frame-box')
            .evaluate((box) => (box as unknown as { style: { height: string } }).style.height),
        )
        .toBe('420px');

      // Theme changes reach the View.
      await page.getByTestId('app-view').getByRole('combobox').selectOption('dark');
      await expect.poll(() => view.locator('#context').textContent()).toMatch(/theme dark/);

      // Teardown: the View is asked first, then removed.
      await page.getByRole('button', { name: 'Close app view' }).click();
      await expect.poll(() => page.getByTestId('app-view').count()).toBe(0);
      // The teardown's timeline entries reach the page over the event stream, possibly after the frame is gone.
      await expect.poll(() => timelineText(page)).toMatch(/torn down/);
      const text = await timelineText(page);
      expect(text).toMatch(/refused tools\/call model_only/);
      expect(text).toMatch(/refused tools\/call never_listed from view \S+: the server never listed it/);
      expect(text).toMatch(/host → view ui\/resource-teardown/);
      expect(text).toMatch(/torn down/);
    } finally {
      await page.close();
    }
  });

  it('tells the View the call was cancelled when the tool call fails (inspector opened as localhost)', async () => {
    const backend = await backendFor(process.execPath, [CORPUS_APP]);
    // The inspector opened as localhost (not the 127.0.0.1 it printed): the proxy still talks to it.
    const url = backend.url.replace('127.0.0.1', 'localhost');
    const { page, view } = await renderApp(backend, 'show_view', /Connected to corpus-server/, 'fail', url);
    try {
      await expect.poll(() => view.locator('#input').textContent()).toBe('input {"text":"fail"}');
      await expect.poll(() => view.locator('#result').textContent()).toMatch(/^cancelled .*refuses the text/);
      expect(await timelineText(page)).toMatch(/host → view ui\/notifications\/tool-cancelled/);
    } finally {
      await page.close();
    }
  });
});
