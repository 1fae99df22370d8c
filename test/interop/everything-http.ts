/**
 * Our everything server over HTTP, as the official SDK clients meet it: the built server run with
 * `--http --port 0` (Streamable HTTP at `/mcp`, the 2024-11-05 HTTP+SSE transport at `/sse`), and a recording
 * `fetch` that the SDK transports are given, so that tests can see the HTTP exchanges under the messages
 * (methods, statuses, session ids) and wait for the standalone GET stream to be open.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { afterAll, beforeAll } from 'vitest';
import { EVERYTHING_MAIN } from './everything-expected.js';

export interface EverythingHttp {
  /** The Streamable HTTP endpoint (both eras). */
  readonly mcpUrl: URL;
  /** The 2024-11-05 HTTP+SSE endpoint. */
  readonly sseUrl: URL;
  /** What the process has written so far (the server prints its URLs on stderr). */
  output(): { stdout: string; stderr: string };
  /** Stops the server process (SIGTERM to its PID) and waits for it to exit. */
  stop(): Promise<void>;
}

/** Starts the built everything server on a free port and resolves once it prints its URLs. */
export async function startEverythingHttp(): Promise<EverythingHttp> {
  const child = spawn(process.execPath, [EVERYTHING_MAIN, '--http', '--port', '0'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  try {
    await new Promise<void>((ready, fail) => {
      child.once('exit', (code) => fail(new Error(`everything server exited with ${code}: ${stderr}`)));
      child.stderr!.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
        if (stderr.includes('HTTP+SSE:')) ready();
      });
    });
  } catch (error) {
    await stop(child);
    throw error;
  }
  const mcp = /Streamable HTTP: (http:\/\/127\.0\.0\.1:\d+\/mcp)\n/.exec(stderr)?.[1];
  const sse = /HTTP\+SSE: +(http:\/\/127\.0\.0\.1:\d+\/sse)\n/.exec(stderr)?.[1];
  if (mcp === undefined || sse === undefined) {
    await stop(child);
    throw new Error(`everything server printed no URLs: ${stderr}`);
  }
  return {
    mcpUrl: new URL(mcp),
    sseUrl: new URL(sse),
    output: () => ({ stdout, stderr }),
    stop: () => stop(child),
  };
}

/**
 * One server for the sessions of a test file: started before its tests, stopped after them. Call at the top
 * level of the file; the returned function gives the running server.
 */
export function sharedEverythingHttp(): () => EverythingHttp {
  let server: EverythingHttp | undefined;
  beforeAll(async () => {
    server = await startEverythingHttp();
  });
  afterAll(async () => {
    await server?.stop();
  });
  return () => {
    if (server === undefined) throw new Error('the shared everything server is not running');
    return server;
  };
}

