// Breaks (SHOULD): the server keeps running after its standard input is closed.
// expect: stdio.exit-on-stdin-close
// requirement: stdio-e7db0013
import { main } from './_server.mjs';

setInterval(() => {}, 1000);
main({ onEnd() {} });
