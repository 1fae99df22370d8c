/**
 * @mcpengine/redis — scale-out on Redis: several processes serve one logical MCP server behind a plain load
 * balancer, sticky or not. It implements the engine's seams (`SharedState` of `mcpengine/http`, `TaskStore` of
 * `mcpengine/server`) with ioredis; the engine itself keeps zero runtime dependencies.
 *
 *   await serveHttpOnRedis((extra) => new McpServer({ name, version, ...extra }), {
 *     redis: 'redis://127.0.0.1:6379/0',
 *     idleTimeoutMs: 600_000,
 *   });
 *
 * or, piece by piece:
 *
 *   const redis = await createRedisScaleOut({ url: 'redis://127.0.0.1:6379/0', idleTimeoutMs: 600_000 });
 *   const server = new McpServer({ …, tasks: { store: redis.tasks } });
 *   await serveHttp(server, { shared: redis.shared, sessions: { idleTimeoutMs: 600_000 } });
 *
 * See docs/scale-out.md: what lives in Redis, keys and TTLs, sizing, failure behaviour.
 */
import { Redis } from 'ioredis';
import { serveHttp, type HttpServing, type ServeHttpOptions, type SharedState } from 'mcpengine/http';
import type { McpServer, TaskStore } from 'mcpengine/server';
import { RedisBus } from './bus.js';
import { RedisEventStore, type RedisEventStoreOptions } from './events.js';
import { RedisSessionStore } from './sessions.js';
import { RedisTaskStore, type RedisTaskStoreOptions } from './tasks.js';

export { RedisBus } from './bus.js';
export { RedisEventStore, type RedisEventStoreOptions } from './events.js';
export { RedisSessionStore } from './sessions.js';
export { RedisTaskStore, type RedisTaskStoreOptions } from './tasks.js';

export interface RedisScaleOutOptions {
  /** `redis://[user:password@]host:port/db` (or `rediss://`). Default `redis://127.0.0.1:6379/0`. */
  url?: string;
  /** Prefix of every key and channel, so that several servers (or tests) can share one database. Default `mcpengine:`. */
  prefix?: string;
  /**
   * The legacy sessions' idle timeout (pass the same `sessions.idleTimeoutMs` to `serveHttp`). A session's
   * events never outlive it: their age bound is capped by it. Default 10 minutes.
   */
  idleTimeoutMs?: number;
  /** Bounds of the resumable event streams, per session. */
  events?: RedisEventStoreOptions;
  tasks?: RedisTaskStoreOptions;
  /** Time allowed to connect at start. Default 5 s. */
  connectTimeoutMs?: number;
  /** Receives errors of background writes (events, bus). Default: printed to stderr. */
  onError?: (error: unknown, where: string) => void;
}

export interface RedisScaleOut {
  /** For `serveHttp`/`createMcpHttpHandler`: `{ shared }`. */
  readonly shared: SharedState;
  /** For `new McpServer({ tasks: { store } })`. */
  readonly tasks: RedisTaskStore;
  readonly sessions: RedisSessionStore;
  readonly events: RedisEventStore;
  readonly bus: RedisBus;
  /** The key prefix in use. */
  readonly prefix: string;
  /** Redis commands this process has sent (pipelined ones counted one by one), for metrics and benchmarks. */
  commands(): number;
  /** Closes both connections. */
  close(): Promise<void>;
}

/**
 * Connects to Redis (two connections: commands, and a subscriber for the bus) and makes the shared state.
 * Rejects when Redis cannot be reached at start. Afterwards, while Redis is unreachable, commands fail at once
 * (requests needing Redis answer 503) and the client reconnects by itself.
 */
