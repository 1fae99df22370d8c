// Breaks (SHOULD): tools/list returns its tools in a different order every time.
// expect: tools.deterministic-order
// requirement: tools-c942758f
// revisions: 2026-07-28
import { ECHO_TOOL, main } from './_server.mjs';

let flip = false;
const OTHER = {
  name: 'other',
  description: 'Another tool',
  inputSchema: { type: 'object', additionalProperties: false },
};
main({
  revisions: ['2026-07-28'],
  tools: [ECHO_TOOL, OTHER],
  request(message, _ctx, next) {
    const reply = next();
    if (message.method === 'tools/list' && reply.result) {
      flip = !flip;
      if (flip) reply.result.tools.reverse();
    }
    return reply;
  },
});
