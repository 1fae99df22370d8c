// Breaks: the greeting prompt returns no messages.
// caught-by: yaml mcp-jest generate
import { main } from './_server.mjs';
main({ getPrompt: () => ({ messages: [] }) });
