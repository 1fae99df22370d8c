// Breaks: ping is answered with a non-empty result.
// expect: lifecycle.ping, lifecycle.ping-before-initialize
// requirement: ping-18d7f410
// revisions: 2025-11-25
import { main, tryParse } from './_server.mjs';

main({
  revisions: ['2025-11-25'],
  line(text, state, next) {
    const message = tryParse(text);
    if (message === undefined || message === null) return next();
    if (message.method === 'ping' && message.jsonrpc === '2.0') {
      state.send({ jsonrpc: '2.0', id: message.id, result: { pong: true } });
      return;
    }
    next();
  },
});
