import { describe, expect, it } from 'vitest';
import { UriTemplate, UriTemplateError, type UriTemplateVariables } from './index.js';

function expand(template: string, vars: UriTemplateVariables): string {
  return new UriTemplate(template).expand(vars);
}

// RFC 6570 section 1.2 (the level examples).
const level1: UriTemplateVariables = { var: 'value', hello: 'Hello World!' };
const level2: UriTemplateVariables = { ...level1, path: '/foo/bar' };
const level3: UriTemplateVariables = { ...level2, empty: '', x: '1024', y: '768' };
const level4: UriTemplateVariables = {
  ...level2,
  list: ['red', 'green', 'blue'],
  keys: { semi: ';', dot: '.', comma: ',' },
};

const section12: [string, UriTemplateVariables, [string, string][]][] = [
  [
    'level 1',
    level1,
    [
      ['{var}', 'value'],
      ['{hello}', 'Hello%20World%21'],
    ],
  ],
  [
    'level 2',
    level2,
    [
      ['{+var}', 'value'],
      ['{+hello}', 'Hello%20World!'],
      ['{+path}/here', '/foo/bar/here'],
      ['here?ref={+path}', 'here?ref=/foo/bar'],
      ['X{#var}', 'X#value'],
      ['X{#hello}', 'X#Hello%20World!'],
    ],
  ],
  [
    'level 3',
    level3,
    [
      ['map?{x,y}', 'map?1024,768'],
      ['{x,hello,y}', '1024,Hello%20World%21,768'],
      ['{+x,hello,y}', '1024,Hello%20World!,768'],
      ['{+path,x}/here', '/foo/bar,1024/here'],
      ['{#x,hello,y}', '#1024,Hello%20World!,768'],
      ['{#path,x}/here', '#/foo/bar,1024/here'],
      ['X{.var}', 'X.value'],
      ['X{.x,y}', 'X.1024.768'],
      ['{/var}', '/value'],
      ['{/var,x}/here', '/value/1024/here'],
      ['{;x,y}', ';x=1024;y=768'],
      ['{;x,y,empty}', ';x=1024;y=768;empty'],
      ['{?x,y}', '?x=1024&y=768'],
      ['{?x,y,empty}', '?x=1024&y=768&empty='],
      ['?fixed=yes{&x}', '?fixed=yes&x=1024'],
      ['{&x,y,empty}', '&x=1024&y=768&empty='],
    ],
  ],
  [
    'level 4',
    level4,
    [
      ['{var:3}', 'val'],
      ['{var:30}', 'value'],
      ['{list}', 'red,green,blue'],
      ['{list*}', 'red,green,blue'],
      ['{keys}', 'semi,%3B,dot,.,comma,%2C'],
      ['{keys*}', 'semi=%3B,dot=.,comma=%2C'],
      ['{+path:6}/here', '/foo/b/here'],
      ['{+list}', 'red,green,blue'],
      ['{+list*}', 'red,green,blue'],
      ['{+keys}', 'semi,;,dot,.,comma,,'],
      ['{+keys*}', 'semi=;,dot=.,comma=,'],
      ['{#path:6}/here', '#/foo/b/here'],
      ['{#list}', '#red,green,blue'],
      ['{#list*}', '#red,green,blue'],
      ['{#keys}', '#semi,;,dot,.,comma,,'],
      ['{#keys*}', '#semi=;,dot=.,comma=,'],
      ['X{.var:3}', 'X.val'],
      ['X{.list}', 'X.red,green,blue'],
      ['X{.list*}', 'X.red.green.blue'],
      ['X{.keys}', 'X.semi,%3B,dot,.,comma,%2C'],
      ['X{.keys*}', 'X.semi=%3B.dot=..comma=%2C'],
      ['{/var:1,var}', '/v/value'],
      ['{/list}', '/red,green,blue'],
      ['{/list*}', '/red/green/blue'],
      ['{/list*,path:4}', '/red/green/blue/%2Ffoo'],
      ['{/keys}', '/semi,%3B,dot,.,comma,%2C'],
      ['{/keys*}', '/semi=%3B/dot=./comma=%2C'],
      ['{;hello:5}', ';hello=Hello'],
      ['{;list}', ';list=red,green,blue'],
      ['{;list*}', ';list=red;list=green;list=blue'],
      ['{;keys}', ';keys=semi,%3B,dot,.,comma,%2C'],
      ['{;keys*}', ';semi=%3B;dot=.;comma=%2C'],
      ['{?var:3}', '?var=val'],
      ['{?list}', '?list=red,green,blue'],
      ['{?list*}', '?list=red&list=green&list=blue'],
      ['{?keys}', '?keys=semi,%3B,dot,.,comma,%2C'],
      ['{?keys*}', '?semi=%3B&dot=.&comma=%2C'],
      ['{&var:3}', '&var=val'],
      ['{&list}', '&list=red,green,blue'],
      ['{&list*}', '&list=red&list=green&list=blue'],
      ['{&keys}', '&keys=semi,%3B,dot,.,comma,%2C'],
      ['{&keys*}', '&semi=%3B&dot=.&comma=%2C'],
    ],
  ],
];

