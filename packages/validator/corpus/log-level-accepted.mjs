// Breaks (SHOULD): logging/setLevel accepts a level the spec does not define.
// expect: logging.invalid-level
// requirement: logging-41a52b05
// revisions: 2025-11-25
import { main } from './_server.mjs';

main({
  revisions: ['2025-11-25'],
  request(message, _ctx, next) {
    if (message.method === 'logging/setLevel') return { jsonrpc: '2.0', id: message.id, result: {} };
    return next();
  },
});
