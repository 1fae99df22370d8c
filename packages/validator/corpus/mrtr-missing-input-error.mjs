// Breaks (SHOULD): a retry without the requested input gets an error instead of a new InputRequiredResult.
// expect: mrtr.missing-responses
// requirement: mrtr-1e977c07
// revisions: 2026-07-28
import { CONFIRM_TOOL, confirmTool } from './_mrtr.mjs';
import { ECHO_TOOL, main } from './_server.mjs';

main({ tools: [ECHO_TOOL, CONFIRM_TOOL], callTool: confirmTool({ errorOnMissing: true }) });
