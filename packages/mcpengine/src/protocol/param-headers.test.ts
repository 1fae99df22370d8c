import { describe, expect, it } from 'vitest';
import { McpServer } from '../server/index.js';
import {
  compileHeaderParams,
  decodeHeaderValue,
  encodeHeaderValue,
  headerMatchesValue,
  headerParamValue,
} from './param-headers.js';

describe('x-mcp-header annotations', () => {
  it('compiles statically reachable primitive properties', () => {
    const params = compileHeaderParams({
      type: 'object',
      properties: {
        region: { type: 'string', 'x-mcp-header': 'Region' },
        count: { type: ['integer', 'null'], 'x-mcp-header': 'Count' },
        nested: { type: 'object', properties: { on: { type: 'boolean', 'x-mcp-header': 'On' } } },
      },
    });
    expect(params).toEqual([
      { name: 'Region', header: 'mcp-param-region', path: ['region'], type: 'string' },
      { name: 'Count', header: 'mcp-param-count', path: ['count'], type: 'integer' },
      { name: 'On', header: 'mcp-param-on', path: ['nested', 'on'], type: 'boolean' },
    ]);
    expect(headerParamValue({ nested: { on: false } }, params[2]!)).toBe(false);
    expect(headerParamValue({ count: null }, params[1]!)).toBeUndefined();
    expect(headerParamValue({}, params[0]!)).toBeUndefined();
  });

  it.each([
    [
      'a number',
      { properties: { n: { type: 'number', 'x-mcp-header': 'N' } } },
      /string, integer or boolean/,
    ],
    [
      'an object',
      { properties: { o: { type: 'object', 'x-mcp-header': 'O' } } },
      /string, integer or boolean/,
    ],
    ['no type', { properties: { o: { 'x-mcp-header': 'O' } } }, /string, integer or boolean/],
    [
      'under items',
      { properties: { a: { type: 'array', items: { type: 'string', 'x-mcp-header': 'A' } } } },
      /reachable/,
    ],
    ['under anyOf', { anyOf: [{ properties: { a: { type: 'string', 'x-mcp-header': 'A' } } }] }, /reachable/],
    ['in $defs', { $defs: { a: { type: 'string', 'x-mcp-header': 'A' } } }, /reachable/],
    ['at the root', { type: 'object', 'x-mcp-header': 'Root' }, /reachable/],
    ['empty', { properties: { a: { type: 'string', 'x-mcp-header': '' } } }, /token/],
    ['not a token', { properties: { a: { type: 'string', 'x-mcp-header': 'Bad Name' } } }, /token/],
    ['with CR LF', { properties: { a: { type: 'string', 'x-mcp-header': 'A\r\nX' } } }, /token/],
    ['not a string', { properties: { a: { type: 'string', 'x-mcp-header': 7 } } }, /token/],
    [
      'a duplicate',
      {
        properties: {
          a: { type: 'string', 'x-mcp-header': 'Dup' },
          b: { type: 'string', 'x-mcp-header': 'dup' },
        },
      },
      /twice/,
    ],
  ])('rejects an annotation on %s', (_why, schema, message) => {
    expect(() => compileHeaderParams({ type: 'object', ...schema })).toThrow(message);
  });

  it('refuses to register a tool with an invalid annotation', () => {
    const server = new McpServer({ name: 's', version: '1' });
    expect(() =>
      server.addTool({
        name: 'bad',
        inputSchema: { type: 'object', properties: { n: { type: 'number', 'x-mcp-header': 'N' } } },
        handler: () => 'x',
      }),
    ).toThrow(/Tool "bad": x-mcp-header/);
  });
});

describe('header value encoding', () => {
  it('decodes the Base64 sentinel and leaves other values literal', () => {
    expect(decodeHeaderValue('=?base64?SGVsbG8sIOS4lueVjA==?=')).toBe('Hello, 世界');
    expect(decodeHeaderValue('  us-west1 ')).toBe('us-west1');
    expect(decodeHeaderValue('=?base64?SGVsbG8=')).toBe('=?base64?SGVsbG8=');
    expect(decodeHeaderValue('SGVsbG8=')).toBe('SGVsbG8=');
  });

  it('refuses malformed values', () => {
    expect(decodeHeaderValue('=?base64?SGVsbG8?=')).toBeUndefined(); // padding
    expect(decodeHeaderValue('=?base64?SGVs!!!bG8=?=')).toBeUndefined(); // alphabet
    expect(decodeHeaderValue('=?base64?/w==?=')).toBeUndefined(); // not UTF-8
    expect(decodeHeaderValue('caf\u00e9')).toBeUndefined(); // obs-text
    expect(decodeHeaderValue('a\u0001b')).toBeUndefined();
  });

  it('encodes what cannot travel as plain ASCII, and round-trips', () => {
    for (const value of ['us-west1', 'Hello, 世界', ' padded ', 'line1\nline2', '=?base64?literal?=', '']) {
      const encoded = encodeHeaderValue(value);
      expect(decodeHeaderValue(encoded)).toBe(
        value.trim() === value || encoded.startsWith('=?') ? value : value.trim(),
      );
    }
    expect(encodeHeaderValue('us-west1')).toBe('us-west1');
    expect(encodeHeaderValue(' padded ')).toBe('=?base64?IHBhZGRlZCA=?=');
    expect(encodeHeaderValue('=?base64?literal?=')).toBe('=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?=');
  });

  it('compares numbers numerically and booleans exactly', () => {
    expect(headerMatchesValue('42.0', 42)).toBe(true);
    expect(headerMatchesValue('-7', -7)).toBe(true);
    expect(headerMatchesValue('42x', 42)).toBe(false);
    expect(headerMatchesValue('', 0)).toBe(false);
    expect(headerMatchesValue('true', true)).toBe(true);
    expect(headerMatchesValue('TRUE', true)).toBe(false);
    expect(headerMatchesValue('x', { x: 1 })).toBe(false);
  });
});
