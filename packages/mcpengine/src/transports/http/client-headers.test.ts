import { describe, expect, it } from 'vitest';
import { checkToolHeaders, nameSourceOf, standardHeaders, toolParamHeaders } from './client-headers.js';

/** The bindings of a valid schema (the test fails if it is not valid). */
function bindings(inputSchema: unknown) {
  const check = checkToolHeaders(inputSchema);
  if (!check.ok) throw new Error(`expected a valid schema: ${check.reason}`);
  return check.params;
}

function reason(inputSchema: unknown): string {
  const check = checkToolHeaders(inputSchema);
  if (check.ok) throw new Error('expected the schema to be rejected');
  return check.reason;
}

const object = (properties: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  type: 'object',
  properties,
  ...extra,
});

describe('standard headers', () => {
  it('mirrors the method, and the name of tools/call and prompts/get', () => {
    expect(standardHeaders('tools/call', { name: 'get_weather', arguments: {} })).toEqual([
      ['Mcp-Method', 'tools/call'],
      ['Mcp-Name', 'get_weather'],
    ]);
    expect(standardHeaders('prompts/get', { name: 'my-hyphenated.prompt' })).toEqual([
      ['Mcp-Method', 'prompts/get'],
      ['Mcp-Name', 'my-hyphenated.prompt'],
    ]);
  });

  it('mirrors the resources/read URI byte for byte, without decoding or re-encoding', () => {
    expect(standardHeaders('resources/read', { uri: 'file:///path/to/file%20name.txt' })).toEqual([
      ['Mcp-Method', 'resources/read'],
      ['Mcp-Name', 'file:///path/to/file%20name.txt'],
    ]);
    expect(standardHeaders('resources/read', { uri: 'https://example.com/resource?id=123' })[1]).toEqual([
      'Mcp-Name',
      'https://example.com/resource?id=123',
    ]);
  });

  it('mirrors the task id of tasks/* requests', () => {
    expect(standardHeaders('tasks/get', { taskId: 'task-42' })).toEqual([
      ['Mcp-Method', 'tasks/get'],
      ['Mcp-Name', 'task-42'],
    ]);
    expect(nameSourceOf('tasks/cancel')).toBe('taskId');
  });

  it('sends only Mcp-Method for other methods, and no Mcp-Name when the field is missing', () => {
    expect(standardHeaders('tools/list', {})).toEqual([['Mcp-Method', 'tools/list']]);
    expect(standardHeaders('server/discover', undefined)).toEqual([['Mcp-Method', 'server/discover']]);
    expect(standardHeaders('tools/call', { arguments: {} })).toEqual([['Mcp-Method', 'tools/call']]);
  });

  it('Base64-encodes a name that is not safe as a plain header value', () => {
    expect(standardHeaders('tools/call', { name: 'météo' })[1]).toEqual([
      'Mcp-Name',
      '=?base64?bcOpdMOpbw==?=',
    ]);
    expect(standardHeaders('resources/read', { uri: 'file:///a b ' })[1]).toEqual([
      'Mcp-Name',
      '=?base64?ZmlsZTovLy9hIGIg?=',
    ]);
  });
});

