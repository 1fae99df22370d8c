// Breaks: a second in-flight request with the same id is dropped without an answer.
// expect: jsonrpc.duplicate-id
// requirement: basic-af3136fb
import { main, tryParse } from './_server.mjs';

const seen = new Set();
main({
  line(text, _state, next) {
    const message = tryParse(text);
    if (message === undefined || message === null) return next();
    if (message.id === 'same-id') {
      if (seen.has(text)) return;
      seen.add(text);
    }
    next();
  },
});
