// Breaks: a request naming an unsupported version in _meta gets -32602 instead of -32022.
// expect: versioning.unsupported-version
// requirement: versioning-0b4bd586
// revisions: 2026-07-28
import { main, tryParse } from './_server.mjs';

main({
  revisions: ['2026-07-28'],
  line(text, state, next) {
    const message = tryParse(text);
    const version = message?.params?._meta?.['io.modelcontextprotocol/protocolVersion'];
    if (typeof version === 'string' && version !== '2026-07-28') {
      state.send({ jsonrpc: '2.0', id: message.id, error: { code: -32602, message: 'Bad version' } });
      return;
    }
    next();
  },
});
