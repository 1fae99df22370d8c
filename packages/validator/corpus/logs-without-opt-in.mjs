// Breaks: log notifications for a request that did not ask for any (no logLevel in _meta).
// expect: logging.opt-in, logging.level-threshold
// requirement: schema-0317173a, logging-e6882888
// revisions: 2026-07-28
import { main } from './_server.mjs';

main({
  revisions: ['2026-07-28'],
  request(message, ctx, next) {
    if (message.method === 'tools/call')
      ctx.state.send({
        jsonrpc: '2.0',
        method: 'notifications/message',
        params: { level: 'info', data: 'calling a tool' },
      });
    return next();
  },
});
