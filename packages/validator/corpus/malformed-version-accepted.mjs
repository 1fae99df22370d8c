// Breaks: a numeric protocolVersion in initialize is accepted instead of rejected with -32602.
// expect: lifecycle.version-malformed
// requirement: basic-af3136fb, lifecycle-c7dcdf15
import { main, tryParse } from './_server.mjs';

main({
  line(text, state, next) {
    const message = tryParse(text);
    if (message === undefined || message === null) return next();
    if (message.method === 'initialize' && typeof message.params?.protocolVersion === 'number') {
      state.send({
        jsonrpc: '2.0',
        id: message.id,
        result: {
          protocolVersion: '2025-11-25',
          capabilities: {},
          serverInfo: { name: 'corpus', version: '1' },
        },
      });
      return;
    }
    next();
  },
});
