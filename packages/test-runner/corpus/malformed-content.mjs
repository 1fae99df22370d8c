// Breaks: echo returns a text content block without its text (not a valid ContentBlock).
// caught-by: yaml mcp-jest generate
import { main } from './_server.mjs';
main({
  callTool(name, args) {
    if (name !== 'echo' || typeof args.text !== 'string') return undefined;
    return { content: [{ type: 'text', value: args.text }] };
  },
});
