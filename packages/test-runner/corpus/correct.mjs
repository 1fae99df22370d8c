// Breaks nothing: every mode of mcpengine test passes.
import { main } from './_server.mjs';
main();
