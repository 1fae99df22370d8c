// Breaks: the server dies on invalid JSON instead of answering -32700 and carrying on.
// expect: jsonrpc.parse-error, jsonrpc.recovers
// requirement: basic-af3136fb
import { main } from './_server.mjs';

main({
  line(text, _state, next) {
    JSON.parse(text); // throws on garbage: the process exits
    next();
  },
});
