// Breaks: add's structuredContent does not conform to its outputSchema (the sum as a string).
// caught-by: yaml mcp-jest generate
import { correctCall, main } from './_server.mjs';
main({
  callTool(name, args, revision) {
    const result = correctCall(name, args, revision);
    if (name !== 'add' || result.structuredContent === undefined) return result;
    return { ...result, structuredContent: { sum: String(result.structuredContent.sum) } };
  },
});
