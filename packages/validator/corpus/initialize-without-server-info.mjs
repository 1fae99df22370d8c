// Breaks: the initialize result leaves out serverInfo.
// expect: lifecycle.initialize-result, schema.response
// requirement: lifecycle-f65a1a0e
import { main, tryParse } from './_server.mjs';

main({
  line(text, state, next) {
    const message = tryParse(text);
    if (message === undefined || message === null) return next();
    if (message.method !== 'initialize') return next();
    const send = state.send;
    state.send = (reply) => {
      state.send = send;
      if (reply.result) delete reply.result.serverInfo;
      send(reply);
    };
    next();
  },
});
