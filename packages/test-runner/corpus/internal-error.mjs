// Breaks: add fails every valid call with a JSON-RPC internal error (-32603).
// caught-by: yaml mcp-jest generate
import { correctCall, invalidArguments, main } from './_server.mjs';
main({
  callTool(name, args, revision) {
    if (name !== 'add' || invalidArguments(name, args) !== undefined)
      return correctCall(name, args, revision);
    return { error: { code: -32603, message: 'Internal error' } };
  },
});
