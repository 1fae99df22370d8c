// Breaks: GET on the MCP endpoint answers 200 with JSON (it must open an event stream or answer 405).
// expect: http.get-stream
// requirement: transports-e506fa12
// transport: http
// revisions: 2025-11-25
import { main } from './_server.mjs';

main({
  revisions: ['2025-11-25'],
  http(req, res, _body, next) {
    if (req.method === 'GET') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{}');
      return;
    }
    next();
  },
});
