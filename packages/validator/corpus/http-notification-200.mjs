// Breaks: a POSTed notification is answered with 200 and a body instead of 202 Accepted.
// expect: http.notification-202
// requirement: streamable-http-1efabe10
// transport: http
import { main, tryParse } from './_server.mjs';

main({
  http(req, res, body, next) {
    const message = tryParse(body);
    if (req.method === 'POST' && message && typeof message.method === 'string' && !('id' in message)) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{}');
      return;
    }
    next();
  },
});
