// Breaks: an unknown tool is answered with an isError result instead of a -32602 protocol error.
// expect: tools.unknown-tool
// requirement: tools-d-unknown-tool
import { main, resultResponse } from './_server.mjs';

main({
  request(message, ctx, next) {
    if (message.method !== 'tools/call' || message.params?.name === 'echo') return next();
    return resultResponse(
      message.id,
      { content: [{ type: 'text', text: 'Unknown tool' }], isError: true },
      ctx,
    );
  },
});
