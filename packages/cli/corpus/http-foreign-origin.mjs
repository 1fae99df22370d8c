// Breaks: requests from a foreign Origin are served (DNS rebinding protection is missing).
// expect: http.origin
// transport: http
import { main } from './_server.mjs';

main({
  http(req, _res, _body, next) {
    delete req.headers.origin;
    next();
  },
});
