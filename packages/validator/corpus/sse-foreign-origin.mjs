// Breaks: on HTTP+SSE, messages from a foreign Origin are accepted (DNS rebinding protection is missing).
// expect: http.origin
// requirement: transports-c56ce342
// transport: sse
// revisions: 2024-11-05
import { main } from './_server.mjs';

main({
  revisions: ['2024-11-05'],
  http(req, _res, _body, next) {
    delete req.headers.origin;
    next();
  },
});
