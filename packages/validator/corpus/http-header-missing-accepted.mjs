// Breaks: 2026-07-28 requests missing Mcp-Method or Mcp-Name are accepted (they must get 400 and -32020).
// expect: http.header-missing
// requirement: streamable-http-2d694c93
// transport: http
// revisions: 2026-07-28
import { main, tryParse } from './_server.mjs';

main({
  revisions: ['2026-07-28'],
  http(req, _res, body, next) {
    const message = tryParse(body);
    if (typeof message?.method === 'string' && message?.params?._meta) {
      req.headers['mcp-method'] ??= message.method;
      const name = message.method === 'resources/read' ? message.params.uri : message.params.name;
      if (typeof name === 'string') req.headers['mcp-name'] ??= name;
    }
    next();
  },
});
