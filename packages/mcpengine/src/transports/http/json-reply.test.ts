import { describe, expect, it } from 'vitest';
import { jsonAnswer, jsonReplyOf } from './json-reply.js';

describe('light JSON answers (toNodeHandler)', () => {
  it('carry their text for the adapter and still behave as a Response', async () => {
    const response = jsonAnswer('{"ok":true}', 201, { 'content-type': 'application/json' }, true);
    expect(jsonReplyOf(response)).toEqual({
      status: 201,
      headers: { 'content-type': 'application/json' },
      json: '{"ok":true}',
    });
    expect(response).toBeInstanceOf(Response);
    expect(response.status).toBe(201);
    expect(response.ok).toBe(true);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(await response.json()).toEqual({ ok: true });
    expect(response.bodyUsed).toBe(true);
    expect(Object.prototype.toString.call(response)).toBe('[object Response]');
  });

  it('are real Responses when the request did not come through Node', async () => {
    const response = jsonAnswer('[1]', 200, { 'content-type': 'application/json' }, false);
    expect(jsonReplyOf(response)).toBeUndefined();
    expect(await response.text()).toBe('[1]');
  });
});

describe('large list pages over Node', () => {
  it('are written from their pre-encoded bytes, byte for byte the same response', async () => {
    const { McpServer } = await import('../../server/index.js');
    const { serializeResult, serializeResultParts } = await import('../../protocol/jsonrpc.js');
    const { serveHttp } = await import('./node.js');
    const bytes = new TextEncoder().encode('{"tools":["é"]}');
    const joined = Buffer.concat(
      serializeResultParts(7, bytes).map((p) => (typeof p === 'string' ? Buffer.from(p) : p)),
    );
    expect(joined.toString()).toBe(serializeResult(7, '{"tools":["é"]}'));

    const server = new McpServer({ name: 'big', version: '1.0.0' });
    // Enough tools, with non-ASCII text, for the page to pass the parts threshold.
    for (let i = 0; i < 120; i++) {
      server.addTool({
        name: `tool_${i}`,
        description: `Outil numéro ${i} — ${'x'.repeat(200)}`,
        handler: () => 'ok',
      });
    }
    const serving = await serveHttp(server, { port: 0 });
    try {
      for (let round = 0; round < 2; round++) {
        const response = await fetch(serving.url, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
            'mcp-protocol-version': '2026-07-28',
            'mcp-method': 'tools/list',
          },
          body: JSON.stringify({
            jsonrpc: '2.0',
            id: round,
            method: 'tools/list',
            params: {
              _meta: {
                'io.modelcontextprotocol/protocolVersion': '2026-07-28',
                'io.modelcontextprotocol/clientCapabilities': {},
              },
            },
          }),
        });
        const text = await response.text();
        expect(Number(response.headers.get('content-length'))).toBe(Buffer.byteLength(text));
        const message = JSON.parse(text) as { id: number; result: { tools: { description: string }[] } };
        expect(message.id).toBe(round);
        expect(message.result.tools).toHaveLength(100);
        expect(message.result.tools[3]!.description.startsWith('Outil numéro 3 — ')).toBe(true);
      }
    } finally {
      await serving.close();
    }
  });
});
