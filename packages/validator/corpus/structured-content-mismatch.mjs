// Breaks: structuredContent does not conform to the tool's outputSchema.
// expect: tools.structured-content
// requirement: tools-dcfec954
import { ECHO_TOOL, main, resultResponse } from './_server.mjs';

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
    const content = [{ type: 'text', text: JSON.stringify(structured) }];
    return resultResponse(id, { content, structuredContent: structured }, ctx);
  },
});
