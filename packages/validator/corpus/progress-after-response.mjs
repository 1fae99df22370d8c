// Breaks: a progress notification arrives after the response (progress must stop at completion).
// expect: progress.stops
// requirement: progress-961da396
import { ECHO_TOOL, main, noArgumentTool, progressNotification, resultResponse } from './_server.mjs';

const WORK = noArgumentTool('work', 'Works in steps');
main({
  tools: [ECHO_TOOL, WORK],
  request(message, ctx, next) {
    if (message.method !== 'tools/call' || message.params?.name !== 'work') return next();
    const token = message.params?._meta?.progressToken;
    if (token !== undefined) setTimeout(() => ctx.state.send(progressNotification(token, 100, 100)), 20);
    return resultResponse(message.id, { content: [{ type: 'text', text: 'done' }] }, ctx);
  },
});
