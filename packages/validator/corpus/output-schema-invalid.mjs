// Breaks: a tool's outputSchema is not a valid JSON Schema ("integer number" is not a JSON Schema type).
// expect: tools.output-schema
// requirement: basic-45f742e0
// revisions: 2025-11-25
import { ECHO_TOOL, main, noArgumentTool, resultResponse } from './_server.mjs';

const TOTAL = noArgumentTool('total', 'A total', {
  outputSchema: { type: 'object', properties: { n: { type: 'integer number' } }, required: ['n'] },
});
main({
  revisions: ['2025-11-25'],
  tools: [ECHO_TOOL, TOTAL],
  callTool(name, _args, ctx, id) {
    if (name !== 'total') return undefined;
    return resultResponse(
      id,
      { content: [{ type: 'text', text: '{"n":3}' }], structuredContent: { n: 3 } },
      ctx,
    );
  },
});
