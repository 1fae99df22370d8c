// Breaks: requests sent before initialize (other than ping) never get an answer.
// expect: lifecycle.request-before-initialize
// requirement: lifecycle-83987be4
// revisions: 2025-11-25
import { main, tryParse } from './_server.mjs';

main({
  revisions: ['2025-11-25'],
  line(text, state, next) {
    const message = tryParse(text);
    if (message === undefined || message === null) return next();
    if (
      state.revision === undefined &&
      'id' in message &&
      message.method !== 'initialize' &&
      message.method !== 'ping' &&
      !message.params?._meta
    )
      return;
    next();
  },
});
