import { describe, expect, it } from 'vitest';
import { parseMcpJestConfig } from './load-mcp-jest.js';
import { evaluateExpectExpression, parseExpectExpression } from './mcp-jest-expect.js';
import type { FileError } from './yaml-source.js';

const FILE = '/seed/mcp-jest.json';

describe('mcp-jest configs', () => {
  it('read unchanged: tools, resources (URIs and globs), prompts, lists of names, timeout, filter', () => {
    const suite = parseMcpJestConfig(
      FILE,
      JSON.stringify({
        server: { command: 'node', args: ['./server.js'], env: { KEY: 'v' } },
        tests: {
          tools: {
            add: { args: { a: 1 }, expect: 'content[0].text === "8"' },
            fail: { args: {}, shouldThrow: true },
            skipped_one: {},
          },
          resources: { 'docs/*': { expect: 'count >= 1' }, 'test://gone': { shouldExist: false } },
          prompts: ['review'],
          timeout: 5000,
          maxRetries: 3,
          skip: 'skipped_*',
        },
      }),
    );
    expect(suite.server).toEqual({
      kind: 'stdio',
      command: 'node',
      args: ['./server.js'],
      env: { KEY: 'v' },
      cwd: '/seed',
    });
    expect(suite.timeoutMs).toBe(5000);
    expect(suite.notices).toEqual([
      'maxRetries is ignored: mcpengine test does not retry (a flaky server should fail)',
    ]);
    expect(suite.tests.map((t) => [t.name, t.action.kind, t.skip ?? ''])).toEqual([
      ['tool add', 'tool', ''],
      ['tool fail', 'tool', ''],
      ['tool skipped_one', 'tool', 'filtered out (filter/skip)'],
      ['resource docs/*', 'resource-glob', ''],
      ['resource test://gone', 'resource', ''],
      ['prompt review', 'list', ''],
    ]);
    expect(suite.tests[1]!.expect.shouldThrow).toBe(true);
    expect(suite.tests[4]!.expect.shouldExist).toBe(false);
    expect(suite.tests[5]!.expect.names).toEqual({ $contains: ['review'] });
  });

  it('reports what is wrong with file:line:column', () => {
    try {
      parseMcpJestConfig(
        FILE,
        '{\n  "server": { "command": "node" },\n  "tests": {\n    "tools": { "a": { "expect": "content[0" } },\n    "tolls": {}\n  }\n}\n',
      );
      expect.unreachable();
    } catch (error) {
      expect((error as FileError).problems).toEqual([
        '/seed/mcp-jest.json:5:5: unknown key "tolls"',
        '/seed/mcp-jest.json:4:33: expected "]" at column 10 in "content[0"',
      ]);
    }
  });
});

describe("mcp-jest's expect language", () => {
  const result = {
    content: [{ type: 'text', text: '8' }],
    structuredContent: { items: ['a', 'b'] },
    isError: false,
  };
  const holds = (source: string) =>
    evaluateExpectExpression(parseExpectExpression(source), { ...result, result, exists: true });
  it.each([
    ['content[0].text === "8"', true],
    ["content[0].text === '9'", false],
    ['content[0].text == 8', true],
    ['content.length > 0', true],
    ['content && content.length > 0 && !isError', true],
    ['structuredContent.items.length >= 3', false],
    ['structuredContent.items.includes("b")', true],
    ['content[0].text.startsWith("8") || missing.path', true],
    ['missing.deeply.nested === undefined', true],
    ['(content.length === 1) && (isError === false)', true],
  ])('%s is %s', (source, expected) => {
    expect(Boolean(holds(source))).toBe(expected);
  });

  it('refuses what it does not understand, with the column', () => {
    expect(() => parseExpectExpression('content[0].text = "8"')).toThrow(/unexpected "=" at 17/);
    expect(() => parseExpectExpression('process.exit()')).not.toThrow();
    // Calls other than includes/startsWith/endsWith evaluate to nothing: no code runs.
    expect(evaluateExpectExpression(parseExpectExpression('process.exit()'), { process })).toBeUndefined();
  });
});
