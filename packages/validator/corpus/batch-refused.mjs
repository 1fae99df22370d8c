// Breaks: in 2025-03-26, whose servers must accept batches, a batch is refused.
// expect: jsonrpc.batch
// requirement: basic-b7aeecd3
// revisions: 2025-03-26
import { main } from './_server.mjs';

main({
  revisions: ['2025-03-26'],
  line(text, state, next) {
    if (text.trimStart().startsWith('[')) {
      state.send({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Batches are not supported' } });
      return;
    }
    next();
  },
});
