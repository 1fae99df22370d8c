// Breaks (SHOULD): a prompt is rendered although its required argument is missing.
// expect: prompts.missing-arguments
// requirement: prompts-ac177b4f
import { main, resultResponse } from './_server.mjs';

main({
  request(message, ctx, next) {
    if (message.method !== 'prompts/get' || message.params?.name !== 'greeting') return next();
    const messages = [{ role: 'user', content: { type: 'text', text: 'Hello!' } }];
    return resultResponse(message.id, { messages }, ctx);
  },
});