describe('Mcp-Param headers: value encoding (the spec table)', () => {
  const region = bindings(object({ value: { type: 'string', 'x-mcp-header': 'Val' } }));
  const encode = (value: unknown) => toolParamHeaders(region, { value });

  it('sends plain ASCII as is', () => {
    expect(encode('us-west1')).toEqual([['Mcp-Param-Val', 'us-west1']]);
    expect(encode('us west 1')).toEqual([['Mcp-Param-Val', 'us west 1']]);
  });

  it('Base64-encodes non-ASCII, surrounding spaces, control characters and the sentinel pattern', () => {
    expect(encode('Hello, 世界')).toEqual([['Mcp-Param-Val', '=?base64?SGVsbG8sIOS4lueVjA==?=']]);
    expect(encode(' padded ')).toEqual([['Mcp-Param-Val', '=?base64?IHBhZGRlZCA=?=']]);
    expect(encode('line1\nline2')).toEqual([['Mcp-Param-Val', '=?base64?bGluZTEKbGluZTI=?=']]);
    expect(encode('=?base64?literal?=')).toEqual([['Mcp-Param-Val', '=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?=']]);
    expect(encode(' us-west1')).toEqual([['Mcp-Param-Val', '=?base64?IHVzLXdlc3Qx?=']]);
    expect(encode('us-west1 ')).toEqual([['Mcp-Param-Val', '=?base64?dXMtd2VzdDEg?=']]);
    expect(encode('\tindented')).toEqual([['Mcp-Param-Val', '=?base64?CWluZGVudGVk?=']]);
    expect(encode('a\tb')).toEqual([['Mcp-Param-Val', '=?base64?YQli?=']]);
    expect(encode('line1\r\nline2')).toEqual([['Mcp-Param-Val', '=?base64?bGluZTENCmxpbmUy?=']]);
    expect(encode('del\u007f')).toEqual([['Mcp-Param-Val', '=?base64?ZGVsfw==?=']]);
  });

  it('converts integers to decimal and booleans to lower case', () => {
    const typed = bindings(
      object({
        n: { type: 'integer', 'x-mcp-header': 'N' },
        yes: { type: 'boolean', 'x-mcp-header': 'Yes' },
        no: { type: 'boolean', 'x-mcp-header': 'No' },
      }),
    );
    expect(toolParamHeaders(typed, { n: 42, yes: true, no: false })).toEqual([
      ['Mcp-Param-N', '42'],
      ['Mcp-Param-Yes', 'true'],
      ['Mcp-Param-No', 'false'],
    ]);
    expect(toolParamHeaders(typed, { n: -7 })).toEqual([['Mcp-Param-N', '-7']]);
  });

  it('omits the header for null, a missing value, and values that are not primitive', () => {
    expect(encode(null)).toEqual([]);
    expect(toolParamHeaders(region, {})).toEqual([]);
    expect(toolParamHeaders(region, undefined)).toEqual([]);
    expect(encode({ nested: 1 })).toEqual([]);
    expect(encode(['a'])).toEqual([]);
  });

  it('reads nested properties along their exact path', () => {
    const nested = bindings(
      object({
        target: object({ region: { type: 'string', 'x-mcp-header': 'Region' } }),
        region: { type: 'string' },
      }),
    );
    expect(nested).toEqual([
      { name: 'Region', header: 'mcp-param-region', path: ['target', 'region'], type: 'string' },
    ]);
    expect(toolParamHeaders(nested, { region: 'top', target: { region: 'eu-1' } })).toEqual([
      ['Mcp-Param-Region', 'eu-1'],
    ]);
    expect(toolParamHeaders(nested, { region: 'top', target: 'not-an-object' })).toEqual([]);
  });

  it('keeps the declared name, so Method becomes Mcp-Param-Method and never touches Mcp-Method', () => {
    const method = bindings(object({ method_val: { type: 'string', 'x-mcp-header': 'Method' } }));
    expect(toolParamHeaders(method, { method_val: 'test-method' })).toEqual([
      ['Mcp-Param-Method', 'test-method'],
    ]);
  });
});

