// Breaks (SHOULD in 2025-11-25): a missing resource is answered with -32603 instead of -32002.
// expect: resources.not-found
// requirement: resources-2694640d
// revisions: 2025-11-25
import { main } from './_server.mjs';

main({
  revisions: ['2025-11-25'],
  request(message, _ctx, next) {
    const reply = next();
    if (message.method === 'resources/read' && reply.error) reply.error.code = -32603;
    return reply;
  },
});
