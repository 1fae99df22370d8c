// Breaks: prompts/list works although the prompts capability is not advertised.
// expect: capabilities.gating
// requirement: prompts-7ae307a3, lifecycle-17aff2e1
import { main } from './_server.mjs';

main({
  capabilities: { tools: {}, resources: { subscribe: true }, logging: {}, completions: {} },
  request(message, ctx, next) {
    if (message.method === 'prompts/list') {
      const result = { prompts: [] };
      return {
        jsonrpc: '2.0',
        id: message.id,
        result: ctx.modern
          ? {
              ...result,
              resultType: 'complete',
              ttlMs: 0,
              cacheScope: 'public',
              _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'corpus', version: '1' } },
            }
          : result,
      };
    }
    return next();
  },
});
