// Breaks: subscriptions/listen is answered with a result straight away instead of an acknowledgment.
// expect: subscriptions.acknowledged
// requirement: subscriptions-f6df1d05
// revisions: 2026-07-28
import { main, tryParse } from './_server.mjs';

main({
  revisions: ['2026-07-28'],
  line(text, state, next) {
    const message = tryParse(text);
    if (message?.method === 'subscriptions/listen') {
      state.send({ jsonrpc: '2.0', id: message.id, result: { resultType: 'complete' } });
      return;
    }
    next();
  },
});
