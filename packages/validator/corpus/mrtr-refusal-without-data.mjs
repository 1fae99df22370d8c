// Breaks: the missing-capability error -32021 comes without data.requiredCapabilities.
// expect: mrtr.missing-capability-error, schema.response
// requirement: basic-6da955e6
// revisions: 2026-07-28
import { CONFIRM_TOOL, confirmTool } from './_mrtr.mjs';
import { ECHO_TOOL, main } from './_server.mjs';

main({ tools: [ECHO_TOOL, CONFIRM_TOOL], callTool: confirmTool({ refusalWithoutData: true }) });
