/**
 * `@mcpengine/test-runner/node-test`: the same fixture and checks for Node's built-in test runner.
 *
 *   import { it } from 'node:test';
 *   import { useMcpServer, assertStructuredContent } from '@mcpengine/test-runner/node-test';
 *   const mcp = useMcpServer({ stdio: 'node dist/server.js' });
 *   it('adds', async () => assertStructuredContent(await mcp.callTool('add', { a: 1, b: 2 }), { sum: 3 }));
 *
 * Snapshots (`assertMcpSnapshot`) live in `__snapshots__/<test file>.snap.yaml`, redacted; set
 * MCPENGINE_UPDATE_SNAPSHOTS=1 to rewrite them.
 */
import { AssertionError } from 'node:assert';
import { basename, dirname, join } from 'node:path';
import { after, afterEach, before, beforeEach } from 'node:test';
import { YamlSnapshotStore } from '../expect/snapshots.js';
import {
  checkProtocolError,
  checkRejectsInput,
  checkStructuredContent,
  checkTextContent,
  checkToolError,
  type Check,
} from '../fixture/assertions.js';
import { McpFixture, type FixtureOptions, type ServerSpec } from '../fixture/mcp-fixture.js';
import { plainResult } from '../run/observation.js';

export {
  McpFixture,
  McpProtocolError,
  MCP_CONTEXT,
  type FixtureOptions,
  type McpResult,
  type ServerSpec,
} from '../fixture/mcp-fixture.js';

function assert(check: Check, stackStart: (...args: never[]) => unknown): void {
  if (!check.pass) throw new AssertionError({ message: check.message, stackStartFn: stackStart });
}

export function assertToolError(result: unknown, message?: string | RegExp): void {
  assert(checkToolError(result, message), assertToolError);
}
export function assertStructuredContent(result: unknown, expected: unknown): void {
  assert(checkStructuredContent(result, expected), assertStructuredContent);
}
export function assertTextContent(result: unknown, expected: string | RegExp): void {
  assert(checkTextContent(result, expected), assertTextContent);
}
/** Awaits `call` and asserts it failed with a JSON-RPC error (`code` when given). */
export async function assertProtocolError(call: Promise<unknown>, code?: number): Promise<void> {
  let outcome: unknown;
  try {
    outcome = await call;
  } catch (error) {
    outcome = error;
  }
  assert(checkProtocolError(outcome, code), assertProtocolError);
}
/** Awaits `call` and asserts the input was refused as the negotiated revision says. */
export async function assertRejectsInput(call: Promise<unknown>): Promise<void> {
  let outcome: unknown;
  try {
    outcome = await call;
  } catch (error) {
    outcome = error;
  }
  assert(checkRejectsInput(outcome), assertRejectsInput);
}

const stores = new Map<string, YamlSnapshotStore>();

/** Compares the redacted result with the snapshot `name` of this test file (written on first run). */
export function assertMcpSnapshot(name: string, result: unknown, testFile = process.argv[1] ?? 'test'): void {
  const file = join(dirname(testFile), '__snapshots__', `${basename(testFile)}.snap.yaml`);
  let store = stores.get(file);
  if (store === undefined) {
    store = new YamlSnapshotStore(file, process.env['MCPENGINE_UPDATE_SNAPSHOTS'] === '1');
    stores.set(file, store);
  }
  const value =
    typeof result === 'object' && result !== null && !Array.isArray(result)
      ? plainResult(result as never)
      : result;
  const verdict = store.check(name, value);
  store.save();
  if (verdict.status === 'mismatch')
    throw new AssertionError({
      message: `snapshot ${JSON.stringify(name)} differs (MCPENGINE_UPDATE_SNAPSHOTS=1 rewrites it):\n${verdict.diff ?? ''}`,
      stackStartFn: assertMcpSnapshot,
    });
}

/** Starts `server` before this file's tests and stops it after; checks the wire after each test. */
export function useMcpServer(server: ServerSpec, options: FixtureOptions = {}): McpFixture {
  const fixture = new McpFixture(server, options);
  before(() => fixture.start());
  after(() => fixture.stop());
  beforeEach(() => fixture.beginTest());
  afterEach(() => {
    const problems = fixture.endTest();
    if (problems.length > 0)
      throw new AssertionError({
        message: `the MCP exchange of this test was not valid:\n${problems.join('\n')}`,
      });
  });
  return fixture;
}