describe('x-mcp-header rules: invalid annotations reject the tool', () => {
  const cases: [string, unknown, RegExp][] = [
    ['an empty name', object({ v: { type: 'string', 'x-mcp-header': '' } }), /non-empty HTTP token/],
    ['a space', object({ v: { type: 'string', 'x-mcp-header': 'My Region' } }), /HTTP token/],
    ['a colon', object({ v: { type: 'string', 'x-mcp-header': 'Region:Primary' } }), /HTTP token/],
    ['a non-ASCII name', object({ v: { type: 'string', 'x-mcp-header': 'Région' } }), /HTTP token/],
    ['a control character', object({ v: { type: 'string', 'x-mcp-header': 'Region\t1' } }), /HTTP token/],
    ['CR LF', object({ v: { type: 'string', 'x-mcp-header': 'A\r\nB' } }), /HTTP token/],
    ['a name that is not a string', object({ v: { type: 'string', 'x-mcp-header': 7 } }), /HTTP token/],
    [
      'an object property',
      object({ v: { type: 'object', 'x-mcp-header': 'Data' } }),
      /string, integer or boolean/,
    ],
    [
      'an array property',
      object({ v: { type: 'array', items: { type: 'string' }, 'x-mcp-header': 'Items' } }),
      /string, integer or boolean/,
    ],
    ['a null property', object({ v: { type: 'null', 'x-mcp-header': 'Nil' } }), /string, integer or boolean/],
    [
      'a number property',
      object({ v: { type: 'number', 'x-mcp-header': 'Score' } }),
      /string, integer or boolean/,
    ],
    ['a property without a type', object({ v: { 'x-mcp-header': 'V' } }), /string, integer or boolean/],
    [
      'the same name twice',
      object({
        a: { type: 'string', 'x-mcp-header': 'Region' },
        b: { type: 'string', 'x-mcp-header': 'Region' },
      }),
      /used twice/,
    ],
    [
      'names differing only in case',
      object({
        a: { type: 'string', 'x-mcp-header': 'MyField' },
        b: { type: 'string', 'x-mcp-header': 'myfield' },
      }),
      /used twice/,
    ],
    ['the root schema', { type: 'object', 'x-mcp-header': 'Root' }, /not on a property reachable/],
    [
      'a property under items',
      object({ list: { type: 'array', items: { type: 'string', 'x-mcp-header': 'Item' } } }),
      /not on a property reachable/,
    ],
    [
      'a property of an array item object',
      object({ list: { type: 'array', items: object({ id: { type: 'string', 'x-mcp-header': 'Id' } }) } }),
      /not on a property reachable/,
    ],
    [
      'inside anyOf',
      object({}, { anyOf: [object({ v: { type: 'string', 'x-mcp-header': 'V' } })] }),
      /reachable/,
    ],
    [
      'inside oneOf',
      object({}, { oneOf: [object({ v: { type: 'string', 'x-mcp-header': 'V' } })] }),
      /reachable/,
    ],
    [
      'inside allOf',
      object({}, { allOf: [object({ v: { type: 'string', 'x-mcp-header': 'V' } })] }),
      /reachable/,
    ],
    ['inside not', object({}, { not: object({ v: { type: 'string', 'x-mcp-header': 'V' } }) }), /reachable/],
    [
      'inside if/then/else',
      object({}, { if: object({}), then: object({ v: { type: 'string', 'x-mcp-header': 'V' } }) }),
      /reachable/,
    ],
    [
      'in $defs behind a $ref',
      object(
        { v: { $ref: '#/$defs/region' } },
        { $defs: { region: { type: 'string', 'x-mcp-header': 'Region' } } },
      ),
      /reachable/,
    ],
    [
      'in additionalProperties',
      object({}, { additionalProperties: { type: 'string', 'x-mcp-header': 'Extra' } }),
      /reachable/,
    ],
    [
      'in patternProperties',
      object({}, { patternProperties: { '^x': { type: 'string', 'x-mcp-header': 'X' } } }),
      /reachable/,
    ],
  ];

  for (const [what, schema, expected] of cases) {
    it(`rejects ${what}`, () => {
      expect(reason(schema)).toMatch(expected);
    });
  }

  it('accepts integer, string and boolean properties, nullable ones, and nested properties chains', () => {
    expect(
      bindings(
        object({
          a: { type: 'integer', 'x-mcp-header': 'A' },
          b: { type: ['string', 'null'], 'x-mcp-header': 'B' },
          c: object({ d: { type: 'boolean', 'x-mcp-header': "!#$%&'*+-.^_`|~09azAZ" } }),
        }),
      ).map((param) => [param.name, param.path]),
    ).toEqual([
      ['A', ['a']],
      ['B', ['b']],
      ["!#$%&'*+-.^_`|~09azAZ", ['c', 'd']],
    ]);
  });

  it('accepts schemas without annotations', () => {
    expect(bindings({ type: 'object' })).toEqual([]);
    expect(bindings(undefined)).toEqual([]);
  });
});
