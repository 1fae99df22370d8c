/**
 * MCP Apps interop in headless Chromium (Debian's chromium via playwright-core), with the everything server behind
 * a real mcpengine Client session that declares the Apps extension:
 * - the everything server's chart view, built with OUR bridge (@mcpengine/apps-view), under the OFFICIAL host
 *   bridge (`AppBridge` of @modelcontextprotocol/ext-apps): handshake, tool input and result, host theme,
 *   size changes, a view-initiated tools/call, model context, teardown;
 * - a view built with the OFFICIAL `App` class under a minimal host written with our protocol types
 *   (mcpengine/apps/protocol): tool input and result arrive, an app-visible call goes through, a call to a tool
 *   the app may not use is refused.
 */
import { once } from 'node:events';
import { copyFileSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APP_MIME_TYPE, APPS_EXTENSION, readSingleFileView } from 'mcpengine/apps';
import { Client, type ClientSession } from 'mcpengine/client';
import { createMemoryTransportPair } from 'mcpengine/memory';
import { createEverythingServer } from '@mcpengine/server-everything';

const ROOT = resolve(import.meta.dirname, '../../..');
const PAGES = join(ROOT, 'packages/apps-view/test-pages');
const CHART_VIEW = join(ROOT, 'servers/everything/dist/view/chart.html');

let browser: Browser;
let http: Server;
let base: string;
let session: ClientSession;
const files = new Map<string, string>();

async function bundle(entry: string): Promise<string> {
  const result = await build({
    entryPoints: [join(PAGES, entry)],
    bundle: true,
    format: 'esm',
    target: 'es2022',
    platform: 'browser',
    minify: true,
    conditions: ['@mcpengine/source'],
    write: false,
    logLevel: 'silent',
  });
  return result.outputFiles[0]!.text;
}

beforeAll(async () => {
  if (!existsSync(CHART_VIEW)) throw new Error('build the everything server view first: npm run build');
  const [officialHost, ourHost, officialView, probeHost, probeView] = await Promise.all([
    bundle('official-host.ts'),
    bundle('our-host.ts'),
    bundle('official-view.ts'),
    bundle('probe-host.ts'),
    bundle('probe-view.ts'),
  ]);
  // The official view as one document, the way a server would ship it.
  const dir = mkdtempSync(join(tmpdir(), 'apps-view-'));
  try {
    copyFileSync(join(PAGES, 'official-view.html'), join(dir, 'index.html'));
    writeFileSync(join(dir, 'official-view.js'), officialView);
    files.set('/view/official.html', await readSingleFileView(dir));
    copyFileSync(join(PAGES, 'probe-view.html'), join(dir, 'index.html'));
    writeFileSync(join(dir, 'probe-view.js'), probeView);
    files.set('/view/probe.html', await readSingleFileView(dir));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const page = (script: string) =>
    `<!doctype html><html><body><script type="module" src="/${script}"></script></body></html>`;
  files.set('/official-host.html', page('official-host.js'));
  files.set('/official-host.js', officialHost);
  files.set('/our-host.html', page('our-host.js'));
  files.set('/our-host.js', ourHost);
  files.set('/probe-host.html', page('probe-host.js'));
  files.set('/probe-host.js', probeHost);

  http = createServer((req, res) => {
    const body = files.get(new URL(req.url ?? '/', 'http://x').pathname);
    if (body === undefined) return void res.writeHead(404).end();
    const type = req.url!.includes('.js') ? 'text/javascript' : 'text/html';
    res.writeHead(200, { 'content-type': `${type}; charset=utf-8` }).end(body);
  });
  http.listen(0, '127.0.0.1');
  await once(http, 'listening');
  base = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;

  const client = new Client({
    name: 'apps-interop-host',
    version: '1.0.0',
    capabilities: { extensions: { [APPS_EXTENSION]: { mimeTypes: [APP_MIME_TYPE] } } },
  });
  const [clientSide, serverSide] = createMemoryTransportPair();
  await createEverythingServer().connect(serverSide);
  session = await client.connect(clientSide);

  browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
    ],
  });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await session?.close();
  http?.close();
});

async function openHost(path: string, query: Record<string, string>): Promise<Page> {
  const page = await browser.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.exposeFunction('mcp', (method: string, params: Record<string, unknown>) =>
    session.request(method, params),
  );
  await page.goto(`${base}${path}?${new URLSearchParams(query)}`);
  await expect.poll(() => page.evaluate('window.hostReady === true')).toBe(true);
  expect(errors).toEqual([]);
  return page;
}

const hostLog = (page: Page) => page.evaluate('window.hostLog') as Promise<Record<string, any>[]>;
const entry = async (page: Page, key: string) =>
  expect.poll(async () => (await hostLog(page)).find((e) => key in e)?.[key]).toBeDefined();

