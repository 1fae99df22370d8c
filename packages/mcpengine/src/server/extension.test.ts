/** `server.extend()`: capabilities per era, methods, and gates, every message the server sends schema-checked. */
import { afterEach, describe, expect, it } from 'vitest';
import { assertAllTapsClean, initializeRaw, modernParams, RawPeer } from '../test/harness.js';
import { McpServer, ProtocolError, TASKS_EXTENSION, type ServerExtension } from './index.js';

afterEach(() => assertAllTapsClean());

const UI = 'io.modelcontextprotocol/ui';
const CAPS = 'io.modelcontextprotocol/clientCapabilities';

/** A small stand-in for MCP Apps: UI metadata on tools/list entries for clients that declared the extension. */
function appsLike(): ServerExtension {
  return {
    id: UI,
    capabilities: ({ tools }) =>
      tools.some((tool) => tool.name.startsWith('ui-')) ? { extensions: { [UI]: {} } } : undefined,
    gates: {
      toolsListMeta: (tool, call) => {
        const declared = call.ctx.client.capabilities.extensions?.[UI] !== undefined;
        return declared && tool.name.startsWith('ui-')
          ? { ui: { resourceUri: `ui://${tool.name}` } }
          : undefined;
      },
      toolsCall: (tool) =>
        tool.name === 'ui-locked' ? { content: [{ type: 'text', text: 'answered by the gate' }] } : undefined,
    },
  };
}

function server(): McpServer {
  const s = new McpServer({ name: 'extended', version: '1.0.0' });
  s.addTool({ name: 'ui-chart', description: 'Draws a chart', handler: () => 'chart' });
  s.addTool({ name: 'ui-locked', description: 'Never runs', handler: () => 'handler ran' });
  s.addTool({ name: 'plain', description: 'Plain', handler: () => 'plain' });
  return s.extend(appsLike());
}

describe('server.extend', () => {
  it('adds its capability in the 2026-07-28 form and keeps the tasks extension installed', async () => {
    const s = server();
    expect(s.extension(TASKS_EXTENSION)?.id).toBe(TASKS_EXTENSION);
    const peer = await RawPeer.open(s);
    const discover = await peer.request(1, 'server/discover', modernParams());
    expect(discover.result.capabilities.extensions).toEqual({ [UI]: {} });
    // 2025-11-25 has no `extensions` capability: the revision drops the key.
    const legacy = await RawPeer.open(server());
    const init = await initializeRaw(legacy, '2025-11-25');
    expect(init.result.capabilities.extensions).toBeUndefined();
  });

  it('adds per-request _meta to tools/list entries, only for clients that declared the extension', async () => {
    const peer = await RawPeer.open(server());
    const withUi = await peer.request(
      1,
      'tools/list',
      modernParams({}, { [CAPS]: { extensions: { [UI]: {} } } }),
    );
    const byName = Object.fromEntries(withUi.result.tools.map((t: any) => [t.name, t]));
    expect(byName['ui-chart']._meta).toEqual({ ui: { resourceUri: 'ui://ui-chart' } });
    expect(byName.plain._meta).toBeUndefined();
    expect(withUi.result.cacheScope).toBe('private');
    const without = await peer.request(2, 'tools/list', modernParams());
    expect(without.result.tools.every((t: any) => t._meta === undefined)).toBe(true);
    expect(without.result.cacheScope).toBe('public');
  });

  it('gates tools/call in both eras', async () => {
    const peer = await RawPeer.open(server());
    const modern = await peer.request(1, 'tools/call', modernParams({ name: 'ui-locked' }));
    expect(modern.result.content[0].text).toBe('answered by the gate');
    await initializeRaw(peer, '2025-11-25');
    const legacy = await peer.request(2, 'tools/call', { name: 'ui-locked' });
    expect(legacy.result.content[0].text).toBe('answered by the gate');
    expect((await peer.request(3, 'tools/call', { name: 'plain' })).result.content[0].text).toBe('plain');
  });

  it('serves its own methods with its own rules, and refuses a duplicate id or method', async () => {
    const s = new McpServer({ name: 'vendor', version: '1.0.0' });
    s.extend({
      id: 'com.example/echo',
      methods: {
        'example/echo': (call) => {
          if (typeof call.params.text !== 'string')
            throw ProtocolError.invalidParams('text must be a string');
          return { echoed: call.params.text };
        },
      },
      rules: (revision) => (revision.era === 'legacy' ? { 'example/echo': {} } : undefined),
    });
    const peer = await RawPeer.open(s, { validate: false });
    await initializeRaw(peer, '2025-11-25');
    expect((await peer.request(1, 'example/echo', { text: 'hi' })).result).toEqual({ echoed: 'hi' });
    expect((await peer.request(2, 'example/echo', {})).error.code).toBe(-32602);
    // No rule at 2026-07-28: the method does not exist there.
    expect((await peer.request(3, 'example/echo', modernParams({ text: 'hi' }))).error.code).toBe(-32601);
    expect(() => s.extend({ id: 'com.example/echo' })).toThrow(/Duplicate extension/);
    expect(() => s.extend({ id: 'other', methods: { 'example/echo': () => ({}) } })).toThrow(
      /already served by com.example\/echo/,
    );
  });
});
