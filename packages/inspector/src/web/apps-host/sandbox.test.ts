/**
 * The sandbox listener and the `/api/apps/*` routes without a browser: a View's proxy document is served only under
 * its id, with its CSP and `frame-ancestors`, only to its own Host name; the API needs the token and refuses
 * foreign Origins; a View's call of a tool without `app` visibility, or of one the server never listed, is refused; a closed View is gone.
 */
import { join, resolve } from 'node:path';
import { DEFAULT_APP_CSP } from 'mcpengine/apps/protocol';
import { afterAll, describe, expect, it } from 'vitest';
import { startBackend, type RunningBackend } from '../backend.js';
import { viewPolicy } from './csp.js';

const ROOT = resolve(import.meta.dirname, '../../../../..');
const CORPUS_APP = join(ROOT, 'packages/validator/corpus/apps/correct-app.mjs');
const backends: RunningBackend[] = [];

async function backendFor(command: string, args: string[]): Promise<RunningBackend> {
  const backend = await startBackend({
    target: { kind: 'stdio', command, args },
    assetsDir: join(ROOT, 'packages/inspector/dist/ui'),
  });
  backends.push(backend);
  return backend;
}

afterAll(async () => {
  for (const backend of backends) await backend.close();
});

describe('the CSP of a View that declares nothing', () => {
  it("is the spec's default (the engine's DEFAULT_APP_CSP), only further restricted", () => {
    const header = viewPolicy({}).header;
    expect(header.startsWith(DEFAULT_APP_CSP)).toBe(true);
    expect(header.slice(DEFAULT_APP_CSP.length)).toBe(
      "; frame-src 'none'; object-src 'none'; base-uri 'self'",
    );
  });
});

describe('the sandbox listener and the apps API', () => {
  it('serve a View only to its id, with its CSP and frame-ancestors, behind the token, Host and Origin checks', async () => {
    const backend = await backendFor(process.execPath, [CORPUS_APP]);
    const api = (path: string, body: unknown, headers: Record<string, string> = {}) =>
      fetch(`${backend.origin}/api/${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${backend.token}`, 'content-type': 'application/json', ...headers },
        body: JSON.stringify(body),
      });
    expect((await api('connect', {})).status).toBe(200);
    expect(
      (await api('apps/open', { uri: 'ui://corpus/view.html' }, { authorization: 'Bearer wrong' })).status,
    ).toBe(401);
    expect(
      (await api('apps/open', { uri: 'ui://corpus/view.html' }, { origin: 'http://evil.example' })).status,
    ).toBe(403);
    expect((await api('apps/open', { uri: 'https://example.com/' })).status).toBe(400);
    const opened = (await (await api('apps/open', { uri: 'ui://corpus/view.html' })).json()) as {
      viewId: string;
      proxyUrl: string;
    };
    expect(opened.proxyUrl.startsWith(`${backend.sandboxOrigin}/view/`)).toBe(true);
    const proxy = await fetch(opened.proxyUrl);
    expect(proxy.status).toBe(200);
    const csp = proxy.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("connect-src 'none'");
    expect(csp).toContain(`frame-ancestors ${backend.origin}`);
    expect(csp).not.toContain('[::1]'); // CSP host-sources have no IPv6 literal: Chromium would warn and drop it
    expect(csp).toContain(`http://localhost:${new URL(backend.origin).port}`);
    // Another view id, another method, a foreign Host (DNS rebinding): refused.
    expect((await fetch(`${backend.sandboxOrigin}/view/AAAAAAAAAAAAAAAAAAAAAAAA`)).status).toBe(404);
    expect((await fetch(opened.proxyUrl, { method: 'POST' })).status).toBe(405);
    const { request } = await import('node:http');
    const status = await new Promise<number>((done, fail) => {
      const req = request(opened.proxyUrl, { headers: { host: 'evil.example' } }, (res) => {
        res.resume();
        done(res.statusCode ?? 0);
      });
      req.once('error', fail);
      req.end();
    });
    expect(status).toBe(403);
    // A View's requests go only to the server, and only for an open view.
    const refused = (await (
      await api('apps/request', {
        viewId: opened.viewId,
        method: 'tools/call',
        params: { name: 'model_only' },
      })
    ).json()) as { error?: { code: number } };
    expect(refused.error?.code).toBe(-32000);
    // A tool the server never listed: refused by the host, never sent to the server, in the timeline.
    const unlisted = (await (
      await api('apps/request', {
        viewId: opened.viewId,
        method: 'tools/call',
        params: { name: 'never_listed', arguments: {} },
      })
    ).json()) as { error?: { code: number; message: string } };
    expect(unlisted.error).toEqual({
      code: -32602,
      message: 'tool "never_listed" is not callable by apps: the server did not list it',
    });
    const timeline = await (
      await fetch(`${backend.origin}/api/timeline`, { headers: { authorization: `Bearer ${backend.token}` } })
    ).text();
    const entries = timeline.split('\n').filter((line) => line !== '');
    expect(
      entries.some((line) => /refused tools\/call never_listed .*the server never listed it/.test(line)),
    ).toBe(true);
    expect(
      entries.some((line) => line.includes('"method":"tools/call"') && line.includes('never_listed')),
    ).toBe(false);
    // A text/html resource: behind the token, served from the sandbox origin under a no-script policy.
    const html = '<p>hi</p><script>alert(1)</script>';
    expect((await api('html-preview', { html }, { authorization: 'Bearer wrong' })).status).toBe(401);
    const preview = (await (await api('html-preview', { html })).json()) as { url: string };
    expect(preview.url.startsWith(`${backend.sandboxOrigin}/html/`)).toBe(true);
    const served = await fetch(preview.url);
    expect(served.status).toBe(200);
    expect(await served.text()).toBe(html);
    const htmlCsp = served.headers.get('content-security-policy') ?? '';
    expect(htmlCsp).toMatch(/^default-src 'none'; .*; sandbox, frame-ancestors /);
    expect(htmlCsp).not.toMatch(/script-src|allow-scripts/);
    expect((await fetch(`${backend.sandboxOrigin}/html/AAAAAAAAAAAAAAAAAAAAAAAA`)).status).toBe(404);
    expect((await fetch(`${backend.origin}${new URL(preview.url).pathname}`)).status).toBe(404);
    expect((await api('apps/close', { viewId: opened.viewId })).status).toBe(200);
    expect((await fetch(opened.proxyUrl)).status).toBe(404);
    expect((await api('apps/request', { viewId: opened.viewId, method: 'ping' })).status).toBe(404);
  });
});
