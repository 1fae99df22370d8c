// Breaks: the server advertises resources.subscribe, then refuses resources/subscribe.
// expect: resources.subscribe
// requirement: resources-d-resource-subscriptions
// revisions: 2025-11-25
import { main } from './_server.mjs';

main({
  revisions: ['2025-11-25'],
  request(message, _ctx, next) {
    if (message.method === 'resources/subscribe')
      return { jsonrpc: '2.0', id: message.id, error: { code: -32601, message: 'Method not found' } };
    return next();
  },
});
