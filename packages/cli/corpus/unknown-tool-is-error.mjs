// Breaks: an unknown tool is answered with an isError result instead of a -32602 protocol error.
// expect: tools.unknown-tool
// requirement: tools-d-unknown-tool
import { main } from './_server.mjs';

main({
  request(message, ctx, next) {
    if (message.method === 'tools/call' && message.params?.name !== 'echo') {
      const result = { content: [{ type: 'text', text: 'Unknown tool' }], isError: true };
      return {
        jsonrpc: '2.0',
        id: message.id,
        result: ctx.modern ? { ...result, resultType: 'complete' } : result,
      };
    }
    return next();
  },
});
