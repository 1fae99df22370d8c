// Breaks (SHOULD): a cancelled request is still answered.
// expect: cancellation.no-response
// requirement: cancellation-da1e48f8
// revisions: 2025-11-25
import { ECHO_TOOL, main, noArgumentTool, progressNotification, resultResponse } from './_server.mjs';

const SLOW = noArgumentTool('slow', 'Takes a while, reporting progress');
main({
  revisions: ['2025-11-25'],
  tools: [ECHO_TOOL, SLOW],
  request(message, ctx, next) {
    if (message.method !== 'tools/call' || message.params?.name !== 'slow') return next();
    const token = message.params?._meta?.progressToken;
    let step = 0;
    const tick = () => {
      step += 1;
      if (token !== undefined) ctx.state.send(progressNotification(token, step, 3));
      if (step < 3) setTimeout(tick, 400);
      else ctx.state.send(resultResponse(message.id, { content: [{ type: 'text', text: 'done' }] }, ctx));
    };
    tick();
    return undefined;
  },
});
