// Breaks: prompts/list works although the prompts capability is not advertised.
// expect: capabilities.gating
// requirement: prompts-7ae307a3, lifecycle-17aff2e1
import { main, resultResponse } from './_server.mjs';

main({
  capabilities: { tools: {}, resources: { subscribe: true }, logging: {}, completions: {} },
  request(message, ctx, next) {
    if (message.method !== 'prompts/list') return next();
    return resultResponse(message.id, { prompts: [] }, ctx, true);
  },
});
