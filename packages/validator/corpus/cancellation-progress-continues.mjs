// Breaks (SHOULD): a cancelled tool sends no response but keeps working and reporting progress at its own slow
// pace (as server-everything's long-running operation does) — the watch must outlast that pace.
// expect: cancellation.no-response
// requirement: cancellation-da1e48f8
// revisions: 2025-11-25
import { ECHO_TOOL, main, noArgumentTool, progressNotification, resultResponse } from './_server.mjs';

const SLOW = noArgumentTool('slow', 'Works in four steps of 1.2 s, reporting progress after each');
const STEP_MS = 1200;
main({
  revisions: ['2025-11-25'],
  tools: [ECHO_TOOL, SLOW],
  request(message, ctx, next) {
    if (message.method !== 'tools/call' || message.params?.name !== 'slow') return next();
    const token = message.params?._meta?.progressToken;
    let step = 0;
    const tick = () => {
      step += 1;
      if (token !== undefined) ctx.state.send(progressNotification(token, step, 4));
      if (step < 4) setTimeout(tick, STEP_MS);
      // The cancellation suppresses the response only, not the work.
      else if (!ctx.state.cancelled.has(message.id))
        ctx.state.send(resultResponse(message.id, { content: [{ type: 'text', text: 'done' }] }, ctx));
    };
    setTimeout(tick, STEP_MS);
    return undefined;
  },
});
