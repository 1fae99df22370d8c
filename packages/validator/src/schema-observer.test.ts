import { describe, expect, it } from 'vitest';
import type { Received } from '@mcpengine/wire';
import {
  badMetaKeys,
  envelopeProblems,
  isGarbage,
  SchemaObserver,
  metaKeyFacets,
  violationFacets,
  wireOracle,
} from './schema-observer.js';

describe('the JSON-RPC envelope', () => {
  it('names each problem with the rule it breaks', () => {
    expect(envelopeProblems({ jsonrpc: '2.0', id: 1, result: {} })).toEqual([]);
    expect(
      envelopeProblems({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } }),
    ).toEqual([]);
    expect(envelopeProblems({ jsonrpc: '1.0', id: 1, result: {}, error: { code: 1.5 } })).toEqual([
      { text: 'jsonrpc is "1.0", not "2.0"', facet: 'jsonrpc' },
      { text: 'both result and error are set', facet: 'not-both' },
      { text: 'error code 1.5 is not an integer', facet: 'error-code-integer' },
      { text: 'error has no message', facet: 'error-fields' },
    ]);
    expect(envelopeProblems({ jsonrpc: '2.0', id: null, error: { code: -32601, message: 'x' } })).toEqual([
      { text: 'id is null, which only -32700 and -32600 errors may carry', facet: 'id-null' },
    ]);
    expect(envelopeProblems({ jsonrpc: '2.0' })).toEqual([
      { text: 'neither result nor error is set', facet: 'result-or-error' },
      { text: 'no id', facet: 'id' },
    ]);
  });
});

describe('replies to garbage input', () => {
  it('may carry "id": null whatever their code: a wrong code is a robustness finding, not an id one', () => {
    expect(isGarbage('{"jsonrpc": "2.0", "id": 41, "method": "ping", "params": {')).toBe(true);
    expect(isGarbage('{"jsonrpc":"2.0","id":"bad-1","method":42}')).toBe(true);
    expect(isGarbage('{"jsonrpc":"1.0","id":"bad-2","method":"ping"}')).toBe(true);
    expect(isGarbage('[{"jsonrpc":"2.0","id":1,"method":"ping"}]')).toBe(true);
    expect(isGarbage('{"jsonrpc":"2.0","id":7,"method":"ping"}')).toBe(false);

    const failures: string[] = [];
    const observer = new SchemaObserver('2025-11-25', {
      pass: () => undefined,
      fail: (check, _message, _evidence, facets) =>
        void failures.push(`${check}#${(facets ?? []).join(',')}`),
    });
    const reply = (text: string): Received => ({ at: 0, text, message: JSON.parse(text) as unknown });
    const nullId = '{"jsonrpc":"2.0","error":{"code":-32603,"message":"Error in httpTransport"},"id":null}';
    observer.raw(reply(nullId), undefined, '{"jsonrpc": "2.0", "id": 41, "method": "ping", "params": {');
    expect(failures).toEqual([]);
    // A request whose id was readable must get that id back.
    observer.raw(reply(nullId), undefined, '{"jsonrpc":"2.0","id":7,"method":"ping"}');
    expect(failures).toContain('schema.envelope#id-null');
  });
});

describe('_meta key names', () => {
  it('accept prefixed and plain names, and tell which part of a bad one is wrong', () => {
    expect(
      badMetaKeys({
        result: { _meta: { 'io.modelcontextprotocol/related-task': {}, progressToken: 1, 'a-b.c_d': 0 } },
      }),
    ).toEqual([]);
    expect(
      badMetaKeys({ params: { _meta: { '-bad': 1, 'io..x/y': 2, '1abc.org/x': 3, 'ok/-x': 4 } } }),
    ).toEqual(['-bad', 'io..x/y', '1abc.org/x', 'ok/-x']);
    expect(metaKeyFacets('-bad')).toEqual(['name']);
    expect(metaKeyFacets('io..x/y')).toEqual(['prefix']);
    expect(metaKeyFacets('1abc.org/x')).toEqual(['labels']);
    expect(metaKeyFacets('ok/-x')).toEqual(['name']);
  });
});

describe('schema violations', () => {
  it('are charged to the rule their errors show', () => {
    const oracle = wireOracle();
    const missingType = oracle.check(
      { jsonrpc: '2.0', id: 1, result: { tools: [], ttlMs: 0, cacheScope: 'public' } },
      { revision: '2026-07-28', sender: 'server', inReplyTo: 'tools/list' },
    );
    expect(violationFacets(missingType!.definition, missingType!.errors)).toContain('result-type');
    const forbidden = oracle.check(
      { jsonrpc: '2.0', id: 1, error: { code: -32002, message: 'Resource not found' } },
      { revision: '2026-07-28', sender: 'server', inReplyTo: 'resources/read' },
    );
    expect(violationFacets(forbidden!.definition, forbidden!.errors)).toEqual(['error-code']);
    const content = oracle.check(
      { jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text' }] } },
      { revision: '2025-11-25', sender: 'server', inReplyTo: 'tools/call' },
    );
    expect(violationFacets(content!.definition, content!.errors)).toEqual(['structure']);
  });
});
