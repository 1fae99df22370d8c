// Breaks (SHOULD): structuredContent comes without its JSON serialized in a text block.
// expect: tools.structured-text
// requirement: tools-0318d6c1
import { ECHO_TOOL, main, noArgumentTool, resultResponse } from './_server.mjs';

const NOW = noArgumentTool('now', 'The current time', {
  outputSchema: { type: 'object', properties: { iso: { type: 'string' } }, required: ['iso'] },
});
main({
  tools: [ECHO_TOOL, NOW],
  callTool(name, _args, ctx, id) {
    if (name !== 'now') return undefined;
    const content = [{ type: 'text', text: 'It is now.' }];
    return resultResponse(id, { content, structuredContent: { iso: '2026-01-01T00:00:00Z' } }, ctx);
  },
});
