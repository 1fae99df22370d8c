// Breaks (SHOULD): for an unsupported version, the server offers an older revision than its latest.
// expect: lifecycle.version-latest
// requirement: lifecycle-da6d9ef7
// revisions: 2025-06-18 2025-11-25
import { main, tryParse } from './_server.mjs';

main({
  revisions: ['2025-06-18', '2025-11-25'],
  line(text, state, next) {
    const message = tryParse(text);
    if (message === undefined || message === null) return next();
    if (message.method === 'initialize' && message.params?.protocolVersion === '1999-01-01') {
      state.revision = '2025-06-18';
      state.send({
        jsonrpc: '2.0',
        id: message.id,
        result: {
          protocolVersion: '2025-06-18',
          capabilities: { tools: {} },
          serverInfo: { name: 'corpus', version: '1' },
        },
      });
      return;
    }
    next();
  },
});
