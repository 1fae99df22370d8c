// Breaks: add declares an outputSchema but returns only text, no structuredContent.
// caught-by: yaml mcp-jest generate
import { correctCall, main } from './_server.mjs';
main({
  callTool(name, args, revision) {
    const result = correctCall(name, args, revision);
    if (name !== 'add' || result.structuredContent === undefined) return result;
    return { content: result.content };
  },
});
