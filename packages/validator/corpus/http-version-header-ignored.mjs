// Breaks: an unsupported MCP-Protocol-Version header is accepted instead of answered with 400.
// expect: http.protocol-version-header
// requirement: transports-3b684cd2
// transport: http
// revisions: 2025-11-25
import { main } from './_server.mjs';

main({
  revisions: ['2025-11-25'],
  http(req, _res, _body, next) {
    if (req.headers['mcp-protocol-version'] === '1999-01-01') delete req.headers['mcp-protocol-version'];
    next();
  },
});
