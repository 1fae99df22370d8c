// Breaks: an unsupported protocol version in initialize is answered with an error instead of a supported version.
// expect: lifecycle.version-unsupported
// requirement: lifecycle-33d28bb6
import { main, tryParse } from './_server.mjs';

main({
  line(text, state, next) {
    const message = tryParse(text);
    if (message === undefined || message === null) return next();
    if (message.method === 'initialize' && message.params?.protocolVersion === '1999-01-01') {
      state.send({
        jsonrpc: '2.0',
        id: message.id,
        error: { code: -32602, message: 'Unsupported protocol version' },
      });
      return;
    }
    next();
  },
});
