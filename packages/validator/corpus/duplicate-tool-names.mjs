// Breaks (SHOULD): two tools share a name.
// expect: tools.name-unique
// requirement: tools-a4fe2dbd
import { ECHO_TOOL, main } from './_server.mjs';

main({ tools: [ECHO_TOOL, { ...ECHO_TOOL, annotations: undefined, description: 'Another echo' }] });
