/**
 * `@mcpengine/test-runner/vitest`: a server per test file and MCP matchers.
 *
 *   import { useMcpServer } from '@mcpengine/test-runner/vitest';
 *   const mcp = useMcpServer({ stdio: 'node dist/server.js' });
 *   it('adds', async () => {
 *     expect(await mcp.callTool('add', { a: 1, b: 2 })).toHaveStructuredContent({ sum: 3 });
 *   });
 *
 * The server starts before the file's tests and stops after them; after each test, any schema violation on the
 * wire or tool result that breaks its outputSchema fails that test.
 */
import { afterAll, afterEach, beforeAll, beforeEach, chai, expect } from 'vitest';
import { redact } from '../expect/redact.js';
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

interface McpMatchers<R = unknown> {
  /** A tool result with `isError: true`, its text containing (string) or matching (RegExp) `message`. */
  toBeToolError(message?: string | RegExp): R;
  /** structuredContent matching `expected` (objects by the members listed, `$operators` allowed). */
  toHaveStructuredContent(expected: unknown): R;
  /** The result's text containing a string or matching a RegExp. */
  toHaveTextContent(expected: string | RegExp): R;
  /** A rejected call's JSON-RPC error, e.g. `await expect(mcp.callTool('nope')).rejects.toBeProtocolError(-32602)`. */
  toBeProtocolError(code?: number): R;
  /** Invalid input refused as the negotiated revision says (-32602 before 2025-11-25, isError from it on). */
  toRejectInput(): R;
  /** Vitest's snapshot of the result with dynamic values redacted and the modern envelope removed. */
  toMatchMcpSnapshot(hint?: string): R;
}

declare module 'vitest' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type, @typescript-eslint/no-explicit-any -- Vitest's own signature
  interface Matchers<T = any> extends McpMatchers<T> {}
}

const adapt =
  <A extends unknown[]>(check: (received: unknown, ...args: A) => Check) =>
  (received: unknown, ...args: A) => {
    const { pass, message } = check(received, ...args);
    return { pass, message: () => message };
  };

expect.extend({
  toBeToolError: adapt(checkToolError),
  toHaveStructuredContent: adapt(checkStructuredContent),
  toHaveTextContent: adapt(checkTextContent),
  toBeProtocolError: adapt(checkProtocolError),
  toRejectInput: adapt(checkRejectsInput),
});

chai.use((api, utils) => {
  utils.addMethod(
    api.Assertion.prototype,
    'toMatchMcpSnapshot',
    function (this: Chai.AssertionStatic, hint?: string) {
      const received = utils.flag(this, 'object') as unknown;
      const value =
        typeof received === 'object' && received !== null && !Array.isArray(received)
          ? plainResult(received as never)
          : received;
      utils.flag(this, 'object', redact(value));
      return (this as unknown as { toMatchSnapshot(hint?: string): unknown }).toMatchSnapshot(hint);
    },
  );
});

/** Starts `server` for this file's tests (beforeAll) and stops it after (afterAll); checks the wire after each test. */
export function useMcpServer(server: ServerSpec, options: FixtureOptions = {}): McpFixture {
  const fixture = new McpFixture(server, options);
  beforeAll(() => fixture.start(), (options.startupTimeoutMs ?? 10_000) + 5_000);
  afterAll(() => fixture.stop());
  beforeEach(() => fixture.beginTest());
  afterEach(() => {
    const problems = fixture.endTest();
    if (problems.length > 0)
      throw new Error(`the MCP exchange of this test was not valid:\n${problems.join('\n')}`);
  });
  return fixture;
}
