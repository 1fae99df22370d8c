// A correct server on the 2024-11-05 HTTP+SSE transport: the validator must report no failure and no warning.
// transport: sse
// revisions: 2024-11-05
import { main } from './_server.mjs';

main({ revisions: ['2024-11-05'] });
