/**
 * Judges an observation against a test's expectations. Defaults are strict: a JSON-RPC error, a tool result with
 * `isError: true`, a schema violation on the wire, a result that breaks the tool's outputSchema, a server question
 * no rule answered — each fails the test unless the test says it expects it.
 */
import { formatViolation } from '@mcpengine/oracle';
import { evaluateExpectExpression, parseExpectExpression } from '../format/mcp-jest-expect.js';
import type { JsonObject, Revision, TestCase } from '../model.js';
import { plainResult, textOf, type Observation } from '../run/observation.js';
import { evaluateJsonPath } from './json-path.js';
import { match, show, type MatchContext } from './match.js';
import { outputSchemaProblems } from './output-schema.js';
import type { SnapshotStore } from './snapshots.js';

export interface Verdict {
  readonly failures: string[];
  readonly warnings: string[];
  /** Information that is neither (a snapshot written for the first time). */
  readonly notes: string[];
}

/** Invalid tool arguments: -32602 before 2025-11-25, an `isError` result from it on (SEP-1303). */
export function inputRejectionForm(revision: Revision): 'protocol-error' | 'tool-error' {
  return revision >= '2025-11-25' ? 'tool-error' : 'protocol-error';
}

export function describeAnswer(observation: Observation): string {
  if (observation.error !== undefined)
    return `JSON-RPC error ${String(observation.error.code)}: ${String(observation.error.message)}`;
  const result = observation.result;
  if (result === undefined) return observation.failure?.message ?? 'no answer';
  const text = textOf(result);
  return `${result['isError'] === true ? 'isError result' : 'result'}${text === undefined || text === '' ? ` ${show(plainResult(result))}` : `: ${show(text, 300)}`}`;
}

/** Failures every test shares: no answer, wire violations, unanswered questions. */
export function commonProblems(observation: Observation): string[] {
  const out: string[] = [];
  if (observation.failure !== undefined) {
    out.push(
      observation.failure.kind === 'timeout'
        ? `no answer within the time limit (${observation.failure.message})`
        : `no answer: ${observation.failure.message}`,
    );
  }
  for (const violation of observation.violations.slice(0, 10))
    out.push(`schema violation: ${formatViolation(violation)}`);
  if (observation.violations.length > 10)
    out.push(`… and ${observation.violations.length - 10} more schema violations`);
  out.push(...observation.unanswered);
  return out;
}

function expectError(
  observation: Observation,
  expected: unknown,
  ctx: MatchContext,
  failures: string[],
): void {
  if (observation.error === undefined) {
    failures.push(`expected a JSON-RPC error, got ${describeAnswer(observation)}`);
    return;
  }
  failures.push(...match(observation.error, expected, 'error', ctx));
}

function checkRejection(observation: Observation, verdict: Verdict, shouldThrow: boolean): void {
  const isToolError = observation.result?.['isError'] === true;
  if (observation.error === undefined && !isToolError) {
    verdict.failures.push(
      shouldThrow
        ? `expected an error (shouldThrow), got success: ${describeAnswer(observation)}`
        : `the tool accepted invalid input: ${describeAnswer(observation)}`,
    );
    return;
  }
  if (shouldThrow) return;
  const form = inputRejectionForm(observation.revision);
  if (form === 'tool-error' && !isToolError)
    verdict.warnings.push(
      `invalid input answered with ${describeAnswer(observation)}; at ${observation.revision} input validation errors are tool results with isError: true`,
    );
  if (form === 'protocol-error' && (observation.error === undefined || observation.error.code !== -32602))
    verdict.warnings.push(
      `invalid input answered with ${describeAnswer(observation)}; at ${observation.revision} invalid arguments are JSON-RPC error -32602`,
    );
}

export interface EvaluateOptions {
  readonly snapshots?: SnapshotStore;
  /** The name snapshots are stored under. */
  readonly snapshotName: string;
}

