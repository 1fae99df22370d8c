// Breaks (SHOULD): a tool name with a space (names should be 1–128 of A–Z a–z 0–9 _ - .).
// expect: tools.name-format
// requirement: tools-d3505de2
import { ECHO_TOOL, main } from './_server.mjs';

main({
  tools: [ECHO_TOOL, { name: 'say hello', description: 'Says hello', inputSchema: { type: 'object' } }],
});
