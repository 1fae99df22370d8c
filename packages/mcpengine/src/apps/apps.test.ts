/** MCP Apps on the server: negotiation in both eras, tool links and visibility, app resources, text fallback. */
import { afterEach, describe, expect, it } from 'vitest';
import { assertAllTapsClean, initializeRaw, modernParams, RawPeer } from '../test/harness.js';
import { McpServer } from '../server/index.js';
import {
  APP_MIME_TYPE,
  APPS_EXTENSION,
  apps,
  CLIENT_CAPABILITIES_META_KEY,
  escapeHtml,
  html,
  jsonForScript,
  trustedHtml,
} from './index.js';

afterEach(() => assertAllTapsClean());

const VIEW =
  '<!doctype html><html><head><title>Chart</title></head><body><div id="root"></div></body></html>';
const UI_CAPS = { extensions: { [APPS_EXTENSION]: { mimeTypes: [APP_MIME_TYPE] } } };
const withUi = (params: Record<string, unknown> = {}) =>
  modernParams(params, { [CLIENT_CAPABILITIES_META_KEY]: UI_CAPS });

function server(): McpServer {
  const s = new McpServer({ name: 'apps', version: '1.0.0' });
  const a = apps(s);
  a.resource({
    uri: 'ui://chart/view.html',
    name: 'Chart view',
    html: VIEW,
    csp: { connectDomains: ['https://api.example.com'] },
    prefersBorder: true,
  });
  a.tool({
    name: 'chart',
    description: 'Draws a chart',
    ui: { resourceUri: 'ui://chart/view.html' },
    handler: () => ({
      content: [{ type: 'text', text: 'Chart of 3 points' }],
      structuredContent: { points: 3 },
    }),
  });
  a.tool({
    name: 'chart-refresh',
    description: 'Refreshes the chart (called by the view)',
    ui: { resourceUri: 'ui://chart/view.html', visibility: ['app'] },
    handler: () => ({ structuredContent: { points: 4 } }),
  });
  a.tool({
    name: 'empty',
    ui: { resourceUri: 'ui://chart/view.html' },
    handler: () => ({ content: [] }),
  });
  s.addTool({ name: 'plain', description: 'Plain', handler: () => 'plain' });
  return s;
}

const byName = (result: any) => Object.fromEntries(result.tools.map((t: any) => [t.name, t]));

describe('mcpengine/apps: negotiation', () => {
  it('2026-07-28: tools/list shows UI metadata and app-only tools per request, only to clients that declared Apps', async () => {
    const peer = await RawPeer.open(server());
    const ui = byName((await peer.request(1, 'tools/list', withUi())).result);
    expect(ui.chart._meta).toEqual({
      ui: { resourceUri: 'ui://chart/view.html' },
      'ui/resourceUri': 'ui://chart/view.html',
    });
    expect(ui['chart-refresh']._meta.ui).toEqual({
      resourceUri: 'ui://chart/view.html',
      visibility: ['app'],
    });
    expect(ui.plain._meta).toBeUndefined();

    const text = byName((await peer.request(2, 'tools/list', modernParams())).result);
    expect(Object.keys(text).sort()).toEqual(['chart', 'empty', 'plain']);
    expect(text.chart._meta).toBeUndefined();

    // The extension declared without our MIME type is not Apps support (mimeTypes is required).
    const other = await peer.request(
      3,
      'tools/list',
      modernParams({}, { [CLIENT_CAPABILITIES_META_KEY]: { extensions: { [APPS_EXTENSION]: {} } } }),
    );
    expect(byName(other.result).chart._meta).toBeUndefined();

    const discover = await peer.request(4, 'server/discover', modernParams());
    expect(discover.result.capabilities.extensions[APPS_EXTENSION]).toEqual({});
  });

  it('legacy: the capabilities given at initialize decide, in `extensions` or `experimental`', async () => {
    for (const caps of [UI_CAPS, { experimental: UI_CAPS.extensions }]) {
      const peer = await RawPeer.open(server());
      await initializeRaw(peer, '2025-11-25', caps);
      const tools = byName((await peer.request(1, 'tools/list', {})).result);
      expect(tools.chart._meta.ui.resourceUri).toBe('ui://chart/view.html');
      expect(tools['chart-refresh']).toBeDefined();
    }
    const plain = await RawPeer.open(server());
    await initializeRaw(plain, '2025-06-18', {});
    const tools = byName((await plain.request(1, 'tools/list', {})).result);
    expect(tools.chart._meta).toBeUndefined();
    expect(tools['chart-refresh']).toBeUndefined();
    // An app-only tool is not callable by a client that cannot render apps.
    const call = await plain.request(2, 'tools/call', { name: 'chart-refresh', arguments: {} });
    expect(call.error?.code ?? (call.result.isError ? -1 : 0)).not.toBe(0);
  });
});

