import { describe, expect, it } from 'vitest';
import { MAX_URI_LENGTH, UriTemplate, type UriTemplateVariables } from './index.js';

function match(template: string, uri: string): Record<string, string | string[]> | null {
  const result = new UriTemplate(template).match(uri);
  // Compare as plain objects (results have a null prototype so names like __proto__ are safe).
  return result === null ? null : { ...result };
}

describe('UriTemplate.match: MCP-style templates', () => {
  it('matches a simple variable between literals', () => {
    const template = 'test://template/{id}/data';
    expect(match(template, 'test://template/42/data')).toEqual({ id: '42' });
    expect(match(template, 'test://template/a%20b/data')).toEqual({ id: 'a b' });
    expect(match(template, 'test://template/a/b/data')).toBeNull();
    expect(match(template, 'test://template/42/data/x')).toBeNull();
    expect(match(template, 'test://other/42/data')).toBeNull();
    expect(match(template, 'test://template//data')).toEqual({ id: '' });
  });

  it('lets {+path} span segments and decodes it', () => {
    const template = 'file:///{+path}';
    expect(match(template, 'file:///home/user/notes%20v2.md')).toEqual({ path: 'home/user/notes v2.md' });
    expect(match(template, 'file:///a?b#c')).toEqual({ path: 'a?b#c' });
    expect(match(template, 'file://host/x')).toBeNull();
  });

  it('matches GitHub-style templates with optional query parameters in any order', () => {
    const template = 'github://repos/{owner}/{repo}/issues{?state,labels}';
    expect(match(template, 'github://repos/octo/hello/issues')).toEqual({ owner: 'octo', repo: 'hello' });
    expect(match(template, 'github://repos/octo/hello/issues?state=open')).toEqual({
      owner: 'octo',
      repo: 'hello',
      state: 'open',
    });
    expect(match(template, 'github://repos/octo/hello/issues?labels=bug,ui&state=closed&utm=x')).toEqual({
      owner: 'octo',
      repo: 'hello',
      state: 'closed',
      labels: 'bug,ui',
    });
    expect(match(template, 'github://repos/octo/hello/pulls')).toBeNull();
    expect(match(template, 'github://repos/octo/hello/issues#top')).toBeNull();
  });

  it('stops a simple variable at reserved characters', () => {
    expect(match('x://{a}', 'x://a/b')).toBeNull();
    expect(match('x://{a}', 'x://a?b')).toBeNull();
    expect(match('x://{a}', 'x://a#b')).toBeNull();
    expect(match('x://{a}', 'x://a:b')).toBeNull();
    expect(match('x://{a}', 'x://a,b')).toEqual({ a: 'a,b' });
  });
});

