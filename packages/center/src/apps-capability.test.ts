/**
 * The review inspects a server with `apps: true` as an MCP Apps host: the extension is advertised in both eras,
 * and the everything server (which negotiates) then links its chart view; without it, no tool links one.
 */
import { describe, expect, it } from 'vitest';
import { advertiseApps, advertisingApps } from './apps-capability.js';
import { inspectServer } from './inspect.js';
import { EVERYTHING_MAIN } from './test/fixture-fleet.js';

const UI = { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } };

describe('advertising MCP Apps', () => {
  it('adds the extension to initialize (legacy) and to per-request client capabilities (2026-07-28)', () => {
    const initialize = JSON.parse(
      advertiseApps(
        JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: { protocolVersion: '2025-11-25', capabilities: { extensions: { other: {} } } },
        }),
      ),
    );
    expect(initialize.params.capabilities.extensions).toEqual({ other: {}, ...UI });
    const modern = JSON.parse(
      advertiseApps(
        JSON.stringify({
          jsonrpc: '2.0',
          id: 2,
          method: 'tools/list',
          params: { _meta: { 'io.modelcontextprotocol/clientCapabilities': { roots: {} } } },
        }),
      ),
    );
    expect(modern.params._meta['io.modelcontextprotocol/clientCapabilities']).toEqual({
      roots: {},
      extensions: UI,
    });
    const answer = JSON.stringify({ jsonrpc: '2.0', id: 3, result: {} });
    expect(advertiseApps(answer)).toBe(answer);
    expect(advertiseApps('not json')).toBe('not json');
  });

  it('makes a negotiating server link its view in the inspection (the everything server)', async () => {
    const target = {
      stdio: { command: process.execPath, args: [EVERYTHING_MAIN], env: {}, cwd: process.cwd() },
    };
    const linked = (tools: Record<string, unknown>[]) =>
      tools
        .filter(
          (tool) =>
            typeof (tool['_meta'] as { ui?: { resourceUri?: unknown } })?.ui?.resourceUri === 'string',
        )
        .map((tool) => tool['name']);
    const host = await inspectServer(target, { timeoutMs: 20_000, wrapTransport: advertisingApps });
    expect(linked(host.tools)).toContain('show_chart');
    expect(host.resources.map((resource) => resource['uri'])).toContain('ui://everything/chart.html');
    const plain = await inspectServer(target, { timeoutMs: 20_000 });
    expect(linked(plain.tools)).toEqual([]);
  }, 60_000);
});
