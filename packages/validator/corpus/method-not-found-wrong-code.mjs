// Breaks: an unknown method is answered with -32603 instead of -32601.
// expect: jsonrpc.method-not-found
// requirement: basic-af3136fb
import { main } from './_server.mjs';

main({
  request(message, _ctx, next) {
    if (message.method === 'validator/no-such-method')
      return { jsonrpc: '2.0', id: message.id, error: { code: -32603, message: 'Internal error' } };
    return next();
  },
});
