// Breaks: an unknown notification gets an error response (notifications are never answered).
// expect: jsonrpc.notification-unanswered
// requirement: basic-5fe9ccb4
import { main, tryParse } from './_server.mjs';

main({
  line(text, state, next) {
    const message = tryParse(text);
    if (message === undefined || message === null) return next();
    if (message.method === 'notifications/validator-unknown') {
      state.send({ jsonrpc: '2.0', id: null, error: { code: -32601, message: 'Unknown notification' } });
      return;
    }
    next();
  },
});
