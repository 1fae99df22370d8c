// Breaks (SHOULD): results do not identify the server in _meta.
// expect: versioning.server-info
// requirement: basic-8025aac2
// revisions: 2026-07-28
import { main } from './_server.mjs';

main({
  revisions: ['2026-07-28'],
  request(message, _ctx, next) {
    const reply = next();
    if (reply?.result?._meta) delete reply.result._meta;
    return reply;
  },
});
