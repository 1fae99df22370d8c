// A correct server on Streamable HTTP (sessions for 2025-11-25, stateless 2026-07-28, with a multi round-trip
// tool): the validator must report no failure and no warning for it.
// transport: http
import { CONFIRM_TOOL, confirmTool } from './_mrtr.mjs';
import { ECHO_TOOL, main } from './_server.mjs';

main({ tools: [ECHO_TOOL, CONFIRM_TOOL], callTool: confirmTool() });