/** An HTTP transport opened for one session, with its recording `fetch` and how to stop the session's server. */
export interface EverythingHttpSession<T> {
  readonly transport: T;
  readonly http: HttpLog;
  /** Resolves once the server can reach the client outside any request (see the transport profiles). */
  ready?(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * The `open` of an HTTP transport profile: sessions share one server for the file (`sharedEverythingHttp`), and
 * a session that asks for one (`ownServer`) gets a server of its own, stopped with it. `transportTo` makes the
 * SDK transport to a server, given the recording `fetch` it must use. Call at the top level of the file.
 */
export function everythingHttpSessions<T>(
  transportTo: (
    server: EverythingHttp,
    http: HttpLog,
  ) => Pick<EverythingHttpSession<T>, 'transport' | 'ready'>,
): {
  shared: () => EverythingHttp;
  open: (options: { ownServer: boolean }) => Promise<EverythingHttpSession<T>>;
} {
  const shared = sharedEverythingHttp();
  const openOn = (server: EverythingHttp, stop: () => Promise<void>): EverythingHttpSession<T> => {
    const http = new HttpLog();
    return { ...transportTo(server, http), http, stop };
  };
  return {
    shared,
    open: async ({ ownServer }) => {
      if (!ownServer) return openOn(shared(), () => Promise.resolve());
      const server = await startEverythingHttp();
      return openOn(server, () => server.stop());
    },
  };
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  await exited;
}

/** One HTTP exchange as the client saw it. */
export interface HttpExchange {
  readonly method: string;
  /** The path of the URL (`/mcp`, `/sse`, or the HTTP+SSE message endpoint). */
  readonly path: string;
  /** The query of the URL, with its `?` (the HTTP+SSE message endpoint names its session there), or ''. */
  readonly query: string;
  /** The request's headers (the modern era's `Mcp-Method`, `Mcp-Name`, `Mcp-Param-*`…). */
  readonly requestHeaders: Headers;
  /** The request's `Mcp-Session-Id`, if any. */
  readonly sessionId: string | null;
  /** The request's `MCP-Protocol-Version`, if any. */
  readonly protocolVersion: string | null;
  /** The request's `Last-Event-ID`, if any. */
  readonly lastEventId: string | null;
  /** The JSON-RPC method of a POSTed message, if any. */
  readonly rpcMethod: string | undefined;
  readonly status: number;
  /** The response's media type (without parameters), or null. */
  readonly contentType: string | null;
  /** The response's `Mcp-Session-Id`, if any. */
  readonly responseSessionId: string | null;
  /**
   * How the response body finished: `end` when the server ended it, `error` when it broke (the client aborted
   * the request, or the connection failed), `cancel` when the client stopped reading.
   */
  readonly ended: Promise<'end' | 'error' | 'cancel'>;
}

/**
 * A `fetch` that records every exchange (when the response headers arrive) and lets a test wait for one. Bodies
 * pass through unchanged; only their end is observed.
 */
export class HttpLog {
  readonly exchanges: HttpExchange[] = [];
  private waiters: { predicate: () => boolean; resolve: () => void }[] = [];

  readonly fetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    // Read without building a Request, which would take over a streamed body.
    const url = new URL(input instanceof Request ? input.url : input);
    const headers = new Headers(init?.headers ?? (input instanceof Request ? input.headers : undefined));
    const sent = typeof init?.body === 'string' ? init.body : undefined;
    const response = await fetch(input, init);
    const { body, ended } = observeEnd(response.body);
    const exchange: HttpExchange = {
      method: init?.method ?? (input instanceof Request ? input.method : 'GET'),
      path: url.pathname,
      query: url.search,
      requestHeaders: headers,
      sessionId: headers.get('mcp-session-id'),
      protocolVersion: headers.get('mcp-protocol-version'),
      lastEventId: headers.get('last-event-id'),
      rpcMethod: sent === undefined ? undefined : rpcMethodOf(sent),
      status: response.status,
      contentType: response.headers.get('content-type')?.split(';')[0]?.trim() ?? null,
      responseSessionId: response.headers.get('mcp-session-id'),
      ended,
    };
    this.exchanges.push(exchange);
    for (const waiter of this.waiters.filter((w) => w.predicate())) {
      this.waiters.splice(this.waiters.indexOf(waiter), 1);
      waiter.resolve();
    }
    if (body === null) return response;
    return new Response(body, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };

  /**
   * Resolves once `count` recorded exchanges match (already, or from now on). Rejects after `timeoutMs` (a guard
   * against hanging, not a timing assertion).
   */
  seen(predicate: (exchange: HttpExchange) => boolean, count = 1, timeoutMs = 5_000): Promise<void> {
    const enough = () => this.exchanges.filter(predicate).length >= count;
    if (enough()) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const waiter = {
        predicate: enough,
        resolve: () => {
          clearTimeout(timer);
          resolve();
        },
      };
      const timer = setTimeout(() => {
        this.waiters.splice(this.waiters.indexOf(waiter), 1);
        reject(new Error(`fewer than ${count} matching HTTP exchanges within ${timeoutMs} ms`));
      }, timeoutMs);
      this.waiters.push(waiter);
    });
  }

  /** The exchanges that carried a POSTed message with this JSON-RPC method. */
  posted(rpcMethod: string): HttpExchange[] {
    return this.exchanges.filter((e) => e.method === 'POST' && e.rpcMethod === rpcMethod);
  }
}

function rpcMethodOf(body: string): string | undefined {
  try {
    const parsed = JSON.parse(body) as unknown;
    const method = (parsed as { method?: unknown } | null)?.method;
    return typeof method === 'string' ? method : undefined;
  } catch {
    return undefined;
  }
}

/** Passes a response body through, reporting how it finished. */
function observeEnd(source: ReadableStream<Uint8Array> | null): {
  body: ReadableStream<Uint8Array> | null;
  ended: HttpExchange['ended'];
} {
  if (source === null) return { body: null, ended: Promise.resolve('end') };
  let finish!: (how: 'end' | 'error' | 'cancel') => void;
  const ended = new Promise<'end' | 'error' | 'cancel'>((resolve) => (finish = resolve));
  const reader = source.getReader();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) {
          finish('end');
          controller.close();
        } else {
          controller.enqueue(value);
        }
      } catch (error) {
        finish('error');
        controller.error(error);
      }
    },
    cancel(reason) {
      finish('cancel');
      return reader.cancel(reason);
    },
  });
  return { body, ended };
}