describe('our view bridge under the official AppBridge', () => {
  it('runs the everything chart view: handshake, input, result, theme, resize, calls, context, teardown', async () => {
    const page = await openHost('/official-host.html', {
      tool: 'show_chart',
      args: JSON.stringify({ title: '<b>Sales</b>', values: [3, 1, 4] }),
    });
    const frame = page.frameLocator('iframe');
    // The host read the view from the server: ui:// resource with the Apps MIME type.
    expect((await hostLog(page)).find((e) => e.resource)?.resource).toEqual({
      uri: 'ui://everything/chart.html',
      mimeType: APP_MIME_TYPE,
    });
    await entry(page, 'initialized');
    expect((await hostLog(page)).find((e) => e.initialized)!.initialized).toEqual({
      name: 'everything-chart',
      version: '0.1.0',
    });
    // Input, then result: the title arrives as text, never as markup.
    await expect.poll(() => frame.locator('#status').textContent()).toBe('Result received: 3 values');
    expect(await frame.locator('#title').textContent()).toBe('<b>Sales</b>');
    expect(await frame.locator('#title b').count()).toBe(0);
    expect(await frame.locator('.bar').count()).toBe(3);
    // Host context: theme and style variables applied to the view's document.
    expect(await frame.locator('html').getAttribute('data-theme')).toBe('dark');
    expect(await frame.locator('#title').evaluate((e) => (globalThis as any).getComputedStyle(e).color)).toBe(
      'rgb(1, 2, 3)',
    );
    // Size changes reach the host.
    await entry(page, 'size');
    const size = (await hostLog(page)).find((e) => e.size)!.size;
    expect(size.height).toBeGreaterThan(100);
    // A view-initiated call to the app-only tool goes through the host to the server.
    await frame.locator('#value').fill('9');
    await frame.locator('#add').click();
    await expect.poll(() => frame.locator('#status').textContent()).toBe('Added 9: 4 values');
    expect(await frame.locator('.bar').count()).toBe(4);
    expect((await hostLog(page)).find((e) => e.calltool)!.calltool).toEqual({
      name: 'chart_append',
      arguments: { title: '<b>Sales</b>', values: [3, 1, 4], value: 9 },
    });
    // Model context.
    await frame.locator('#tell').click();
    await entry(page, 'context');
    expect((await hostLog(page)).find((e) => e.context)!.context.content[0].text).toContain('3, 1, 4, 9');
    // Teardown is answered.
    expect(await page.evaluate('window.teardown()')).toEqual({});
    await page.close();
  });
});

describe('the official App class under a host written with our protocol types', () => {
  it('receives tool input and result, and its calls go through or are refused by visibility', async () => {
    const page = await openHost('/our-host.html', {
      tool: 'show_chart',
      args: JSON.stringify({ title: 'T', values: [5, 6] }),
      view: '/view/official.html',
    });
    const frame = page.frameLocator('iframe');
    await expect.poll(() => frame.locator('#status').textContent()).toBe('connected');
    await expect.poll(() => frame.locator('#input').textContent()).toBe('{"title":"T","values":[5,6]}');
    await expect
      .poll(() => frame.locator('#result').textContent())
      .toBe('{"title":"T","values":[5,6],"total":11,"min":5,"max":6}');
    const init = (await hostLog(page)).find((e) => e.received?.method === 'ui/initialize')!.received;
    expect(init.params.appInfo).toEqual({ name: 'official-view', version: '1.0.0' });
    expect(typeof init.params.protocolVersion).toBe('string');
    expect((await hostLog(page)).some((e) => e.received?.method === 'ui/notifications/initialized')).toBe(
      true,
    );

    await frame.locator('#call').click();
    await expect
      .poll(() => frame.locator('#called').textContent())
      .toBe('{"title":"Chart","values":[1,2,3],"total":6,"min":1,"max":3}');
    // The everything server marks no tool model-only; a tool the server did not list is refused as well.
    await frame.locator('#tool').fill('no_such_tool');
    await frame.locator('#call').click();
    await expect
      .poll(() => frame.locator('#called').textContent())
      .toMatch(/^refused: .*not available to the app/);
    await page.close();
  });
});

