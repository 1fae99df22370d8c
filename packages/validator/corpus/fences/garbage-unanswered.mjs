// Never answers garbage input over HTTP (invalid JSON, invalid request objects), and keeps serving everything
// else correctly. Streamable HTTP (--http): such a POST gets a 200 event stream that stays open and silent until
// the client goes. HTTP+SSE (--sse): such a POST gets 202 and nothing ever comes on the event stream.
// Not a corpus entry (corpus/*.mjs): src/fences.test.ts uses it to show that the HTTP fences end those waits.
import { main } from '../_server.mjs';

/** Garbage: not JSON, or not a request object (a non-string method, jsonrpc other than "2.0"). */
function garbage(body) {
  let parsed;
  try {
    parsed = JSON.parse(body);
  } catch {
    return true;
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return false;
  return parsed.jsonrpc !== '2.0' || ('method' in parsed && typeof parsed.method !== 'string');
}

main({
  http(req, res, body, next) {
    if (req.method !== 'POST' || !garbage(body)) return next();
    if (new URL(req.url ?? '/', 'http://127.0.0.1').pathname === '/messages') {
      res.writeHead(202, { 'content-type': 'text/plain' });
      return res.end('Accepted');
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    res.flushHeaders();
    // Silent until the client closes the stream.
  },
});
