// Breaks (SHOULD): a prompt is rendered although its required argument is missing.
// expect: prompts.missing-arguments
// requirement: prompts-ac177b4f
import { main } from './_server.mjs';

main({
  request(message, ctx, next) {
    if (message.method === 'prompts/get' && message.params?.name === 'greeting') {
      const result = { messages: [{ role: 'user', content: { type: 'text', text: 'Hello!' } }] };
      return {
        jsonrpc: '2.0',
        id: message.id,
        result: ctx.modern
          ? {
              ...result,
              resultType: 'complete',
              _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'corpus', version: '1' } },
            }
          : result,
      };
    }
    return next();
  },
});
