/** The matchers fail when they should, with messages that say why. */
import { describe, expect, it } from 'vitest';
import { MCP_CONTEXT, McpProtocolError } from './index.js';

const withRevision = <T extends object>(value: T, revision: string): T =>
  Object.defineProperty(value, MCP_CONTEXT, {
    value: { revision, request: { method: 'tools/call', params: {} } },
    enumerable: false,
  });

describe('MCP matchers', () => {
  const ok = { content: [{ type: 'text', text: 'fine' }], structuredContent: { sum: 3, extra: true } };
  const failed = { content: [{ type: 'text', text: 'broken: disk full' }], isError: true };

  it('toBeToolError', () => {
    expect(failed).toBeToolError();
    expect(failed).toBeToolError('disk full');
    expect(() => expect(ok).toBeToolError()).toThrow(
      /expected isError: true, got a successful result: "fine"/,
    );
    expect(() => expect(failed).toBeToolError(/network/)).toThrow(
      /expected the tool error to mention \/network\//,
    );
    expect(() => expect(failed).not.toBeToolError()).toThrow(
      /expected a successful tool result, got isError: true/,
    );
  });

  it('toHaveStructuredContent', () => {
    expect(ok).toHaveStructuredContent({ sum: 3 });
    expect(ok).toHaveStructuredContent({ sum: { $gt: 2 } });
    expect(() => expect(ok).toHaveStructuredContent({ sum: 4 })).toThrow(
      /structuredContent\.sum: expected 4, got 3/,
    );
  });

  it('toBeProtocolError and toRejectInput', () => {
    const context = { revision: '2025-06-18', request: { method: 'tools/call', params: {} } } as const;
    const error = new McpProtocolError({ code: -32602, message: 'Invalid arguments' }, context as never);
    expect(error).toBeProtocolError(-32602);
    expect(() => expect(error).toBeProtocolError(-32601)).toThrow(
      /expected JSON-RPC error -32601, got JSON-RPC error -32602/,
    );
    expect(error).toRejectInput();
    expect(withRevision({ ...failed }, '2025-11-25')).toRejectInput();
    expect(() => expect(withRevision({ ...ok }, '2025-11-25')).toRejectInput()).toThrow(
      /refused with an isError result at 2025-11-25/,
    );
    expect(() => expect(withRevision({ ...failed }, '2025-06-18')).toRejectInput()).toThrow(
      /JSON-RPC error -32602 at 2025-06-18/,
    );
  });
});
