// Breaks: the server prints a human banner on stdout, which must carry only MCP messages.
// expect: stdio.stdout-messages-only
// requirement: stdio-4974a2b8
import { main } from './_server.mjs';

process.stdout.write('corpus server ready\n');
main();
