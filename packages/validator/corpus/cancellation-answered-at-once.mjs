// Breaks (SHOULD): a cancelled tool call is answered the moment the cancellation arrives (its result, as if the
// cancellation had asked for it). The answer comes before the ping sent behind the cancellation, like an answer
// that crossed it, so the validator calls the tool again and cancels it at its first progress notification.
// expect: cancellation.no-response
// requirement: cancellation-cfceaa73
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
    let timer;
    const answer = () => {
      clearTimeout(timer);
      ctx.state.inFlight.delete(message.id);
      ctx.state.send(resultResponse(message.id, { content: [{ type: 'text', text: `step ${step}` }] }, ctx));
    };
    // The shared server calls stop() when a notifications/cancelled names this request.
    ctx.state.inFlight.set(message.id, { stop: answer });
    const tick = () => {
      step += 1;
      if (token !== undefined) ctx.state.send(progressNotification(token, step, 4));
      if (step < 4) timer = setTimeout(tick, 400);
      else answer();
    };
    tick();
    return undefined;
  },
});
