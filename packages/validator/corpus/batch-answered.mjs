// Breaks: in 2025-11-25, which has no batches, a batch is answered with an array of responses.
// expect: jsonrpc.batch, stdio.stdout-messages-only
// requirement: basic-af3136fb
// revisions: 2025-11-25
import { main, tryParse } from './_server.mjs';

main({
  revisions: ['2025-11-25'],
  line(text, state, next) {
    const message = tryParse(text);
    if (message === undefined || message === null) return next();
    if (Array.isArray(message)) {
      state.send(message.map((m) => ({ jsonrpc: '2.0', id: m.id, result: {} })));
      return;
    }
    next();
  },
});
