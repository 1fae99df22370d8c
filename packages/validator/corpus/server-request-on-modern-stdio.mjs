// Breaks: in 2026-07-28 the server writes a JSON-RPC request (elicitation) to stdout instead of using MRTR.
// expect: lifecycle.negotiated-capabilities, schema.server-request, stdio.no-server-requests
// requirement: stdio-30f3e228, patterns-29260da0
// revisions: 2026-07-28
import { main } from './_server.mjs';

main({
  revisions: ['2026-07-28'],
  request(message, ctx, next) {
    if (message.method === 'tools/call') {
      ctx.state.send({
        jsonrpc: '2.0',
        id: 'ask-1',
        method: 'elicitation/create',
        params: {
          message: 'Name?',
          requestedSchema: { type: 'object', properties: { name: { type: 'string' } } },
        },
      });
    }
    return next();
  },
});
