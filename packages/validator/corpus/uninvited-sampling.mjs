// Breaks: the server asks a client that declared no capabilities for sampling.
// expect: lifecycle.negotiated-capabilities
// requirement: lifecycle-bac8a584
// revisions: 2025-11-25
import { main, tryParse } from './_server.mjs';

main({
  revisions: ['2025-11-25'],
  line(text, state, next) {
    const message = tryParse(text);
    if (message === undefined || message === null) return next();
    next();
    if (message.method === 'notifications/initialized') {
      state.send({
        jsonrpc: '2.0',
        id: 'sampling-1',
        method: 'sampling/createMessage',
        params: { messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }], maxTokens: 10 },
      });
    }
  },
});
