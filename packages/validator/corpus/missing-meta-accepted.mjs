// Breaks: server/discover without the required _meta fields is answered instead of rejected with -32602.
// expect: versioning.missing-meta
// requirement: basic-c24c7936
// revisions: 2026-07-28
import { main, tryParse } from './_server.mjs';

main({
  revisions: ['2026-07-28'],
  line(text, state, next) {
    const message = tryParse(text);
    const meta = message?.params?._meta;
    const complete =
      meta &&
      'io.modelcontextprotocol/protocolVersion' in meta &&
      'io.modelcontextprotocol/clientCapabilities' in meta;
    if (message?.method === 'server/discover' && !complete) {
      state.send({
        jsonrpc: '2.0',
        id: message.id,
        result: {
          supportedVersions: ['2026-07-28'],
          capabilities: {},
          resultType: 'complete',
          ttlMs: 0,
          cacheScope: 'public',
        },
      });
      return;
    }
    next();
  },
});
