// Breaks (SHOULD): an unknown prompt is answered with -32601 instead of -32602.
// expect: prompts.unknown
// requirement: prompts-762c6b61
import { main } from './_server.mjs';

main({
  request(message, _ctx, next) {
    const reply = next();
    if (message.method === 'prompts/get' && reply.error && reply.error.message.startsWith('Unknown prompt'))
      reply.error.code = -32601;
    return reply;
  },
});
