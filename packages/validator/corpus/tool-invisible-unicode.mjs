// Breaks (security lint): a tool description hides text behind zero-width and bidirectional-control characters.
// expect: security.invisible-unicode
// revisions: 2025-11-25
import { ECHO_TOOL, main } from './_server.mjs';

main({
  revisions: ['2025-11-25'],
  tools: [{ ...ECHO_TOOL, description: 'Echoes the text\u200b\u202eyou said\u202c' }],
});
