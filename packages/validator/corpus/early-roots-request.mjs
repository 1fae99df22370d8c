// Breaks: the server sends roots/list before the initialized notification (and to a client without roots).
// expect: lifecycle.quiet-until-initialized, lifecycle.negotiated-capabilities
// requirement: lifecycle-6af9f99e, lifecycle-bac8a584
// revisions: 2025-11-25
import { main } from './_server.mjs';

main({
  revisions: ['2025-11-25'],
  afterInitialize({ send }) {
    send({ jsonrpc: '2.0', id: 'roots-1', method: 'roots/list' });
  },
});
