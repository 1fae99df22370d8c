/**
 * The inspector's client advertises the MCP Apps extension in both eras — at `initialize` (legacy) and in every
 * request's client capabilities (2026-07-28) — and the corpus app server, which shows UI metadata only to clients
 * that advertise it, shows it to the inspector in both.
 */
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openInspection, type JsonObject } from './connection.js';
import { advertiseUi } from './ui-capability.js';

const ROOT = resolve(import.meta.dirname, '../../../..');
const APP = join(ROOT, 'packages/validator/corpus/apps/correct-app.mjs');
const UI = { mimeTypes: ['text/html;profile=mcp-app'] };

describe('the UI extension capability', () => {
  it('is added to initialize and to per-request client capabilities, and leaves other messages alone', () => {
    const init = JSON.parse(
      advertiseUi(
        JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: { capabilities: { roots: {} } },
        }),
      ),
    ) as { params: { capabilities: JsonObject } };
    expect(init.params.capabilities).toEqual({ roots: {}, extensions: { 'io.modelcontextprotocol/ui': UI } });
    const modern = JSON.parse(
      advertiseUi(
        JSON.stringify({
          jsonrpc: '2.0',
          id: 2,
          method: 'tools/list',
          params: { _meta: { 'io.modelcontextprotocol/clientCapabilities': { extensions: { other: {} } } } },
        }),
      ),
    ) as { params: { _meta: JsonObject } };
    expect(modern.params._meta['io.modelcontextprotocol/clientCapabilities']).toEqual({
      extensions: { other: {}, 'io.modelcontextprotocol/ui': UI },
    });
    const plain = '{"jsonrpc":"2.0","id":3,"method":"ping"}';
    expect(advertiseUi(plain)).toBe(plain);
    expect(advertiseUi('not json')).toBe('not json');
  });

  for (const revision of ['2025-11-25', '2026-07-28'] as const)
    it(`is negotiated with an app server at ${revision}: the app tools come with their UI metadata`, async () => {
      const inspection = await openInspection(
        { kind: 'stdio', command: process.execPath, args: [APP] },
        { revision },
      );
      try {
        const listed = await inspection.listAll('tools/list', 'tools');
        const show = (listed['tools'] as JsonObject[]).find((tool) => tool['name'] === 'show_view');
        expect(show?.['_meta']).toMatchObject({ ui: { resourceUri: 'ui://corpus/view.html' } });
        const sent = inspection.timeline.entries.filter(
          (entry) => entry.kind === 'message' && entry.from === 'client',
        );
        expect(JSON.stringify(sent)).toContain(
          '"io.modelcontextprotocol/ui":{"mimeTypes":["text/html;profile=mcp-app"]}',
        );
        expect(inspection.timeline.violations).toEqual([]);
      } finally {
        await inspection.close();
      }
    });
});
