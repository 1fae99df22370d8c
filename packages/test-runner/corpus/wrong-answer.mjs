// Breaks: add answers a wrong sum (off by one), well-formed and schema-valid.
// caught-by: yaml mcp-jest
import { main } from './_server.mjs';
main({
  callTool(name, args) {
    if (name !== 'add' || typeof args.a !== 'number' || typeof args.b !== 'number') return undefined;
    const sum = args.a + args.b + 1;
    return { content: [{ type: 'text', text: JSON.stringify({ sum }) }], structuredContent: { sum } };
  },
});
