/**
 * The web UI end to end in headless Chromium (Debian's `chromium`, driven by playwright-core): connect to the
 * everything server over stdio and HTTP, call a tool through its form, answer sampling and elicitation, follow
 * progress, open and export the timeline; the saved servers of `--config` following the file (Reload config, a
 * bad file reported); and the backend's token, Host and Origin protections.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../test/browser.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfigTargets } from '../core/config-file.js';
import { startBackend, type RunningBackend } from './backend.js';
import { loopbackBindAddress } from './guard.js';

const ROOT = resolve(import.meta.dirname, '../../../..');
const SERVER = join(ROOT, 'servers/everything/dist/main.js');
const ASSETS = join(ROOT, 'packages/inspector/dist/ui');

let browser: Browser;
let stdioBackend: RunningBackend;

beforeAll(async () => {
  if (!existsSync(join(ASSETS, 'app.js'))) throw new Error('build the UI first: npm run build');
  browser = await launchChromium();
  stdioBackend = await startBackend({
    target: { kind: 'stdio', command: process.execPath, args: [SERVER] },
    assetsDir: ASSETS,
  });
}, 60_000);

afterAll(async () => {
  await stdioBackend?.close();
  await browser?.close();
});

async function openConnected(backend: RunningBackend): Promise<Page> {
  const page = await browser.newPage({ acceptDownloads: true });
  // An action that cannot happen fails with the locator it waited for, not with the test's timeout.
  page.setDefaultTimeout(15_000);
  await page.goto(backend.url);
  // The backend keeps one session for all its pages: connect only when no earlier page did.
  const connect = page.getByRole('button', { name: 'Connect', exact: true });
  await expect.poll(() => page.getByTestId('status').textContent()).toMatch(/Connected|Not connected/);
  if (/Not connected/.test((await page.getByTestId('status').textContent()) ?? '')) await connect.click();
  await expect
    .poll(() => page.getByTestId('status').textContent(), { timeout: 20_000 })
    .toMatch(/Connected to mcpengine-everything/);
  return page;
}

async function pickTool(page: Page, name: string): Promise<void> {
  await page.getByRole('tab', { name: 'Tools' }).click();
  await page.getByRole('searchbox', { name: 'Search tools' }).fill(name);
  await page.getByRole('button', { name, exact: true }).click();
}

describe('the inspector UI over stdio', () => {
  it('connects, shows the server, and calls a tool through its generated form', async () => {
    const page = await openConnected(stdioBackend);
    try {
      await expect.poll(() => page.getByTestId('revision').textContent()).toBe('2026-07-28');
      await expect.poll(() => page.locator('.instructions').textContent()).toMatch(/test server/);
      await pickTool(page, 'add');
      await page.locator('[id="args.a"]').fill('40');
      await page.locator('[id="args.b"]').fill('2');
      await page.getByRole('button', { name: 'Call tool' }).click();
      await expect.poll(() => page.getByTestId('result').textContent()).toMatch(/"sum": 42/);
    } finally {
      await page.close();
    }
  });

  it('lets the user answer a sampling request and an elicitation form', async () => {
    const page = await openConnected(stdioBackend);
    try {
      await pickTool(page, 'test_sampling');
      await page.locator('[id="args.prompt"]').fill('What is 2+2?');
      await page.getByRole('button', { name: 'Call tool' }).click();
      const sampling = page.getByRole('group', { name: 'Sampling request' });
      await expect.poll(() => sampling.textContent()).toMatch(/What is 2\+2\?/);
      await sampling.getByRole('textbox').fill('Four, said the human model.');
      await sampling.getByRole('button', { name: 'Send reply' }).click();
      await expect
        .poll(() => page.getByTestId('result').textContent())
        .toMatch(/LLM response: Four, said the human model\./);

      await pickTool(page, 'test_elicitation');
      await page.locator('[id="args.message"]').fill('Who are you?');
      await page.getByRole('button', { name: 'Call tool' }).click();
      const elicitation = page.getByRole('group', { name: 'Elicitation request' });
      await expect.poll(() => elicitation.textContent()).toMatch(/Who are you\?/);
      await elicitation.locator('[id$=".username"]').fill('ada');
      await elicitation.locator('[id$=".email"]').fill('ada@example.com');
      await elicitation.getByRole('button', { name: 'Accept' }).click();
      await expect
        .poll(() => page.getByTestId('result').textContent())
        .toMatch(/action=accept, content=\{"username":"ada","email":"ada@example.com"\}/);
    } finally {
      await page.close();
    }
  });

  it('follows progress, then opens the timeline and exports it', async () => {
    const page = await openConnected(stdioBackend);
    try {
      await pickTool(page, 'test_tool_with_progress');
      await page.getByRole('button', { name: 'Call tool' }).click();
      await expect.poll(() => page.getByTestId('result').textContent()).toMatch(/Progress tool completed/);
      await expect.poll(() => page.getByTestId('progress-text').textContent()).toMatch(/100 \/ 100 Done/);

      await page.getByRole('tab', { name: 'Timeline' }).click();
      await expect
        .poll(() => page.getByRole('heading', { level: 2 }).textContent())
        .toMatch(/0 schema violation/);
      await expect.poll(() => page.locator('.timeline li').count()).toBeGreaterThan(3);
      const download = page.waitForEvent('download');
      await page.getByRole('button', { name: 'Export timeline' }).click();
      const file = await (await download).path();
      const lines = readFileSync(file, 'utf8')
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as Record<string, unknown>);
      expect(lines[0]).toMatchObject({ format: 'mcpengine-inspect-session', revision: '2026-07-28' });
      expect(lines.some((line) => line['method'] === 'notifications/progress')).toBe(true);

      // Reopen the exported file in the page.
      await page.getByLabel('Open a saved timeline').setInputFiles(file);
      await expect
        .poll(() => page.getByRole('heading', { level: 2 }).textContent())
        .toMatch(new RegExp(`Saved timeline .*: ${lines.length - 1} entries, 0 schema violation`));
    } finally {
      await page.close();
    }
  });
});

describe('the inspector UI over HTTP', () => {
  let http: ChildProcess;
  let backend: RunningBackend;

  beforeAll(async () => {
    http = spawn(process.execPath, [SERVER, '--http', '--port', '0'], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let banner = '';
    const url = await new Promise<string>((ready, reject) => {
      http.once('exit', (code) => reject(new Error(`the HTTP server exited (${code}): ${banner}`)));
      http.stderr!.on('data', (chunk: Buffer) => {
        banner += chunk.toString();
        const found = /Streamable HTTP: (\S+)/.exec(banner);
        if (found) ready(found[1]!);
      });
    });
    backend = await startBackend({ target: { kind: 'http', url, transport: 'auto' }, assetsDir: ASSETS });
  }, 30_000);

  afterAll(async () => {
    await backend?.close();
    http?.kill('SIGTERM');
  });

  it('connects over Streamable HTTP and calls a tool; the timeline shows the HTTP exchanges', async () => {
    const page = await openConnected(backend);
    try {
      await pickTool(page, 'echo');
      await page.locator('[id="args.text"]').fill('<img src=x onerror=alert(1)>');
      await page.getByRole('button', { name: 'Call tool' }).click();
      // Server text is shown as text: the markup arrives verbatim and no element is created from it.
      await expect
        .poll(() => page.getByTestId('result').textContent())
        .toMatch(/<img src=x onerror=alert\(1\)>/);
      expect(await page.getByTestId('result').locator('img').count()).toBe(0);
      await page.getByRole('tab', { name: 'Timeline' }).click();
      await page.getByRole('searchbox', { name: 'Filter the timeline' }).fill('HTTP POST 200');
      await expect.poll(() => page.locator('.timeline').textContent()).toMatch(/HTTP POST 200 http:\/\/127/);
    } finally {
      await page.close();
    }
  });
});

describe('the backend protections', () => {
  it('refuses API calls and streams without the token, with a wrong token, a foreign Host or Origin', async () => {
    const { origin, token } = stdioBackend;
    const call = (path: string, headers: Record<string, string>) => fetch(`${origin}${path}`, { headers });
    expect((await call('/api/state', {})).status).toBe(401);
    expect((await call('/api/events', {})).status).toBe(401);
    expect((await call('/api/timeline', { authorization: 'Bearer wrong' })).status).toBe(401);
    expect((await call('/api/state', { authorization: `Bearer ${token}` })).status).toBe(200);
    expect(
      (await call('/api/state', { authorization: `Bearer ${token}`, origin: 'http://evil.example' })).status,
    ).toBe(403);
    // DNS rebinding: a foreign name resolving to 127.0.0.1 arrives with its own Host header.
    const { request } = await import('node:http');
    const status = await new Promise<number>((done, fail) => {
      const req = request(
        `${origin}/api/state`,
        { headers: { host: 'evil.example', authorization: `Bearer ${token}` } },
        (res) => {
          res.resume();
          done(res.statusCode ?? 0);
        },
      );
      req.once('error', fail);
      req.end();
    });
    expect(status).toBe(403);
  });

  it('a page of another origin cannot use the API from the browser', async () => {
    const page = await browser.newPage();
    try {
      await page.goto('data:text/html,<p>attacker</p>');
      const outcome = await page.evaluate(async (target) => {
        try {
          const response = await fetch(`${target}/api/connect`, { method: 'POST', body: '{}' });
          return `status ${response.status}`;
        } catch {
          return 'blocked';
        }
      }, stdioBackend.origin);
      // Either the browser blocks the cross-origin read, or the backend refuses the foreign Origin.
      expect(outcome).toMatch(/blocked|status 40[13]/);
    } finally {
      await page.close();
    }
  });

  it('binds loopback only and refuses wildcard addresses', () => {
    expect(loopbackBindAddress('localhost')).toBe('127.0.0.1');
    expect(() => loopbackBindAddress('0.0.0.0')).toThrow(/refusing/);
    expect(() => loopbackBindAddress('::')).toThrow(/refusing/);
    expect(() => loopbackBindAddress('192.168.1.10')).toThrow(/refusing/);
  });

  it('serves only its own assets, with a CSP that forbids inline scripts and framing', async () => {
    const page = await fetch(`${stdioBackend.origin}/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toMatch(/script-src 'self'/);
    expect(page.headers.get('content-security-policy')).toMatch(/frame-ancestors 'none'/);
    expect((await fetch(`${stdioBackend.origin}/../package.json`)).status).toBe(404);
    expect((await fetch(`${stdioBackend.origin}/%2e%2e%2fpackage.json`)).status).toBe(404);
  });
});

describe('the saved servers of --config in the page', () => {
  it('Reload config follows the file; a bad file is reported and the previous servers kept', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'inspect-ui-config-'));
    const file = join(dir, 'mcp.json');
    const write = (names: string[]) =>
      writeFileSync(
        file,
        JSON.stringify({
          mcpServers: Object.fromEntries(
            names.map((name) => [name, { command: process.execPath, args: [SERVER] }]),
          ),
        }),
      );
    write(['one', 'two']);
    const backend = await startBackend({
      targets: loadConfigTargets(file, dir),
      configFile: { path: file, cwd: dir },
      assetsDir: ASSETS,
    });
    const page = await browser.newPage();
    try {
      await page.goto(backend.url);
      const servers = () =>
        page.getByRole('combobox', { name: 'Server' }).locator('option').allTextContents();
      await expect.poll(servers).toEqual(['one', 'two']);
      write(['one', 'two', 'three']);
      await page.getByRole('button', { name: 'Reload config' }).click();
      await expect.poll(servers).toEqual(['one', 'two', 'three']);
      await expect
        .poll(() => page.getByTestId('config-file').textContent())
        .toMatch(/3 servers \(one, two, three\)/);
      writeFileSync(file, '{ "mcpServers": [] }');
      await page.getByRole('button', { name: 'Reload config' }).click();
      await expect
        .poll(() => page.getByTestId('config-file').getByRole('alert').textContent())
        .toMatch(/mcpServers must be a JSON object \(the previous list of servers is kept\)/);
      expect(await servers()).toEqual(['one', 'two', 'three']);
    } finally {
      await page.close();
      await backend.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
