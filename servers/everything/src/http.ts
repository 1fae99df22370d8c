/**
 * The everything server over HTTP: Streamable HTTP (both eras) at `/mcp` and the 2024-11-05 HTTP+SSE transport
 * at `/sse`, on loopback by default.
 */
import { serveHttp, type HttpServing, type ServeHttpOptions } from 'mcpengine/http';
import { createEverythingServer } from './server.js';

export async function serveEverythingHttp(options: ServeHttpOptions = {}): Promise<HttpServing> {
  const server = createEverythingServer();
  const serving = await serveHttp(server, { legacySse: true, ...options });
  return {
    ...serving,
    close: async (closeOptions) => {
      await server.close(closeOptions);
      await serving.close(closeOptions);
    },
  };
}
