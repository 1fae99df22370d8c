// Breaks: requests from a foreign Origin are served (DNS rebinding protection is missing).
// expect: http.origin
// requirement: streamable-http-18a3f30d
// transport: http
import { main } from './_server.mjs';

main({
  http(req, _res, _body, next) {
    delete req.headers.origin;
    next();
  },
});
