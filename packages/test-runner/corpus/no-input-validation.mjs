// Breaks: echo never validates its input; a missing or wrongly typed text is echoed as if it were fine.
// caught-by: generate
import { main } from './_server.mjs';
main({
  callTool(name, args) {
    if (name !== 'echo') return undefined;
    return { content: [{ type: 'text', text: String(args.text) }] };
  },
});
