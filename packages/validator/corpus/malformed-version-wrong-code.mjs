// Breaks a SHOULD only: a numeric protocolVersion in initialize is rejected, but with -32603 instead of -32602.
// The input is rejected, so "All messages MUST follow the JSON-RPC 2.0 specification" holds; only the code,
// which comes from "Implementations SHOULD be prepared to handle these error cases", differs: a warning.
// expect: lifecycle.version-malformed
// requirement: lifecycle-c7dcdf15
// verdict: pass
import { main, tryParse } from './_server.mjs';

main({
  line(text, state, next) {
    const message = tryParse(text);
    if (message === undefined || message === null) return next();
    if (message.method === 'initialize' && typeof message.params?.protocolVersion === 'number') {
      state.send({ jsonrpc: '2.0', id: message.id, error: { code: -32603, message: 'expected a string' } });
      return;
    }
    next();
  },
});
