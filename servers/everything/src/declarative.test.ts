/**
 * The everything server's declarative tests (test/*.mcp.yaml): every feature over stdio, Streamable HTTP,
 * HTTP+SSE and in memory, in both eras, run by the test runner as `mcpengine test servers/everything/test` would.
 * Every message is checked against the official schema of the negotiated revision by the runner itself.
 */
import { join } from 'node:path';
import { findTestFiles, runFiles, type TestResult } from '@mcpengine/test-runner';
import { describe, expect, it } from 'vitest';

const TEST_DIR = join(import.meta.dirname, '..', 'test');
const files = findTestFiles([TEST_DIR], TEST_DIR);

describe('everything server: declarative tests', () => {
  it('finds the test files', () => {
    expect(files.map((file) => file.slice(TEST_DIR.length + 1)).sort()).toEqual([
      'http.mcp.yaml',
      'memory.mcp.yaml',
      'resources.mcp.yaml',
      'sse.mcp.yaml',
      'tools.mcp.yaml',
    ]);
  });

  it.each(files.map((file) => [file.slice(TEST_DIR.length + 1), file] as const))(
    '%s passes',
    async (_name, file) => {
      const summary = await runFiles([{ file, kind: 'yaml' }], { jobs: 1 });
      const suite = summary.suites[0]!;
      const problems = suite.tests
        .filter((test: TestResult) => test.status !== 'passed')
        .map(
          (test: TestResult) =>
            `${test.name}: ${test.status}: ${[...test.failures, ...test.warnings].join('; ')}`,
        );
      expect(suite.fileError).toBeUndefined();
      expect(suite.connectionError).toBeUndefined();
      expect(problems).toEqual([]);
      expect(suite.tests.length).toBeGreaterThan(2);
      expect(summary.exitCode).toBe(0);
    },
    60_000,
  );
});
