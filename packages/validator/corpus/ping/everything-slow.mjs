// Answers everything 400 ms late, pings no later than the rest: what a loaded machine looks like from outside.
// Not a corpus entry (corpus/*.mjs): src/ping-bound.test.ts runs it with a small --ping-bound.
import { main } from '../_server.mjs';

main({
  revisions: ['2025-11-25'],
  line(_text, _state, next) {
    setTimeout(next, 400);
  },
});
