// Breaks: image content whose data is not base64.
// expect: content.base64, schema.response
// requirement: prompts-4d05d331
import { ECHO_TOOL, main } from './_server.mjs';

const PICTURE = {
  name: 'picture',
  description: 'Returns a picture',
  inputSchema: { type: 'object', additionalProperties: false },
  annotations: { readOnlyHint: true },
};
main({
  tools: [ECHO_TOOL, PICTURE],
  callTool(name, _args, ctx, id) {
    if (name !== 'picture') return undefined;
    const result = { content: [{ type: 'image', data: 'this is not base64!', mimeType: 'image/png' }] };
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
});
