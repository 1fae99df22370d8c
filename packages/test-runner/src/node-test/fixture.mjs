// A node:test file using the test runner's node:test API against the everything server over stdio (run by
// node-test.test.ts with `node --test`).
import { it } from 'node:test';
import {
  assertProtocolError,
  assertRejectsInput,
  assertStructuredContent,
  assertTextContent,
  assertToolError,
  useMcpServer,
} from '@mcpengine/test-runner/node-test';

const mcp = useMcpServer(
  { stdio: `${JSON.stringify(process.execPath)} ${JSON.stringify(process.env.EVERYTHING)}` },
  { revision: '2025-11-25' },
);

it('add', async () => assertStructuredContent(await mcp.callTool('add', { a: 1, b: 2 }), { sum: 3 }));
it('tool error', async () => assertToolError(await mcp.callTool('test_error_handling'), 'intentionally'));
it('invalid input', () => assertRejectsInput(mcp.callTool('add', { a: 'x', b: 1 })));
it('unknown tool', () => assertProtocolError(mcp.callTool('nope'), -32602));
it('text', async () => assertTextContent(await mcp.readResource('test://static-text'), 'static text'));
it('a failing assertion fails', async () =>
  assertStructuredContent(await mcp.callTool('add', { a: 1, b: 2 }), { sum: 4 }));
