// Breaks: a tool's outputSchema is not a valid JSON Schema ("integer number" is not a JSON Schema type).
// expect: tools.output-schema
// requirement: basic-45f742e0
// revisions: 2025-11-25
import { ECHO_TOOL, main } from './_server.mjs';

const SUM = {
  name: 'total',
  description: 'A total',
  inputSchema: { type: 'object', additionalProperties: false },
  outputSchema: { type: 'object', properties: { n: { type: 'integer number' } }, required: ['n'] },
  annotations: { readOnlyHint: true },
};
main({
  revisions: ['2025-11-25'],
  tools: [ECHO_TOOL, SUM],
  callTool(name, _args, _ctx, id) {
    if (name !== 'total') return undefined;
    return {
      jsonrpc: '2.0',
      id,
      result: { content: [{ type: 'text', text: '{"n":3}' }], structuredContent: { n: 3 } },
    };
  },
});
