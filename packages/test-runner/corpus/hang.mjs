// Breaks: echo never answers (the request is read and forgotten).
// caught-by: yaml mcp-jest generate
import { main } from './_server.mjs';
main({ callTool: (name) => (name === 'echo' ? 'never' : undefined) });
