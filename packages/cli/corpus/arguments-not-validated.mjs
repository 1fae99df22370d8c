// Breaks: the tool runs with arguments its input schema rejects.
// expect: tools.arguments-validated, tools.invalid-arguments
// requirement: basic-3f22dc1d, tools-d-input-validation-tool-error
import { main } from './_server.mjs';

main({
  callTool(_name, args, ctx, id) {
    const result = { content: [{ type: 'text', text: String(args.text) }] };
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
