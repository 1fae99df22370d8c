// Correct: in 2025-03-26 on Streamable HTTP, a batch is answered in one event stream with one event per
// response (the transport allows it: "The server MAY send JSON-RPC requests and notifications before sending
// a JSON-RPC response"; each response may be its own SSE event). The validator must read every event.
// transport: http
// revisions: 2025-03-26
import { main } from './_server.mjs';

main({
  revisions: ['2025-03-26'],
  http(req, res, body, next) {
    let parsed;
    try {
      parsed = JSON.parse(body);
    } catch {
      return next();
    }
    const pings = Array.isArray(parsed) && parsed.length > 0 && parsed.every((m) => m?.method === 'ping');
    if (req.method !== 'POST' || !pings) return next();
    res.writeHead(200, {
      'content-type': 'text/event-stream',
      'mcp-session-id': req.headers['mcp-session-id'] ?? '',
    });
    // One response per event, the second a moment later, so a reader that stops at the first misses it.
    const [first, ...rest] = parsed;
    res.write(`event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', id: first.id, result: {} })}\n\n`);
    setTimeout(() => {
      for (const m of rest)
        res.write(`event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', id: m.id, result: {} })}\n\n`);
      res.end();
    }, 50);
  },
});
