import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FileError } from './yaml-source.js';
import { parseYamlSuite } from './load-yaml.js';
import { TEST_FILE_SCHEMA } from './schema.js';

const FILE = '/tests/sample.mcp.yaml';

function problemsOf(text: string): string[] {
  try {
    parseYamlSuite(FILE, text);
  } catch (error) {
    if (error instanceof FileError) return [...error.problems];
    throw error;
  }
  return [];
}

describe('YAML test files', () => {
  it('reads a file into a suite, paths relative to the file', () => {
    const suite = parseYamlSuite(
      FILE,
      'server:\n  stdio: node ../dist/main.js --flag "a b"\n  cassette: cassettes/api.json\nrevision: [2025-11-25, 2026-07-28]\ntests:\n  - name: add\n    tool: add\n    arguments: { a: 1 }\n    expect: { structuredContent: { sum: 1 } }\n',
    );
    expect(suite.server).toMatchObject({
      kind: 'stdio',
      command: 'node',
      args: ['../dist/main.js', '--flag', 'a b'],
      cwd: '/tests',
    });
    expect(suite.server.cassette).toEqual({ path: '/tests/cassettes/api.json', mode: 'auto', secrets: [] });
    expect(suite.revisions).toEqual(['2025-11-25', '2026-07-28']);
    expect(suite.tests[0]).toMatchObject({
      name: 'add',
      action: { kind: 'tool', name: 'add', arguments: { a: 1 } },
      location: { line: 6, column: 5 },
    });
  });

  it('reports syntax errors at their line and column', () => {
    expect(problemsOf('server:\n  stdio: node x.js\ntests:\n  - name: [unclosed\n')).toEqual([
      expect.stringMatching(/^\/tests\/sample\.mcp\.yaml:5:1: /),
    ]);
    expect(problemsOf('server: { stdio: a }\nserver: { stdio: b }\ntests: []\n')[0]).toMatch(
      /:2:1: Map keys must be unique/,
    );
  });

  it('reports schema violations at the offending node, in words', () => {
    const problems = problemsOf(
      [
        'server:',
        '  stdio: node s.js',
        '  colour: blue',
        'tests:',
        '  - name: one',
        '    tool: add',
        '    resource: test://x',
        '  - name: two',
        '    expect: { isError: 3 }',
        '  - name: three',
        '    tool: add',
        '    timeout: -1',
        '    expect: { text: { $containz: x }, json: { "$.a[": 1 } }',
        '',
      ].join('\n'),
    );
    expect(problems).toEqual([
      '/tests/sample.mcp.yaml:7:5: a test does one thing; this one has tool and resource',
      '/tests/sample.mcp.yaml:8:5: a test needs one of tool, resource, prompt, complete, list, ping, subscribe',
      '/tests/sample.mcp.yaml:3:3: unknown key "colour" in server',
      '/tests/sample.mcp.yaml:9:24: tests.1.expect.isError: must be a boolean, or must be equal to constant "any"',
      '/tests/sample.mcp.yaml:12:14: tests.2.timeout: must be >= 1',
      '/tests/sample.mcp.yaml:13:23: unknown operator $containz (known: $eq $contains $matches $type $exists $gt $gte $lt $lte $length $not $anyOf $allOf $any $byRevision)',
      expect.stringMatching(/^\/tests\/sample\.mcp\.yaml:13:47: not a JSONPath this runner understands/),
    ]);
  });

  it('refuses duplicate test names, naming both places', () => {
    expect(
      problemsOf('server: { stdio: a }\ntests:\n  - { name: x, ping: true }\n  - { name: x, ping: true }\n'),
    ).toEqual([
      '/tests/sample.mcp.yaml:4:13: duplicate test name "x" (first at /tests/sample.mcp.yaml:3:13)',
    ]);
  });

  it('a file that is not a mapping says what a test file is', () => {
    expect(problemsOf('- just\n- a list\n')).toEqual([
      '/tests/sample.mcp.yaml:1:1: a test file is a mapping with server: and tests:',
    ]);
  });

  it('publishes the schema it validates with (schema/test-file.schema.json)', () => {
    const published = JSON.parse(
      readFileSync(join(import.meta.dirname, '..', '..', 'schema', 'test-file.schema.json'), 'utf8'),
    ) as unknown;
    expect(published).toEqual(JSON.parse(JSON.stringify(TEST_FILE_SCHEMA)));
  });
});