export async function createRedisScaleOut(options: RedisScaleOutOptions = {}): Promise<RedisScaleOut> {
  const url = options.url ?? 'redis://127.0.0.1:6379/0';
  const prefix = options.prefix ?? 'mcpengine:';
  const idleTimeoutMs = options.idleTimeoutMs ?? 10 * 60_000;
  const report =
    options.onError ??
    ((error: unknown, where: string) => {
      process.stderr.write(
        `@mcpengine/redis ${where}: ${error instanceof Error ? error.message : String(error)}\n`,
      );
    });
  let commands = 0;
  const connect = async (): Promise<Redis> => {
    const redis = new Redis(url, {
      lazyConnect: true,
      // Fail fast while Redis is away (the node answers 503) instead of queueing requests without bound.
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      connectTimeout: options.connectTimeoutMs ?? 5_000,
      retryStrategy: (times) => Math.min(50 * times, 1_000),
    });
    // Connection errors are retried by ioredis; without a listener they would be printed as unhandled.
    redis.on('error', () => {});
    const send = redis.sendCommand.bind(redis);
    redis.sendCommand = ((...args: Parameters<Redis['sendCommand']>) => {
      commands++;
      return send(...args);
    }) as Redis['sendCommand'];
    try {
      await redis.connect();
    } catch (error) {
      redis.disconnect();
      throw new Error(`Cannot connect to Redis at ${redactUrl(url)}: ${(error as Error).message}`, {
        cause: error,
      });
    }
    return redis;
  };
  const redis = await connect();
  let subscriber: Redis;
  try {
    // GETEX needs Redis 6.2, PEXPIRE NX/GT 7.0.
    const version = /redis_version:(\d+)\./.exec(await redis.info('server'))?.[1];
    if (version !== undefined && Number(version) < 7) {
      throw new Error(`@mcpengine/redis needs Redis 7.0 or later (found ${version}.x)`);
    }
    subscriber = await connect();
  } catch (error) {
    redis.disconnect();
    throw error;
  }
  const events = new RedisEventStore(redis, prefix, (error) => report(error, 'event store'), {
    ...options.events,
    maxAgeMs: Math.min(options.events?.maxAgeMs ?? 5 * 60_000, idleTimeoutMs),
  });
  const sessions = new RedisSessionStore(redis, prefix);
  const bus = new RedisBus(redis, subscriber, prefix, (error) => report(error, 'bus'));
  const tasks = new RedisTaskStore(redis, prefix, options.tasks);
  return {
    shared: { sessions, bus, events },
    tasks,
    sessions,
    events,
    bus,
    prefix,
    commands: () => commands,
    async close() {
      await events.flush();
      await Promise.allSettled([redis.quit(), subscriber.quit()]);
    },
  };
}

/** The URL without its password, for messages. */
function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(invalid URL)';
  }
}

export interface ServeHttpOnRedisOptions extends ServeHttpOptions {
  /** The Redis URL, or every option of `createRedisScaleOut`. */
  redis: string | RedisScaleOutOptions;
  /** The legacy sessions' idle timeout (the TTL of their keys). Default 10 minutes. */
  idleTimeoutMs?: number;
}

/**
 * `serveHttp` as one node of a scaled-out server: connects to Redis, makes the server with the shared task
 * store (`create` receives the `tasks` option to pass to `new McpServer`), and serves it with the shared
 * sessions, events and bus. Closing the handle closes the server, then the Redis connections.
 *
 *   await serveHttpOnRedis((extra) => new McpServer({ name, version, ...extra }), {
 *     redis: 'redis://127.0.0.1:6379/0',
 *     idleTimeoutMs: 600_000,
 *     port: 3000,
 *   });
 */
export async function serveHttpOnRedis(
  create: (options: { tasks: { store: TaskStore } }) => McpServer,
  options: ServeHttpOnRedisOptions,
): Promise<HttpServing> {
  const { redis, idleTimeoutMs, ...rest } = options;
  const idle = idleTimeoutMs ?? rest.sessions?.idleTimeoutMs;
  const scaleOut = await createRedisScaleOut({
    ...(typeof redis === 'string' ? { url: redis } : redis),
    ...(idle === undefined ? {} : { idleTimeoutMs: idle }),
  });
  let serving: HttpServing;
  try {
    serving = await serveHttp(create({ tasks: { store: scaleOut.tasks } }), {
      ...rest,
      ...(idle === undefined ? {} : { sessions: { ...rest.sessions, idleTimeoutMs: idle } }),
      shared: scaleOut.shared,
    });
  } catch (error) {
    await scaleOut.close();
    throw error;
  }
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
