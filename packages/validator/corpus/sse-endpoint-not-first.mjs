// Breaks: the HTTP+SSE stream starts with a message event; the endpoint event must come first.
// expect: sse.endpoint-event
// requirement: transports-9ff371ec
// transport: sse
// revisions: 2024-11-05
import { main } from './_server.mjs';

main({
  revisions: ['2024-11-05'],
  sseOpen(event) {
    event(
      'message',
      JSON.stringify({
        jsonrpc: '2.0',
        method: 'notifications/message',
        params: { level: 'info', data: 'hello' },
      }),
    );
  },
});
