// Breaks: image content whose data is not base64.
// expect: content.base64, schema.response
// requirement: prompts-4d05d331
import { ECHO_TOOL, main, noArgumentTool, resultResponse } from './_server.mjs';

const PICTURE = noArgumentTool('picture', 'Returns a picture');
main({
  tools: [ECHO_TOOL, PICTURE],
  callTool(name, _args, ctx, id) {
    if (name !== 'picture') return undefined;
    const content = [{ type: 'image', data: 'this is not base64!', mimeType: 'image/png' }];
    return resultResponse(id, { content }, ctx);
  },
});
