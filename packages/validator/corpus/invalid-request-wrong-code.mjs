// Breaks: an invalid request object is answered with -32601 instead of -32600.
// expect: jsonrpc.invalid-request
// requirement: basic-af3136fb
import { main, tryParse } from './_server.mjs';

main({
  line(text, state, next) {
    const message = tryParse(text);
    if (message === undefined || message === null) return next();
    if (
      message &&
      typeof message === 'object' &&
      !Array.isArray(message) &&
      'id' in message &&
      (typeof message.method !== 'string' || message.jsonrpc !== '2.0')
    ) {
      state.send({ jsonrpc: '2.0', id: message.id, error: { code: -32601, message: 'Method not found' } });
      return;
    }
    next();
  },
});
