// A correct server with a tool that asks for confirmation through a multi round-trip request (2026-07-28):
// the validator must report no failure and no warning for it.
import { CONFIRM_TOOL, confirmTool } from './_mrtr.mjs';
import { ECHO_TOOL, main } from './_server.mjs';

main({ tools: [ECHO_TOOL, CONFIRM_TOOL], callTool: confirmTool() });
