/**
 * The node:http plumbing shared by the HTTP servers under test: listen on an ephemeral loopback port, announce
 * it, and read a request body.
 */
import { createServer, type IncomingMessage, type RequestListener, type Server } from 'node:http';
import { announcePort } from './probe.js';

export function listen(listener: RequestListener): Promise<Server> {
  const server = createServer({ keepAliveTimeout: 60_000 }, listener);
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      if (address === null || typeof address === 'string') throw new Error('no TCP address');
      announcePort(address.port);
      resolve(server);
    });
  });
}

export function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () =>
      resolve(chunks.length === 1 ? chunks[0]!.toString('utf8') : Buffer.concat(chunks).toString('utf8')),
    );
    req.on('error', reject);
  });
}
