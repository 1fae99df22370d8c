// Breaks: echo returns the right text but flags it isError: true (mcp-jest 1.x counted this as a pass).
// caught-by: yaml mcp-jest
import { correctCall, main } from './_server.mjs';
main({
  callTool(name, args, revision) {
    if (name !== 'echo') return undefined;
    const result = correctCall(name, args, revision);
    return result.error === undefined ? { ...result, isError: true } : result;
  },
});
