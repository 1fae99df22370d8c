// Breaks: progress goes down (it must increase with each notification).
// expect: progress.increasing
// requirement: progress-5ea72e10
import { ECHO_TOOL, main } from './_server.mjs';

const WORK = {
  name: 'work',
  description: 'Works in steps',
  inputSchema: { type: 'object', additionalProperties: false },
  annotations: { readOnlyHint: true },
};
main({
  tools: [ECHO_TOOL, WORK],
  callTool(name, _args, ctx, id) {
    if (name !== 'work') return undefined;
    const token = ctx.state.progressToken;
    if (token !== undefined) {
      ctx.state.send({
        jsonrpc: '2.0',
        method: 'notifications/progress',
        params: { progressToken: token, progress: 50, total: 100 },
      });
      ctx.state.send({
        jsonrpc: '2.0',
        method: 'notifications/progress',
        params: { progressToken: token, progress: 10, total: 100 },
      });
    }
    const result = { content: [{ type: 'text', text: 'done' }] };
    return {
      jsonrpc: '2.0',
      id,
      result: ctx.modern
        ? {
            ...result,
            resultType: 'complete',
            _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'corpus', version: '1' } },
          }
        : result,
    };
  },
  request(message, ctx, next) {
    ctx.state.progressToken = message.params?._meta?.progressToken;
    return next();
  },
});
