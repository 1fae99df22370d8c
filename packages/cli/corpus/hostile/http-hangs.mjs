// Hostile (HTTP): accepts connections and requests, and never answers any.
import { createServer } from 'node:http';

const port = Number(process.argv[process.argv.indexOf('--port') + 1]);
const server = createServer(() => {});
server.listen(port, '127.0.0.1', () => process.stderr.write(`hostile server on http://127.0.0.1:${port}/mcp\n`));
