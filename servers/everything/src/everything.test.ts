/**
 * The everything server through the test runner's Vitest API: one server per file (in memory here; stdio and HTTP
 * work the same), MCP matchers, and the wire checked after every test.
 */
import { describe, expect, it } from 'vitest';
import { useMcpServer } from '@mcpengine/test-runner/vitest';
import { createEverythingServer } from './server.js';

describe.each(['2025-11-25', '2026-07-28'] as const)('everything server at %s (Vitest API)', (revision) => {
  const mcp = useMcpServer(
    { memory: () => createEverythingServer() },
    { revision, client: { elicitation: [{ action: 'accept', content: { name: 'Ada' } }] } },
  );

  it('add answers structured content', async () => {
    expect(await mcp.callTool('add', { a: 2, b: 40 })).toHaveStructuredContent({ sum: 42 });
  });

  it('a failing tool is a tool error, not a protocol error', async () => {
    expect(await mcp.callTool('test_error_handling')).toBeToolError(/intentionally/);
    expect(await mcp.callTool('echo', { text: 'fine' })).not.toBeToolError();
  });

  it('invalid input is refused as the revision says', async () => {
    expect(await mcp.callTool('add', { a: 'two', b: 2 })).toRejectInput();
  });

  it('an unknown tool is JSON-RPC error -32602', async () => {
    await expect(mcp.callTool('no_such_tool')).rejects.toBeProtocolError(-32602);
  });

  it('elicitation is answered by the scripted client', async () => {
    expect(await mcp.callTool('test_input_required_result_elicitation')).toHaveTextContent('Hello, Ada!');
  });

  it('resources and prompts', async () => {
    expect(await mcp.readResource('test://static-text')).toHaveTextContent(/static text resource/);
    expect(await mcp.getPrompt('test_prompt_with_arguments', { arg1: 'a', arg2: 'b' })).toHaveTextContent(
      "arg1='a'",
    );
    expect((await mcp.list('tools')).map((tool) => tool['name'])).toContain('add');
  });

  it('snapshots are redacted and era-neutral', async () => {
    expect(await mcp.callTool('get_resource_links')).toMatchMcpSnapshot();
  });
});