// RFC 6570 section 3.2 (expression expansion), with its variable set.
const section32Vars: UriTemplateVariables = {
  count: ['one', 'two', 'three'],
  dom: ['example', 'com'],
  dub: 'me/too',
  hello: 'Hello World!',
  half: '50%',
  var: 'value',
  who: 'fred',
  base: 'http://example.com/home/',
  path: '/foo/bar',
  list: ['red', 'green', 'blue'],
  keys: { semi: ';', dot: '.', comma: ',' },
  v: '6',
  x: '1024',
  y: '768',
  empty: '',
  empty_keys: {},
  undef: undefined,
};

const section32: [string, [string, string][]][] = [
  [
    '3.2.1 variable expansion',
    [
      ['{count}', 'one,two,three'],
      ['{count*}', 'one,two,three'],
      ['{/count}', '/one,two,three'],
      ['{/count*}', '/one/two/three'],
      ['{;count}', ';count=one,two,three'],
      ['{;count*}', ';count=one;count=two;count=three'],
      ['{?count}', '?count=one,two,three'],
      ['{?count*}', '?count=one&count=two&count=three'],
      ['{&count*}', '&count=one&count=two&count=three'],
    ],
  ],
  [
    '3.2.2 simple string expansion',
    [
      ['{var}', 'value'],
      ['{hello}', 'Hello%20World%21'],
      ['{half}', '50%25'],
      ['O{empty}X', 'OX'],
      ['O{undef}X', 'OX'],
      ['{x,y}', '1024,768'],
      ['{x,hello,y}', '1024,Hello%20World%21,768'],
      ['?{x,empty}', '?1024,'],
      ['?{x,undef}', '?1024'],
      ['?{undef,y}', '?768'],
      ['{var:3}', 'val'],
      ['{var:30}', 'value'],
      ['{list}', 'red,green,blue'],
      ['{list*}', 'red,green,blue'],
      ['{keys}', 'semi,%3B,dot,.,comma,%2C'],
      ['{keys*}', 'semi=%3B,dot=.,comma=%2C'],
    ],
  ],
  [
    '3.2.3 reserved expansion',
    [
      ['{+var}', 'value'],
      ['{+hello}', 'Hello%20World!'],
      ['{+half}', '50%25'],
      ['{base}index', 'http%3A%2F%2Fexample.com%2Fhome%2Findex'],
      ['{+base}index', 'http://example.com/home/index'],
      ['O{+empty}X', 'OX'],
      ['O{+undef}X', 'OX'],
      ['{+path}/here', '/foo/bar/here'],
      ['here?ref={+path}', 'here?ref=/foo/bar'],
      ['up{+path}{var}/here', 'up/foo/barvalue/here'],
      ['{+x,hello,y}', '1024,Hello%20World!,768'],
      ['{+path,x}/here', '/foo/bar,1024/here'],
      ['{+path:6}/here', '/foo/b/here'],
      ['{+list}', 'red,green,blue'],
      ['{+list*}', 'red,green,blue'],
      ['{+keys}', 'semi,;,dot,.,comma,,'],
      ['{+keys*}', 'semi=;,dot=.,comma=,'],
    ],
  ],
  [
    '3.2.4 fragment expansion',
    [
      ['{#var}', '#value'],
      ['{#hello}', '#Hello%20World!'],
      ['{#half}', '#50%25'],
      ['foo{#empty}', 'foo#'],
      ['foo{#undef}', 'foo'],
      ['{#x,hello,y}', '#1024,Hello%20World!,768'],
      ['{#path,x}/here', '#/foo/bar,1024/here'],
      ['{#path:6}/here', '#/foo/b/here'],
      ['{#list}', '#red,green,blue'],
      ['{#list*}', '#red,green,blue'],
      ['{#keys}', '#semi,;,dot,.,comma,,'],
      ['{#keys*}', '#semi=;,dot=.,comma=,'],
    ],
  ],
  [
    '3.2.5 label expansion with dot-prefix',
    [
      ['{.who}', '.fred'],
      ['{.who,who}', '.fred.fred'],
      ['{.half,who}', '.50%25.fred'],
      ['www{.dom*}', 'www.example.com'],
      ['X{.var}', 'X.value'],
      ['X{.empty}', 'X.'],
      ['X{.undef}', 'X'],
      ['X{.var:3}', 'X.val'],
      ['X{.list}', 'X.red,green,blue'],
      ['X{.list*}', 'X.red.green.blue'],
      ['X{.keys}', 'X.semi,%3B,dot,.,comma,%2C'],
      ['X{.keys*}', 'X.semi=%3B.dot=..comma=%2C'],
      ['X{.empty_keys}', 'X'],
      ['X{.empty_keys*}', 'X'],
    ],
  ],
  [
    '3.2.6 path segment expansion',
    [
      ['{/who}', '/fred'],
      ['{/who,who}', '/fred/fred'],
      ['{/half,who}', '/50%25/fred'],
      ['{/who,dub}', '/fred/me%2Ftoo'],
      ['{/var}', '/value'],
      ['{/var,empty}', '/value/'],
      ['{/var,undef}', '/value'],
      ['{/var,x}/here', '/value/1024/here'],
      ['{/var:1,var}', '/v/value'],
      ['{/list}', '/red,green,blue'],
      ['{/list*}', '/red/green/blue'],
      ['{/list*,path:4}', '/red/green/blue/%2Ffoo'],
      ['{/keys}', '/semi,%3B,dot,.,comma,%2C'],
      ['{/keys*}', '/semi=%3B/dot=./comma=%2C'],
    ],
  ],
  [
    '3.2.7 path-style parameter expansion',
    [
      ['{;who}', ';who=fred'],
      ['{;half}', ';half=50%25'],
      ['{;empty}', ';empty'],
      ['{;v,empty,who}', ';v=6;empty;who=fred'],
      ['{;v,bar,who}', ';v=6;who=fred'],
      ['{;x,y}', ';x=1024;y=768'],
      ['{;x,y,empty}', ';x=1024;y=768;empty'],
      ['{;x,y,undef}', ';x=1024;y=768'],
      ['{;hello:5}', ';hello=Hello'],
      ['{;list}', ';list=red,green,blue'],
      ['{;list*}', ';list=red;list=green;list=blue'],
      ['{;keys}', ';keys=semi,%3B,dot,.,comma,%2C'],
      ['{;keys*}', ';semi=%3B;dot=.;comma=%2C'],
    ],
  ],
  [
    '3.2.8 form-style query expansion',
    [
      ['{?who}', '?who=fred'],
      ['{?half}', '?half=50%25'],
      ['{?x,y}', '?x=1024&y=768'],
      ['{?x,y,empty}', '?x=1024&y=768&empty='],
      ['{?x,y,undef}', '?x=1024&y=768'],
      ['{?var:3}', '?var=val'],
      ['{?list}', '?list=red,green,blue'],
      ['{?list*}', '?list=red&list=green&list=blue'],
      ['{?keys}', '?keys=semi,%3B,dot,.,comma,%2C'],
      ['{?keys*}', '?semi=%3B&dot=.&comma=%2C'],
    ],
  ],
  [
    '3.2.9 form-style query continuation',
    [
      ['{&who}', '&who=fred'],
      ['{&half}', '&half=50%25'],
      ['?fixed=yes{&x}', '?fixed=yes&x=1024'],
      ['{&x,y,empty}', '&x=1024&y=768&empty='],
      ['{&var:3}', '&var=val'],
      ['{&list}', '&list=red,green,blue'],
      ['{&list*}', '&list=red&list=green&list=blue'],
      ['{&keys}', '&keys=semi,%3B,dot,.,comma,%2C'],
      ['{&keys*}', '&semi=%3B&dot=.&comma=%2C'],
    ],
  ],
];

