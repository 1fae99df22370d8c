// Breaks: a tool's inputSchema is not a valid JSON Schema ("type" names no JSON type).
// expect: tools.input-schema
// requirement: tools-8f4e2199
import { ECHO_TOOL, main } from './_server.mjs';

main({
  tools: [
    ECHO_TOOL,
    {
      name: 'broken_schema',
      description: 'Declares an impossible parameter type',
      inputSchema: { type: 'object', properties: { count: { type: 'integr' } } },
    },
  ],
});
