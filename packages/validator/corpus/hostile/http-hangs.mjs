// Hostile (HTTP): accepts connections and requests, and never answers any.
import { createServer } from 'node:http';

const at = process.argv.indexOf('--port');
const port = at === -1 ? 0 : Number(process.argv[at + 1]);
const server = createServer(() => {});
server.listen(port, '127.0.0.1', () =>
  process.stderr.write(`hostile server on http://127.0.0.1:${server.address().port}/mcp\n`),
);