describe('UriTemplate.expand: RFC 6570 section 1.2', () => {
  for (const [level, vars, cases] of section12) {
    it.each(cases)(`${level}: %s -> %s`, (template, expected) => {
      expect(expand(template, vars)).toBe(expected);
    });
  }
});

describe('UriTemplate.expand: RFC 6570 section 3.2', () => {
  for (const [section, cases] of section32) {
    it.each(cases)(`${section}: %s -> %s`, (template, expected) => {
      expect(expand(template, section32Vars)).toBe(expected);
    });
  }
});

describe('UriTemplate.expand: encoding and values', () => {
  it('encodes non-ASCII as UTF-8 and never splits a code point with a prefix', () => {
    expect(expand('{x}', { x: 'né €😀' })).toBe('n%C3%A9%20%E2%82%AC%F0%9F%98%80');
    expect(expand('{x:2}', { x: '😀😀😀' })).toBe('%F0%9F%98%80%F0%9F%98%80');
    expect(expand('{x}', { x: 'a\uD800b' })).toBe('a%EF%BF%BDb');
  });

  it('keeps pct-encoded triplets for + and # but re-encodes a stray %', () => {
    expect(expand('{+x}', { x: 'a%20b%zz' })).toBe('a%20b%25zz');
    expect(expand('{#x}', { x: '%C3%A9' })).toBe('#%C3%A9');
    expect(expand('{x}', { x: '%20' })).toBe('%2520');
    expect(expand('{+x:2}', { x: '%20ab' })).toBe('%20a');
  });

  it('pct-encodes literal characters that URIs do not allow, keeping triplets', () => {
    expect(expand('a b/ü/%41/%', {})).toBe('a%20b/%C3%BC/%41/%25');
  });

  it('formats numbers and booleans', () => {
    expect(expand('/items/{id}{?page,active}', { id: 42, page: 2, active: true })).toBe(
      '/items/42?page=2&active=true',
    );
  });

  it('treats empty lists and maps as undefined, but an empty string as defined', () => {
    expect(expand('x{?a,b,c}', { a: [], b: {}, c: '' })).toBe('x?c=');
  });

  it('ignores inherited properties of the variables object', () => {
    expect(expand('{constructor}{toString}', {})).toBe('');
  });

  it('rejects a prefix modifier on a composite value', () => {
    expect(() => expand('{list:2}', { list: ['a'] })).toThrow(UriTemplateError);
  });
});

