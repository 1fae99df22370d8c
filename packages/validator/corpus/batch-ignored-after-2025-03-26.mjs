// Correct: in 2025-11-25, which has no batches, a batch gets no answer at all and the server keeps serving.
// No sentence of 2025-06-18 or later says how a batch must be refused (the changelog only removes batching),
// so silence is not a failure; writing an array back would be (docs/validator/interpretations.md, "Batches").
// revisions: 2025-11-25
import { main, tryParse } from './_server.mjs';

main({
  revisions: ['2025-11-25'],
  line(text, _state, next) {
    if (Array.isArray(tryParse(text))) return;
    next();
  },
});
