// Breaks (SHOULD): after assigning a session, requests without Mcp-Session-Id are still served.
// expect: http.session-required
// requirement: transports-401132bf
// transport: http
// revisions: 2025-11-25
import { main, tryParse } from './_server.mjs';

let last;
main({
  revisions: ['2025-11-25'],
  http(req, res, body, next) {
    const writeHead = res.writeHead.bind(res);
    res.writeHead = (status, headers) => {
      if (headers?.['mcp-session-id']) last = headers['mcp-session-id'];
      return writeHead(status, headers);
    };
    if (
      req.method === 'POST' &&
      req.headers['mcp-session-id'] === undefined &&
      tryParse(body)?.method !== 'initialize' &&
      last
    ) {
      req.headers['mcp-session-id'] = last;
    }
    next();
  },
});
