// Breaks: structuredContent does not conform to the tool's outputSchema.
// expect: tools.structured-content
// requirement: tools-dcfec954
import { ECHO_TOOL, main } from './_server.mjs';

const SUM = {
  name: 'sum',
  description: 'Adds two numbers',
  inputSchema: {
    type: 'object',
    properties: { a: { type: 'number' }, b: { type: 'number' } },
    required: ['a', 'b'],
  },
  outputSchema: { type: 'object', properties: { sum: { type: 'number' } }, required: ['sum'] },
  annotations: { readOnlyHint: true },
};
main({
  tools: [ECHO_TOOL, SUM],
  callTool(name, _args, ctx, id) {
    if (name !== 'sum') return undefined;
    const structured = { sum: 'two' };
    const result = {
      content: [{ type: 'text', text: JSON.stringify(structured) }],
      structuredContent: structured,
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