describe('UriTemplate.match: operators', () => {
  it('{#var}', () => {
    expect(match('doc{#section}', 'doc#intro/a,b')).toEqual({ section: 'intro/a,b' });
    expect(match('doc{#section}', 'doc')).toEqual({});
  });

  it('{/var} takes one segment, {/var*} takes the rest as a list', () => {
    expect(match('repo{/owner}{/name}', 'repo/a/b')).toEqual({ owner: 'a', name: 'b' });
    expect(match('repo{/owner}{/name}', 'repo/a')).toEqual({ owner: 'a' });
    expect(match('repo{/owner}', 'repo/a/b')).toBeNull();
    expect(match('tree{/segments*}', 'tree/a/b%2Fc/d')).toEqual({ segments: ['a', 'b/c', 'd'] });
    expect(match('tree{/segments*}', 'tree/x')).toEqual({ segments: ['x'] });
    expect(match('tree{/segments*}', 'tree')).toEqual({});
    expect(match('{/list*,path:4}', '/red/green/blue/%2Ffoo')).toEqual({
      list: ['red', 'green', 'blue'],
      path: '/foo',
    });
  });

  it('{.var}', () => {
    expect(match('file{.ext}', 'file.json')).toEqual({ ext: 'json' });
    expect(match('www{.dom*}', 'www.example.com')).toEqual({ dom: ['example', 'com'] });
    expect(match('{name}.json', 'my.data.json')).toEqual({ name: 'my.data' });
  });

  it('{?a,b} and {&c} as one block', () => {
    const template = 'search{?q,page}{&tag*}';
    expect(match(template, 'search?tag=a&page=2&q=x%26y&tag=b')).toEqual({
      q: 'x&y',
      page: '2',
      tag: ['a', 'b'],
    });
    expect(match(template, 'search?q=')).toEqual({ q: '' });
    expect(match('search?fixed=yes{&x}', 'search?fixed=yes&x=1')).toEqual({ x: '1' });
    expect(match('search?q={q}{&page}', 'search?q=a&page=3')).toEqual({ q: 'a', page: '3' });
  });

  it('{;x}', () => {
    expect(match('map{;x,y}', 'map;y=768;x=1024')).toEqual({ x: '1024', y: '768' });
    expect(match('map{;x,empty}', 'map;x=1;empty')).toEqual({ x: '1', empty: '' });
    expect(match('map{;list*}/z', 'map;list=a;list=b/z')).toEqual({ list: ['a', 'b'] });
  });

  it('{x,y} splits positionally and leaves missing trailing variables unset', () => {
    expect(match('map?{x,y}', 'map?1024,768')).toEqual({ x: '1024', y: '768' });
    expect(match('map?{x,y}', 'map?1024')).toEqual({ x: '1024' });
    expect(match('map?{x,y}', 'map?1,2,3')).toEqual({ x: '1', y: '2,3' });
  });

  it('{+path}{?q} splits at the query', () => {
    expect(match('file:///{+path}{?q}', 'file:///a/b?q=1')).toEqual({ path: 'a/b', q: '1' });
    expect(match('{+base}/here', 'http://x/y/here')).toEqual({ base: 'http://x/y' });
  });

  it('requires a repeated variable to match the same value', () => {
    expect(match('{a}/{a}', 'x/x')).toEqual({ a: 'x' });
    expect(match('{a}/{a}', 'x/y')).toBeNull();
    expect(match('{/var:1,var}', '/v/value')).toEqual({ var: 'value' });
  });

  it('returns null on malformed pct-encoding', () => {
    expect(match('x/{a}', 'x/%zz')).toBeNull();
    expect(match('x/{a}', 'x/%C3')).toBeNull();
  });

  it('tolerates raw non-ASCII and spaces inside values', () => {
    expect(match('x/{a}', 'x/naïve café')).toEqual({ a: 'naïve café' });
  });

  it('handles names that would collide with Object.prototype', () => {
    const result = new UriTemplate('x/{__proto__}').match('x/1');
    expect(result && Object.keys(result)).toEqual(['__proto__']);
    expect(result?.['__proto__']).toBe('1');
  });

  it('matches templates without expressions exactly', () => {
    expect(match('test://static', 'test://static')).toEqual({});
    expect(match('test://static', 'test://static2')).toBeNull();
    expect(match('', '')).toEqual({});
    expect(match('', 'x')).toBeNull();
  });
});

describe('UriTemplate: expand -> match round trips', () => {
  const cases: [string, UriTemplateVariables][] = [
    ['test://template/{id}/data', { id: 'a b/c?d' }],
    ['file:///{+path}', { path: 'dir/sub dir/file.txt' }],
    ['github://repos/{owner}/{repo}/issues{?state,labels}', { owner: 'o', repo: 'r', state: 'open' }],
    ['github://repos/{owner}/{repo}/issues{?state,labels}', { owner: 'o', repo: 'r', labels: 'a&b=c' }],
    ['db://{schema}/{table}{/columns*}', { schema: 's', table: 't', columns: ['a', 'b/c', 'd'] }],
    ['x{.name,ext}', { name: 'report', ext: 'pdf' }],
    ['map{;x,y}', { x: '1', y: '2' }],
    ['q{?tags*}', { tags: ['a', 'b', 'c'] }],
    ['frag{#section}', { section: 'a/b?c' }],
    ['items/{id}', { id: 'ünïcødé 😀' }],
    ['items/{id}', { id: '100%' }],
  ];
  it.each(cases)('%s with %j', (template, vars) => {
    const t = new UriTemplate(template);
    const uri = t.expand(vars);
    expect({ ...t.match(uri) }).toEqual(vars);
  });
});

describe('UriTemplate.match: bounds', () => {
  it('returns null for URIs over the length limit', () => {
    const t = new UriTemplate('x/{+rest}');
    expect(t.match('x/' + 'a'.repeat(MAX_URI_LENGTH - 2))).not.toBeNull();
    expect(t.match('x/' + 'a'.repeat(MAX_URI_LENGTH - 1))).toBeNull();
  });

  it('stays linear on hostile URIs for ambiguous templates', () => {
    // A backtracking RegExp such as /^(.*)(.*)(.*)(.*)!(.*)$/ needs O(n^4) steps to reject these inputs;
    // the trailing parts defeat the matcher's cheap prefix/suffix rejection so the search itself runs.
    const plus = new UriTemplate('{+a}{+b}{+c}{+d}!{e}');
    const labels = new UriTemplate('{a}.{b}.{c}.{d}.json');
    const started = performance.now();
    expect(plus.match('a'.repeat(MAX_URI_LENGTH))).toBeNull();
    expect(labels.match('.'.repeat(MAX_URI_LENGTH - 6) + '/.json')).toBeNull();
    expect(performance.now() - started).toBeLessThan(1000);
    expect(labels.match('a.b.c.d.e.json')).toEqual({ a: 'a.b', b: 'c', c: 'd', d: 'e' });
  });
});
