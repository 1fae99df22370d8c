/** A TCP port for a process that must be told its port in advance. */
import { once } from 'node:events';
import { createServer } from 'node:net';

/** A local port that was free a moment ago. */
export async function freePort(): Promise<number> {
  const probe = createServer();
  probe.listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const { port } = probe.address() as { port: number };
  await new Promise<void>((done) => probe.close(() => done()));
  return port;
}
