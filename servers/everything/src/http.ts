/**
 * The everything server over HTTP: Streamable HTTP (both eras) at `/mcp` and the 2024-11-05 HTTP+SSE transport
 * at `/sse`, on loopback by default. With `redis`, one node of a scaled-out server (docs/scale-out.md).
 */
import { createRedisScaleOut } from '@mcpengine/redis';
import { serveHttp, type HttpServing, type ServeHttpOptions } from 'mcpengine/http';
import { createEverythingServer } from './server.js';

export interface EverythingHttpOptions extends ServeHttpOptions {
  /** Scale-out on Redis: sessions, resumable streams, tasks and server→client traffic shared through it. */
  redis?: { url: string; prefix?: string | undefined };
}

export async function serveEverythingHttp(options: EverythingHttpOptions = {}): Promise<HttpServing> {
  const { redis, ...rest } = options;
  if (!redis) {
    // The handle owns the server: closing it closes the server too.
    return serveHttp(createEverythingServer(), { legacySse: true, ...rest });
  }
  const idleTimeoutMs = rest.sessions?.idleTimeoutMs;
  const scaleOut = await createRedisScaleOut({
    url: redis.url,
    ...(redis.prefix === undefined ? {} : { prefix: redis.prefix }),
    ...(idleTimeoutMs === undefined ? {} : { idleTimeoutMs }),
  });
  let serving: HttpServing;
  try {
    // HTTP+SSE (2024-11-05) sessions are bound to their one GET connection: they stay in process (sticky).
    serving = await serveHttp(createEverythingServer({ tasks: { store: scaleOut.tasks } }), {
      legacySse: true,
      ...rest,
      shared: scaleOut.shared,
    });
  } catch (error) {
    await scaleOut.close();
    throw error;
  }
  // Closing the node closes its Redis connections too, after the last events are written.
  let closing: Promise<void> | undefined;
  const close = (closeOptions?: { drainTimeoutMs?: number }): Promise<void> =>
    (closing ??= (async () => {
      try {
        await serving.close(closeOptions);
      } finally {
        await scaleOut.close();
      }
    })());
  const closed = serving.closed.then(() => close());
  return { ...serving, close, closed };
}
