// Breaks: a request (it has an id) whose method names a notification is ignored instead of answered.
// expect: jsonrpc.notification-with-id
// requirement: basic-af3136fb
import { main, tryParse } from './_server.mjs';

main({
  line(text, _state, next) {
    const message = tryParse(text);
    if (message === undefined || message === null) return next();
    if (typeof message.method === 'string' && message.method.startsWith('notifications/') && 'id' in message)
      return;
    next();
  },
});
