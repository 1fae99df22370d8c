// Breaks: the server/discover result carries no ttlMs or cacheScope.
// expect: caching.hints, schema.response
// requirement: caching-f355dd3b
// revisions: 2026-07-28
import { main } from './_server.mjs';

main({
  revisions: ['2026-07-28'],
  request(message, _ctx, next) {
    const reply = next();
    if (message.method === 'server/discover' && reply.result) {
      delete reply.result.ttlMs;
      delete reply.result.cacheScope;
    }
    return reply;
  },
});
