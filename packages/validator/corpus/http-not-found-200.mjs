// Breaks: in 2026-07-28 an unknown method is answered with HTTP 200 instead of 404 (with -32601).
// expect: http.error-status
// requirement: streamable-http-385e1c48
// transport: http
// revisions: 2026-07-28
import { main } from './_server.mjs';

main({
  revisions: ['2026-07-28'],
  http(_req, res, _body, next) {
    const writeHead = res.writeHead.bind(res);
    res.writeHead = (status, headers) => writeHead(status === 404 ? 200 : status, headers);
    next();
  },
});
