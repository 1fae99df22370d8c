// Breaks (SHOULD): structuredContent comes without its JSON serialized in a text block.
// expect: tools.structured-text
// requirement: tools-0318d6c1
import { ECHO_TOOL, main } from './_server.mjs';

const NOW = {
  name: 'now',
  description: 'The current time',
  inputSchema: { type: 'object', additionalProperties: false },
  outputSchema: { type: 'object', properties: { iso: { type: 'string' } }, required: ['iso'] },
  annotations: { readOnlyHint: true },
};
main({
  tools: [ECHO_TOOL, NOW],
  callTool(name, _args, ctx, id) {
    if (name !== 'now') return undefined;
    const result = {
      content: [{ type: 'text', text: 'It is now.' }],
      structuredContent: { iso: '2026-01-01T00:00:00Z' },
    };
    return {
      jsonrpc: '2.0',
      id,
      result: ctx.modern
        ? {
            ...result,
            resultType: 'complete',
            _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'corpus', version: '1' } },
          }
        : result,
    };
  },
});