describe('the view bridge keeps to the protocol', () => {
  it('handshake, source check, replay, context merge, display mode, errors, requests, teardown', async () => {
    const page = await browser.newPage();
    await page.goto(`${base}/probe-host.html`);
    await expect.poll(() => page.evaluate('window.hostReady === true')).toBe(true);
    await expect.poll(() => page.frame({ name: 'view' })?.evaluate('typeof window.probe')).toBe('object');
    const view = page.frame({ name: 'view' })!;
    const received = () => page.evaluate('window.received') as Promise<Record<string, any>[]>;
    const inView = (code: string) =>
      view.evaluate(`(async () => { const { view, events } = window.probe; ${code} })()`);

    // Nothing goes out before connect().
    expect(await inView(`return view.callServerTool('x').then(() => 'sent', (e) => e.message)`)).toBe(
      'Call connect() first',
    );
    // The handshake, and the host's theme and style variables (unsafe names and values skipped).
    await page.evaluate(`window.answers['ui/initialize'] = { result: {
      protocolVersion: '2026-01-26', hostInfo: { name: 'probe-host', version: '1' }, hostCapabilities: { openLinks: {} },
      hostContext: { theme: 'dark', displayMode: 'inline',
        styles: { variables: { '--color-text-primary': 'rgb(9, 8, 7)', '--x;': 'red', '--y': 'red; color: blue' } } } } }`);
    expect(await inView('return (await view.connect()).hostInfo')).toEqual({
      name: 'probe-host',
      version: '1',
    });
    await expect
      .poll(async () => (await received()).map((m) => m.method))
      .toContain('ui/notifications/size-changed');
    const [init, initialized] = await received();
    expect(init).toMatchObject({
      jsonrpc: '2.0',
      method: 'ui/initialize',
      params: {
        appInfo: { name: 'probe', version: '1.0.0' },
        appCapabilities: { availableDisplayModes: ['inline', 'fullscreen'] },
        protocolVersion: '2026-01-26',
      },
    });
    expect(initialized).toEqual({ jsonrpc: '2.0', method: 'ui/notifications/initialized', params: {} });
    expect(
      await inView(`const s = document.documentElement.style;
        return [document.documentElement.dataset.theme, s.getPropertyValue('--color-text-primary'), s.getPropertyValue('--y')]`),
    ).toEqual(['dark', 'rgb(9, 8, 7)', '']);

    // Only the host window is heard: a sibling frame's tool result is ignored.
    const result = { content: [{ type: 'text', text: 'from the host' }] };
    await page.evaluate(`window.intrude({ jsonrpc: '2.0', method: 'ui/notifications/tool-result',
      params: { content: [{ type: 'text', text: 'forged' }] } })`);
    await page.evaluate(
      `window.send(${JSON.stringify({ jsonrpc: '2.0', method: 'ui/notifications/tool-result', params: result })})`,
    );
    await expect.poll(() => inView('return events.filter((e) => e[0] === "toolresult").length')).toBe(1);
    expect(await inView('return events.find((e) => e[0] === "toolresult")[1]')).toEqual(result);
    // A listener registered late still receives the last result.
    expect(await inView('return await new Promise((resolve) => view.on("toolresult", resolve))')).toEqual(
      result,
    );

    // Context changes merge.
    await page.evaluate(
      `window.send({ jsonrpc: '2.0', method: 'ui/notifications/host-context-changed', params: { theme: 'light' } })`,
    );
    await expect.poll(() => inView('return document.documentElement.dataset.theme')).toBe('light');
    expect(await inView('return [view.hostContext.theme, view.hostContext.displayMode]')).toEqual([
      'light',
      'inline',
    ]);

    // Display mode: the host's answer wins. Errors reject with the JSON-RPC code.
    await page.evaluate(`window.answers['ui/request-display-mode'] = { result: { mode: 'inline' } };
      window.answers['tools/call'] = { error: { code: -32602, message: 'Tool add is not available to the app' } };
      window.answers['ui/open-link'] = { result: {} }; window.answers['ui/message'] = { result: {} };
      window.answers['ui/update-model-context'] = { result: {} }; window.answers['ui/download-file'] = { result: {} };`);
    expect(await inView(`return view.requestDisplayMode('fullscreen')`)).toBe('inline');
    expect(
      await inView(
        `return view.callServerTool('add', { a: 1 }).then(() => 'allowed', (e) => [e.name, e.code, e.message])`,
      ),
    ).toEqual(['AppRequestError', -32602, 'Tool add is not available to the app']);
    await inView(`await view.openLink('https://example.com/'); await view.sendMessage('hello');
      await view.updateModelContext({ structuredContent: { n: 1 } }); await view.downloadFile([{ type: 'resource_link', uri: 'test://x', name: 'x' }])`);
    const sent = Object.fromEntries(
      (await received()).filter((m) => m.method).map((m) => [m.method, m.params]),
    );
    expect(sent['ui/request-display-mode']).toEqual({ mode: 'fullscreen' });
    expect(sent['tools/call']).toEqual({ name: 'add', arguments: { a: 1 } });
    expect(sent['ui/open-link']).toEqual({ url: 'https://example.com/' });
    expect(sent['ui/message']).toEqual({ role: 'user', content: [{ type: 'text', text: 'hello' }] });
    expect(sent['ui/update-model-context']).toEqual({ structuredContent: { n: 1 } });
    expect(sent['ui/download-file']).toEqual({
      contents: [{ type: 'resource_link', uri: 'test://x', name: 'x' }],
    });

    // Teardown runs the view's callback, then answers; unknown requests get -32601.
    await page.evaluate(`window.send({ jsonrpc: '2.0', id: 'td', method: 'ui/resource-teardown', params: {} });
      window.send({ jsonrpc: '2.0', id: 'nope', method: 'ui/unknown', params: {} })`);
    await expect
      .poll(async () => (await received()).filter((m) => m.id === 'td' || m.id === 'nope').length)
      .toBe(2);
    const answers = Object.fromEntries(
      (await received()).filter((m) => typeof m.id === 'string').map((m) => [m.id, m]),
    );
    expect(answers.td).toEqual({ jsonrpc: '2.0', id: 'td', result: {} });
    expect(answers.nope.error.code).toBe(-32601);
    expect(await inView('return events.some((e) => e[0] === "teardown")')).toBe(true);
    await page.close();
  });
});
