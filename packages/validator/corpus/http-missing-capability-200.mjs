// Breaks: on Streamable HTTP (2026-07-28) the missing-capability error -32021 comes with HTTP 200, not 400.
// expect: http.error-status
// requirement: basic-d985a761-2
// transport: http
// revisions: 2026-07-28
import { CONFIRM_TOOL, confirmTool } from './_mrtr.mjs';
import { ECHO_TOOL, main } from './_server.mjs';

main({
  tools: [ECHO_TOOL, CONFIRM_TOOL],
  callTool: confirmTool(),
  modernStatus: (code, status) => (code === -32021 ? 200 : status),
});
