/**
 * The everything server over HTTP: Streamable HTTP (both eras) at `/mcp` and the 2024-11-05 HTTP+SSE transport
 * at `/sse`, on loopback by default. With `redis`, one node of a scaled-out server (docs/scale-out.md).
 */
import { serveHttpOnRedis } from '@mcpengine/redis';
import { serveHttp, type HttpServing, type ServeHttpOptions } from 'mcpengine/http';
import { createEverythingServer } from './server.js';

export interface EverythingHttpOptions extends ServeHttpOptions {
  /** Scale-out on Redis: sessions, resumable streams, tasks and server→client traffic shared through it. */
  redis?: { url: string; prefix?: string | undefined };
}

export async function serveEverythingHttp(options: EverythingHttpOptions = {}): Promise<HttpServing> {
  const { redis, ...rest } = options;
  // The handle owns the server: closing it closes the server too. HTTP+SSE (2024-11-05) sessions are bound to
  // their one GET connection: with Redis they stay in process (route /sse and /messages stickily).
  if (!redis) return serveHttp(createEverythingServer(), { legacySse: true, ...rest });
  return serveHttpOnRedis(createEverythingServer, {
    legacySse: true,
    ...rest,
    redis: { url: redis.url, ...(redis.prefix === undefined ? {} : { prefix: redis.prefix }) },
  });
}
