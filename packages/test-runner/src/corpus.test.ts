/**
 * The corpus of servers with known tool bugs: each is caught by the modes that can catch it (declarative YAML,
 * mcp-jest config, generated tests), for the reason it is broken and for nothing else; the correct server passes
 * every mode.
 */
import { describe, expect, it } from 'vitest';
import { corpusEntries, runMode, type Mode } from './test/corpus.js';
import type { SuiteResult } from './model.js';

/** For each bug and mode that catches it: the failing tests (by name pattern) and what their failure says. */
const EXPECTED: Record<string, Partial<Record<Mode, { tests: RegExp; says: RegExp }>>> = {
  'wrong-answer.mjs': {
    yaml: { tests: /^add sums$/, says: /structuredContent\.sum: expected 5, got 6/ },
    'mcp-jest': { tests: /^tool add$/, says: /structuredContent\.sum === 5.* is false/ },
  },
  'error-flagged-success.mjs': {
    yaml: { tests: /^echo echoes$/, says: /the tool reported an error \(isError: true\): "hello"/ },
    'mcp-jest': { tests: /^tool echo$/, says: /isError: true/ },
  },
  'no-input-validation.mjs': {
    generate: {
      tests: /^echo: (missing required text|text of the wrong type)$/,
      says: /success for invalid input/,
    },
  },
  'type-coercion.mjs': {
    generate: { tests: /^add: [ab] of the wrong type$/, says: /success for invalid input/ },
  },
  'output-schema-mismatch.mjs': {
    yaml: { tests: /^add sums$/, says: /does not conform to add's outputSchema: \/sum must be a number/ },
    'mcp-jest': { tests: /^tool add$/, says: /does not conform to add's outputSchema/ },
    generate: { tests: /^add: /, says: /does not conform to add's outputSchema/ },
  },
  'missing-structured-content.mjs': {
    yaml: { tests: /^add sums$/, says: /declares an outputSchema but the result has no structuredContent/ },
    'mcp-jest': { tests: /^tool add$/, says: /has no structuredContent/ },
    generate: { tests: /^add: /, says: /has no structuredContent/ },
  },
  'hang.mjs': {
    yaml: { tests: /^echo echoes$/, says: /no answer within the time limit/ },
    'mcp-jest': { tests: /^tool echo$/, says: /no answer within the time limit/ },
    generate: { tests: /^echo: /, says: /hang: no answer within 2000 ms on valid input/ },
  },
  'internal-error.mjs': {
    yaml: { tests: /^add sums$/, says: /expected a result, got JSON-RPC error -32603/ },
    'mcp-jest': { tests: /^tool add$/, says: /-32603/ },
    generate: { tests: /^add: /, says: /internal error on valid input/ },
  },
  'crash-on-input.mjs': {
    generate: { tests: /^echo: text unicode$/, says: /the server exited with code 70/ },
  },
  'malformed-content.mjs': {
    yaml: { tests: /^echo echoes$/, says: /schema violation: CallToolResult/ },
    'mcp-jest': { tests: /^tool echo$/, says: /schema violation/ },
    generate: { tests: /^echo: /, says: /schema violation/ },
  },
  'missing-resource.mjs': {
    yaml: { tests: /^readme is readable$/, says: /expected a result, got JSON-RPC error -32002/ },
    'mcp-jest': { tests: /^resource test:\/\/readme$/, says: /-32002/ },
    generate: { tests: /^resource test:\/\/readme$/, says: /a listed resource cannot be read/ },
  },
  'empty-prompt.mjs': {
    yaml: { tests: /^greeting greets$/, says: /messages\.length: expected .*got 0/ },
    'mcp-jest': { tests: /^prompt greeting$/, says: /messages\.length > 0.* is false/ },
    generate: { tests: /^prompt greeting$/, says: /the prompt has no messages/ },
  },
};

const failing = (result: SuiteResult) => result.tests.filter((t) => t.status === 'failed');

describe('corpus of servers with tool bugs', () => {
  const entries = corpusEntries();

  it('every entry says what it breaks and which modes catch it', () => {
    expect(entries.map((e) => e.file).sort()).toEqual(['correct.mjs', ...Object.keys(EXPECTED)].sort());
    for (const entry of entries) {
      expect(entry.breaks, entry.file).not.toBe('');
      expect([...entry.caughtBy].sort(), entry.file).toEqual(Object.keys(EXPECTED[entry.file] ?? {}).sort());
    }
  });

  it.each(['yaml', 'mcp-jest', 'generate'] as const)(
    'the correct server passes the %s mode',
    async (mode) => {
      const result = await runMode(
        mode,
        entries.find((e) => e.file === 'correct.mjs')!,
      );
      expect(result.connectionError).toBeUndefined();
      expect(failing(result).map((t) => `${t.name}: ${t.failures.join('; ')}`)).toEqual([]);
      expect(result.tests.filter((t) => t.status === 'passed').length).toBeGreaterThan(3);
    },
    60_000,
  );

  const cases = Object.entries(EXPECTED).flatMap(([file, modes]) =>
    Object.entries(modes).map(([mode, expected]) => [file, mode as Mode, expected] as const),
  );
  it.each(cases)(
    '%s is caught by the %s mode',
    async (file, mode, expected) => {
      const result = await runMode(
        mode,
        entries.find((e) => e.file === file)!,
      );
      const failed = failing(result);
      expect(failed.length, `${file} in ${mode}: nothing failed`).toBeGreaterThan(0);
      for (const test of failed) {
        expect(
          test.name,
          `${file} in ${mode}: an unexpected test failed: ${test.failures.join('; ')}`,
        ).toMatch(expected.tests);
        expect(test.failures.join('\n'), `${file} in ${mode}: ${test.name}`).toMatch(expected.says);
      }
      expect(result.connectionError).toBeUndefined();
    },
    60_000,
  );
});
