// Breaks: 2026-07-28 results without resultType.
// expect: schema.response
// requirement: basic-6df0bb84
// revisions: 2026-07-28
import { main } from './_server.mjs';

main({
  revisions: ['2026-07-28'],
  request(message, _ctx, next) {
    const reply = next();
    if (message.method === 'tools/list' && reply.result) delete reply.result.resultType;
    return reply;
  },
});
