// Breaks: 2026-07-28 headers that disagree with the body are accepted (they must get 400 and -32020).
// expect: http.header-mismatch
// requirement: streamable-http-a5b6efee
// transport: http
// revisions: 2026-07-28
import { main, tryParse } from './_server.mjs';

main({
  revisions: ['2026-07-28'],
  http(req, _res, body, next) {
    const message = tryParse(body);
    const version = message?.params?._meta?.['io.modelcontextprotocol/protocolVersion'];
    // Only headers that are present get overwritten with the body's values: missing ones stay missing.
    if (typeof version === 'string' && req.headers['mcp-protocol-version'] !== undefined)
      req.headers['mcp-protocol-version'] = version;
    if (typeof message?.method === 'string' && req.headers['mcp-method'] !== undefined)
      req.headers['mcp-method'] = message.method;
    const name = message?.method === 'resources/read' ? message?.params?.uri : message?.params?.name;
    if (typeof name === 'string' && req.headers['mcp-name'] !== undefined) req.headers['mcp-name'] = name;
    next();
  },
});
