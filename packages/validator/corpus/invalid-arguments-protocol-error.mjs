// Breaks: in 2025-11-25 invalid tool arguments are reported as -32602 instead of an isError tool result.
// expect: tools.invalid-arguments
// requirement: tools-d-input-validation-tool-error
// revisions: 2025-11-25
import { main } from './_server.mjs';

main({
  revisions: ['2025-11-25'],
  callTool(_name, args, _ctx, id) {
    if (typeof args.text !== 'string')
      return { jsonrpc: '2.0', id, error: { code: -32602, message: 'Invalid arguments' } };
    return undefined;
  },
});
