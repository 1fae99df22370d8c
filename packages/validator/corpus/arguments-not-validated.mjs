// Breaks: the tool runs with arguments its input schema rejects.
// expect: tools.arguments-validated, tools.invalid-arguments
// requirement: basic-3f22dc1d, tools-d-input-validation-tool-error
import { main, resultResponse } from './_server.mjs';

main({
  callTool(_name, args, ctx, id) {
    return resultResponse(id, { content: [{ type: 'text', text: String(args.text) }] }, ctx);
  },
});
