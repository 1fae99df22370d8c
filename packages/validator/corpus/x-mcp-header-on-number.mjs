// Breaks: x-mcp-header is put on a parameter of type number (only integer, string and boolean are allowed).
// expect: tools.x-mcp-header
// requirement: streamable-http-0e2906ee
// revisions: 2026-07-28
import { ECHO_TOOL, main, resultResponse } from './_server.mjs';

const SCALE = {
  name: 'scale',
  description: 'Scales a value',
  inputSchema: {
    type: 'object',
    properties: { factor: { type: 'number', 'x-mcp-header': 'Factor' } },
    additionalProperties: false,
  },
  annotations: { readOnlyHint: true },
};
main({
  revisions: ['2026-07-28'],
  tools: [ECHO_TOOL, SCALE],
  callTool(name, _args, ctx, id) {
    if (name !== 'scale') return undefined;
    return resultResponse(id, { content: [{ type: 'text', text: 'scaled' }] }, ctx);
  },
});