describe('mcpengine/apps: resources and results', () => {
  it('lists and reads the view with the Apps MIME type and _meta.ui on both', async () => {
    const peer = await RawPeer.open(server());
    const list = await peer.request(1, 'resources/list', modernParams());
    const entry = list.result.resources.find((r: any) => r.uri === 'ui://chart/view.html');
    const ui = { csp: { connectDomains: ['https://api.example.com'] }, prefersBorder: true };
    expect(entry).toMatchObject({ mimeType: APP_MIME_TYPE, _meta: { ui } });
    const read = await peer.request(2, 'resources/read', modernParams({ uri: 'ui://chart/view.html' }));
    expect(read.result.contents).toEqual([
      { uri: 'ui://chart/view.html', mimeType: APP_MIME_TYPE, text: VIEW, _meta: { ui } },
    ]);
  });

  it('returns the text fallback to every client and refuses a result without one', async () => {
    const peer = await RawPeer.open(server());
    const call = await peer.request(1, 'tools/call', withUi({ name: 'chart', arguments: {} }));
    expect(call.result.content).toEqual([{ type: 'text', text: 'Chart of 3 points' }]);
    const refresh = await peer.request(2, 'tools/call', withUi({ name: 'chart-refresh', arguments: {} }));
    expect(refresh.result.content[0].text).toBe('{"points":4}');
    const empty = await peer.request(3, 'tools/call', withUi({ name: 'empty', arguments: {} }));
    expect(empty.result.isError).toBe(true);
    expect(empty.result.content[0].text).toMatch(/text fallback/);
  });

  it('refuses bad declarations at registration with clear errors', () => {
    const a = apps(new McpServer({ name: 'bad', version: '1.0.0' }));
    expect(() => a.resource({ uri: 'https://x/view.html', name: 'x', html: VIEW })).toThrow(/ui:\/\//);
    expect(() => a.resource({ uri: 'ui://x', name: 'x', html: '<div>fragment</div>' })).toThrow(/HTML5/);
    for (const domain of ['*', 'https://a.com; script-src *', "https://a.com'", 'api.example.com'])
      expect(() =>
        a.resource({ uri: 'ui://y', name: 'y', html: VIEW, csp: { resourceDomains: [domain] } }),
      ).toThrow(/not an origin/);
    expect(() => a.tool({ name: 't', ui: { resourceUri: 'ui://missing' }, handler: () => 'x' })).toThrow(
      /not registered/,
    );
    expect(() => a.tool({ name: 't', ui: { visibility: ['robot' as 'app'] }, handler: () => 'x' })).toThrow(
      /visibility/,
    );
  });
});

describe('mcpengine/apps: handles', () => {
  it('update() keeps the app rules and remove() unlinks', async () => {
    const s = new McpServer({ name: 'handles', version: '1.0.0' });
    const a = apps(s);
    const view = a.resource({ uri: 'ui://v', name: 'v', html: VIEW });
    const config = {
      name: 'refresh',
      ui: { resourceUri: 'ui://v', visibility: ['app' as const] },
      handler: () => ({ content: [] }),
    };
    const tool = a.tool(config);
    const peer = await RawPeer.open(s);
    const names = async (id: number, params = modernParams()) =>
      (await peer.request(id, 'tools/list', params)).result.tools.map((t: any) => t.name);
    expect(await names(1)).toEqual([]);
    tool.update({ ...config, ui: { resourceUri: 'ui://v' } });
    expect(await names(2)).toEqual(['refresh']);
    // The wrapped handler survives an update: an empty result is still refused.
    const call = await peer.request(3, 'tools/call', modernParams({ name: 'refresh', arguments: {} }));
    expect(call.result.isError).toBe(true);
    expect(() => tool.update({ ...config, name: 'other' })).toThrow(/cannot change the name/);
    view.update({ uri: 'ui://v', name: 'v', html: VIEW, prefersBorder: false });
    const read = await peer.request(4, 'resources/read', modernParams({ uri: 'ui://v' }));
    expect(read.result.contents[0]._meta).toEqual({ ui: { prefersBorder: false } });
    tool.remove();
    view.remove();
    expect(() => a.tool({ ...config, name: 'late' })).toThrow(/not registered/);
  });
});

describe('mcpengine/apps: escaping', () => {
  it('never lets data become markup', () => {
    const name = '<img src=x onerror="alert(1)">&\'`';
    expect(escapeHtml(name)).toBe('&lt;img src=x onerror=&quot;alert(1)&quot;&gt;&amp;&#39;&#96;');
    const items = ['<b>', 'ok'];
    const out = String(
      html`<ul title="${name}">
        ${items.map((i) => html`<li>${i}</li>`)}${trustedHtml('<hr>')}${null}
      </ul>`,
    );
    expect(out.replace(/>\s+</g, '><')).toBe(
      '<ul title="&lt;img src=x onerror=&quot;alert(1)&quot;&gt;&amp;&#39;&#96;"><li>&lt;b&gt;</li><li>ok</li><hr></ul>',
    );
    expect(jsonForScript({ s: '</script><!--\u2028' })).toBe(
      '{"s":"\\u003c/script\\u003e\\u003c!--\\u2028"}',
    );
  });
});
