// Breaks: an elicitation request is sent to a client that declared no elicitation capability.
// expect: mrtr.declared-capabilities
// requirement: mrtr-5c22fb72
// revisions: 2026-07-28
import { CONFIRM_TOOL, confirmTool } from './_mrtr.mjs';
import { ECHO_TOOL, main } from './_server.mjs';

main({ tools: [ECHO_TOOL, CONFIRM_TOOL], callTool: confirmTool({ askUndeclared: true }) });
