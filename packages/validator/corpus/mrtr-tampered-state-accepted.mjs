// Breaks: a tampered requestState is accepted (the server must verify its integrity and reject it).
// expect: mrtr.tampered-state
// requirement: mrtr-e27c943d
// revisions: 2026-07-28
import { CONFIRM_TOOL, confirmTool } from './_mrtr.mjs';
import { ECHO_TOOL, main } from './_server.mjs';

main({ tools: [ECHO_TOOL, CONFIRM_TOOL], callTool: confirmTool({ acceptTamperedState: true }) });
