// Breaks: the parse error carries "id": 0 instead of null.
// expect: jsonrpc.parse-error, jsonrpc.response-ids
// requirement: basic-af3136fb, basic-5ea031ce
import { main } from './_server.mjs';

main({
  line(text, state, next) {
    try {
      JSON.parse(text);
    } catch {
      state.send({ jsonrpc: '2.0', id: 0, error: { code: -32700, message: 'Parse error' } });
      return;
    }
    next();
  },
});
