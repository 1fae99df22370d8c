// Breaks: in 2026-07-28 a missing resource is answered with empty contents instead of -32602.
// expect: resources.not-found, resources.unknown-uri-rejected, resources.not-found-not-empty
// requirement: resources-03e84011, resources-bd8e5996, resources-a3d63398
// revisions: 2026-07-28
import { main } from './_server.mjs';

main({
  revisions: ['2026-07-28'],
  request(message, _ctx, next) {
    const reply = next();
    if (message.method === 'resources/read' && reply.error) {
      return {
        jsonrpc: '2.0',
        id: message.id,
        result: {
          contents: [],
          resultType: 'complete',
          ttlMs: 0,
          cacheScope: 'private',
          _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'corpus', version: '1' } },
        },
      };
    }
    return reply;
  },
});
