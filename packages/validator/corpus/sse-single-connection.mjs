// Breaks: an HTTP+SSE server that serves one stream at a time: while one is open, GET /sse is answered 500 "Already connected to a transport" (the validator, like several clients, opens more than one).
// expect: transport.connections
// requirement: transports-d0368289
// verdict: fail
// transport: sse
// revisions: 2024-11-05
import { main } from './_server.mjs';

let open = 0;

main({
  revisions: ['2024-11-05'],
  http(req, res, _body, next) {
    if (req.method !== 'GET' || !req.url?.startsWith('/sse')) return next();
    if (open > 0) {
      res.writeHead(500, { 'content-type': 'text/plain' });
      return res.end('Already connected to a transport');
    }
    open++;
    res.once('close', () => open--);
    return next();
  },
});
