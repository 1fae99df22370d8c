// Breaks: a progress notification arrives after the response (progress must stop at completion).
// expect: progress.stops
// requirement: progress-961da396
import { ECHO_TOOL, main } from './_server.mjs';

const WORK = {
  name: 'work',
  description: 'Works in steps',
  inputSchema: { type: 'object', additionalProperties: false },
  annotations: { readOnlyHint: true },
};
main({
  tools: [ECHO_TOOL, WORK],
  request(message, ctx, next) {
    const token = message.params?._meta?.progressToken;
    if (message.method === 'tools/call' && message.params?.name === 'work' && token !== undefined) {
      setTimeout(
        () =>
          ctx.state.send({
            jsonrpc: '2.0',
            method: 'notifications/progress',
            params: { progressToken: token, progress: 100, total: 100 },
          }),
        20,
      );
    }
    if (message.method === 'tools/call' && message.params?.name === 'work') {
      const result = { content: [{ type: 'text', text: 'done' }] };
      return {
        jsonrpc: '2.0',
        id: message.id,
        result: ctx.modern
          ? {
              ...result,
              resultType: 'complete',
              _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'corpus', version: '1' } },
            }
          : result,
      };
    }
    return next();
  },
});
