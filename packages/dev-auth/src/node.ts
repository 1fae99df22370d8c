/**
 * Running the development authorization server on a port. Loopback only unless `allowRemote` says otherwise.
 */
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { toNodeHandler } from 'mcpengine/http';
import { isLoopbackHost } from 'mcpengine/auth';
import { DevAuthorizationServer, type DevAuthServerOptions } from './server.js';

export interface StartDevAuthServerOptions extends Omit<DevAuthServerOptions, 'issuer'> {
  /** Interface to bind. Default 127.0.0.1. */
  host?: string;
  /** Port; 0 picks a free one. Default 0. */
  port?: number;
  /** The issuer identifier. Default `http://<host>:<port>`. */
  issuer?: string;
  /** Allow binding a non-loopback interface. Default false: this server authenticates nobody. */
  allowRemote?: boolean;
}

export interface RunningDevAuthServer {
  readonly issuer: string;
  readonly port: number;
  readonly server: DevAuthorizationServer;
  readonly httpServer: Server;
  close(): Promise<void>;
}

export async function startDevAuthServer(
  options: StartDevAuthServerOptions = {},
): Promise<RunningDevAuthServer> {
  const host = options.host ?? '127.0.0.1';
  if (!options.allowRemote && !isLoopbackHost(host) && host !== '[::1]') {
    throw new Error(
      `The development authorization server binds loopback interfaces only (got ${host}); pass allowRemote to override`,
    );
  }
  const httpServer = createServer({ headersTimeout: 10_000, requestTimeout: 30_000 });
  httpServer.listen(options.port ?? 0, host);
  await once(httpServer, 'listening');
  const { port } = httpServer.address() as AddressInfo;
  const literal = host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
  const issuer = options.issuer ?? `http://${literal}:${port}`;
  let server: DevAuthorizationServer;
  try {
    server = new DevAuthorizationServer({ ...options, issuer });
  } catch (error) {
    httpServer.close();
    throw error;
  }
  httpServer.on('request', toNodeHandler(server.handle));
  return {
    issuer,
    port,
    server,
    httpServer,
    close: async () => {
      const closed = new Promise<void>((resolve) => httpServer.close(() => resolve()));
      httpServer.closeAllConnections();
      await closed;
    },
  };
}
