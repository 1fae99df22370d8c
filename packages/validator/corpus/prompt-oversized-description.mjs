// Breaks (security lint): a prompt description is far longer than any description needs to be.
// expect: security.oversized-description
// revisions: 2025-11-25
import { PROMPT, main } from './_server.mjs';

main({
  revisions: ['2025-11-25'],
  prompts: [{ ...PROMPT, description: `A greeting. ${'Be very polite. '.repeat(200)}` }],
});
