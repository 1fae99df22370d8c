/**
 * The everything server over HTTP: Streamable HTTP (both eras) at `/mcp` and the 2024-11-05 HTTP+SSE transport
 * at `/sse`, on loopback by default.
 */
import { serveHttp, type HttpServing, type ServeHttpOptions } from 'mcpengine/http';
import { createEverythingServer } from './server.js';

export async function serveEverythingHttp(options: ServeHttpOptions = {}): Promise<HttpServing> {
  // The handle owns the server: closing it closes the server too.
  return serveHttp(createEverythingServer(), { legacySse: true, ...options });
}