export function evaluate(test: TestCase, observation: Observation, options: EvaluateOptions): Verdict {
  const verdict: Verdict = { failures: commonProblems(observation), warnings: [], notes: [] };
  if (observation.failure !== undefined) return verdict;
  const { failures } = verdict;
  const expect = test.expect;
  const ctx: MatchContext = { revision: observation.revision };
  const isTool =
    test.action.kind === 'tool' || (test.action.kind === 'subscribe' && test.action.then?.kind === 'tool');
  const result = plainResult(observation.result);

  if (expect.error !== undefined) {
    expectError(observation, expect.error, ctx, failures);
    return verdict;
  }
  if (expect.rejectsInput === true || expect.shouldThrow === true) {
    checkRejection(observation, verdict, expect.shouldThrow === true);
    return verdict;
  }
  if (expect.shouldExist === false) {
    if (observation.error === undefined)
      failures.push(`expected the resource not to exist, got ${describeAnswer(observation)}`);
    return verdict;
  }
  if (observation.error !== undefined || result === undefined) {
    failures.push(`expected a result, got ${describeAnswer(observation)}`);
    return verdict;
  }
  if (isTool) {
    const wanted = expect.isError ?? false;
    const actual = result['isError'] === true;
    if (wanted !== 'any' && actual !== wanted)
      failures.push(
        actual
          ? `the tool reported an error (isError: true): ${show(textOf(result) ?? result, 300)}`
          : `expected isError: true, got ${describeAnswer(observation)}`,
      );
    failures.push(...outputSchemaProblems(observation.tool, result));
  }
  const check = (name: string, actual: unknown, expected: unknown) => {
    if (expected !== undefined) failures.push(...match(actual, expected, name, ctx));
  };
  check('text', textOf(result), expect.text);
  check('content', result['content'], expect.content);
  check('structuredContent', result['structuredContent'], expect.structuredContent);
  check('result', result, expect.result);
  check('messages', result['messages'], expect.messages);
  check('contents', result['contents'], expect.contents);
  check('values', (result['completion'] as JsonObject | undefined)?.['values'], expect.values);
  if (expect.names !== undefined) {
    const list = Object.values(result).find(Array.isArray) as JsonObject[] | undefined;
    check(
      'names',
      (list ?? []).map((item) => item['name'] ?? item['uri'] ?? item['uriTemplate']),
      expect.names,
    );
  }
  check(
    'notifications',
    observation.notifications.map((n) => ({ method: n.method, params: n.params })),
    expect.notifications,
  );
  check('progress', observation.progress, expect.progress);
  check('logs', observation.logs, expect.logs);
  check('asked', observation.asked, expect.asked);
  if (expect.updated !== undefined && observation.updates.length > 0 !== expect.updated)
    failures.push(
      expect.updated
        ? `no notifications/resources/updated arrived for the subscribed resource`
        : `unexpected notifications/resources/updated: ${show(observation.updates)}`,
    );
  for (const [path, expected] of Object.entries(expect.json ?? {})) {
    const root = isTool ? result['structuredContent'] : result;
    check(`json ${path}`, evaluateJsonPath(root, path), expected);
  }
  if (expect.expression !== undefined) {
    const scope = {
      ...result,
      result,
      exists: true,
      count: Array.isArray(result['resources']) ? (result['resources'] as unknown[]).length : undefined,
    };
    let value: unknown;
    try {
      value = evaluateExpectExpression(parseExpectExpression(expect.expression.source), scope);
    } catch (error) {
      failures.push(`expect ${JSON.stringify(expect.expression.source)}: ${(error as Error).message}`);
    }
    if (!value && failures.length === 0)
      failures.push(`expect ${JSON.stringify(expect.expression.source)} is false for ${show(result, 300)}`);
  }
  if (expect.snapshot !== undefined && expect.snapshot !== false && options.snapshots !== undefined) {
    const name = typeof expect.snapshot === 'string' ? expect.snapshot : options.snapshotName;
    let value: unknown = result;
    if (expect.snapshotProperties !== undefined)
      value = Object.fromEntries(
        expect.snapshotProperties.map((path) => [path, evaluateJsonPath(result, path)]),
      );
    if (expect.snapshotExclude !== undefined) {
      const copy = JSON.parse(JSON.stringify(value)) as JsonObject;
      for (const path of expect.snapshotExclude) delete copy[path];
      value = copy;
    }
    const snap = options.snapshots.check(name, value);
    if (snap.status === 'mismatch')
      failures.push(`snapshot ${JSON.stringify(name)} differs (update with -u):\n${snap.diff ?? ''}`);
    if (snap.status === 'written' || snap.status === 'updated')
      verdict.notes.push(`snapshot ${JSON.stringify(name)} ${snap.status}`);
  }
  return verdict;
}
