// Breaks: DELETE answers 200 but the session lives on (requests in it must then get 404).
// expect: http.session-terminated
// requirement: transports-83da75a0
// transport: http
// revisions: 2025-11-25
import { main } from './_server.mjs';

main({
  revisions: ['2025-11-25'],
  http(req, res, _body, next) {
    if (req.method === 'DELETE') {
      res.writeHead(200);
      res.end();
      return;
    }
    next();
  },
});
