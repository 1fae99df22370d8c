// Breaks: progress goes down (it must increase with each notification).
// expect: progress.increasing
// requirement: progress-5ea72e10
import { ECHO_TOOL, main, noArgumentTool, progressNotification, resultResponse } from './_server.mjs';

const WORK = noArgumentTool('work', 'Works in steps');
main({
  tools: [ECHO_TOOL, WORK],
  callTool(name, _args, ctx, id) {
    if (name !== 'work') return undefined;
    const token = ctx.state.progressToken;
    if (token !== undefined) {
      ctx.state.send(progressNotification(token, 50, 100));
      ctx.state.send(progressNotification(token, 10, 100));
    }
    return resultResponse(id, { content: [{ type: 'text', text: 'done' }] }, ctx);
  },
  request(message, ctx, next) {
    ctx.state.progressToken = message.params?._meta?.progressToken;
    return next();
  },
});
