// Holds every ping back 2.5 s and answers everything else at once: not prompt, whatever the machine's load.
// Not a corpus entry (corpus/*.mjs): src/ping-bound.test.ts runs it with a small --ping-bound.
import { main, tryParse } from '../_server.mjs';

main({
  revisions: ['2025-11-25'],
  line(text, _state, next) {
    const message = tryParse(text);
    if (message?.method === 'ping') setTimeout(next, 2500);
    else next();
  },
});
