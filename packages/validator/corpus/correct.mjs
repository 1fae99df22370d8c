// The corpus baseline: a correct server. The validator must report no failure and no warning for it.
import { main } from './_server.mjs';

main();
