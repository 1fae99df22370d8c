// Breaks: serves 2026-07-28 requests (tools/list with the modern _meta is answered as modern) but answers server/discover with method not found; "Servers MUST implement server/discover".
// expect: discover.result
// requirement: versioning-7877d66d
// revisions: 2025-11-25 2026-07-28
import { errorResponse, main } from './_server.mjs';

main({
  request(message, _ctx, next) {
    if (message.method === 'server/discover')
      return errorResponse(message.id, -32601, 'Method not found: server/discover');
    return next();
  },
});
