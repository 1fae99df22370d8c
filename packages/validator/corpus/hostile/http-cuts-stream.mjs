// Hostile (HTTP): answers every POST with an event stream, writes half an event, then cuts the connection.
import { createServer } from 'node:http';

const at = process.argv.indexOf('--port');
const port = at === -1 ? 0 : Number(process.argv[at + 1]);
const server = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write('event: message\ndata: {"jsonrpc":"2.0","id":');
    setTimeout(() => res.socket?.destroy(), 50);
  });
});
server.listen(port, '127.0.0.1', () =>
  process.stderr.write(`hostile server on http://127.0.0.1:${server.address().port}/mcp\n`),
);