describe('UriTemplate: parsing', () => {
  it('lists variable names once, in order', () => {
    expect(new UriTemplate('{/a,b*}{?c,a}{#d:3}').variableNames).toEqual(['a', 'b', 'c', 'd']);
    expect(new UriTemplate('file:///{+path}').template).toBe('file:///{+path}');
  });

  it.each([
    ['{', 'not closed'],
    ['a}b', 'without a matching'],
    ['{a{b}}', "'{' inside"],
    ['{}', 'no variables'],
    ['{+}', 'no variables'],
    ['{=a}', 'reserved'],
    ['{|a}', 'reserved'],
    ['{a b}', 'invalid variable name'],
    ['{a,}', 'invalid variable name'],
    ['{a..b}', 'invalid variable name'],
    ['{a.}', 'invalid variable name'],
    ['{$a}', 'invalid variable name'],
    ['{a:0}', 'prefix length'],
    ['{a:10000}', 'prefix length'],
    ['{a:x}', 'prefix length'],
    ['{a*:3}', 'invalid variable name'],
  ])('rejects %j', (template, message) => {
    expect(() => new UriTemplate(template)).toThrow(UriTemplateError);
    expect(() => new UriTemplate(template)).toThrow(message);
  });

  it('accepts dotted and pct-encoded variable names', () => {
    expect(new UriTemplate('{user.name,%41b}').variableNames).toEqual(['user.name', '%41b']);
  });

  it('rejects templates over the length limit', () => {
    expect(() => new UriTemplate('x'.repeat(8193))).toThrow(/limit/);
    expect(new UriTemplate('x'.repeat(8192)).variableNames).toEqual([]);
  });
});
