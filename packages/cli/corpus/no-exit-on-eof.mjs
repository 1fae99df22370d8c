// Breaks (SHOULD): the server keeps running after its standard input is closed.
// expect: stdio.exit-on-stdin-close
import { main } from './_server.mjs';

setInterval(() => {}, 1000);
main({ onEnd() {} });
