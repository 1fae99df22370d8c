// Breaks: right after notifications/initialized the server sends notifications/tools/list_changed, although its
// tools capability does not declare listChanged ("Both parties MUST: Only use capabilities that were
// successfully negotiated").
// expect: capabilities.undeclared-notifications
// requirement: lifecycle-bac8a584
// revisions: 2025-11-25
import { main, tryParse } from './_server.mjs';

main({
  revisions: ['2025-11-25'],
  line(text, state, next) {
    next();
    if (tryParse(text)?.method === 'notifications/initialized')
      state.send({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' });
  },
});
