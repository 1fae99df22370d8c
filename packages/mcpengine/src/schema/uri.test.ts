import { describe, expect, it } from 'vitest';
import { resolveUri, splitFragment } from './uri.js';

describe('resolveUri (RFC 3986 §5.4)', () => {
  const base = 'http://a/b/c/d;p?q';
  const examples: [string, string][] = [
    ['g:h', 'g:h'],
    ['g', 'http://a/b/c/g'],
    ['./g', 'http://a/b/c/g'],
    ['g/', 'http://a/b/c/g/'],
    ['/g', 'http://a/g'],
    ['//g', 'http://g'],
    ['?y', 'http://a/b/c/d;p?y'],
    ['g?y', 'http://a/b/c/g?y'],
    ['#s', 'http://a/b/c/d;p?q#s'],
    ['g#s', 'http://a/b/c/g#s'],
    ['', 'http://a/b/c/d;p?q'],
    ['.', 'http://a/b/c/'],
    ['./', 'http://a/b/c/'],
    ['..', 'http://a/b/'],
    ['../g', 'http://a/b/g'],
    ['../..', 'http://a/'],
    ['../../g', 'http://a/g'],
    ['../../../g', 'http://a/g'],
    ['/./g', 'http://a/g'],
    ['/../g', 'http://a/g'],
    ['g.', 'http://a/b/c/g.'],
    ['..g', 'http://a/b/c/..g'],
    ['./../g', 'http://a/b/g'],
    ['g/./h', 'http://a/b/c/g/h'],
    ['g/../h', 'http://a/b/c/h'],
    ['g;x=1/../y', 'http://a/b/c/y'],
  ];
  for (const [ref, expected] of examples) {
    it(`${JSON.stringify(ref)} → ${expected}`, () => expect(resolveUri(base, ref)).toBe(expected));
  }

  it('resolves fragments and paths against URNs and other opaque bases', () => {
    expect(resolveUri('urn:uuid:deadbeef', '#/$defs/a')).toBe('urn:uuid:deadbeef#/$defs/a');
    expect(resolveUri('urn:example:a', 'urn:example:b#x')).toBe('urn:example:b#x');
    expect(resolveUri('mcpengine:/schema', 'nested/x.json')).toBe('mcpengine:/nested/x.json');
  });

  it('splits off the fragment', () => {
    expect(splitFragment('http://x/y#/a/b')).toEqual(['http://x/y', '/a/b']);
    expect(splitFragment('http://x/y')).toEqual(['http://x/y', '']);
    expect(splitFragment('http://x/y#')).toEqual(['http://x/y', '']);
  });
});
