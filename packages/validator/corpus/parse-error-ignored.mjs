// Breaks: invalid JSON gets no answer (JSON-RPC requires -32700 with "id": null).
// expect: jsonrpc.parse-error
// requirement: basic-af3136fb
import { main } from './_server.mjs';

main({
  line(text, _state, next) {
    try {
      JSON.parse(text);
    } catch {
      return;
    }
    next();
  },
});
