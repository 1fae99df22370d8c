/**
 * The inspector's one door to the engine's client. Everything else in the inspector talks to an `Inspection`
 * (a connected, recorded session) and never imports `mcpengine/client` itself, so that a change of the client
 * API (`client.connect()` returning a `ClientSession`) is adapted here alone.
 *
 * Traffic is recorded by decorating the transport (`recordingTransport`) and, over HTTP, the `fetch` it uses
 * (`recordingFetch`): no client middleware is needed, and what is recorded is exactly what crossed the wire.
 */
import type { Revision } from '@mcpengine/oracle';
import { Client, RemoteError, type ClientHandlers, type ClientSession } from 'mcpengine/client';
import {
  HttpClientTransport,
  HttpError,
  SseClientTransport,
  StreamableHttpClientTransport,
  type FetchLike,
} from 'mcpengine/http';
import { StdioClientTransport } from 'mcpengine/stdio';
import type { Transport } from 'mcpengine';
import { recordingFetch, type HttpObservations } from './http-recorder.js';
import { outputSchemaFindings } from './output-check.js';
import { describeTarget, type Target } from './target.js';
import { recordingTransport, Timeline } from './timeline.js';
import { advertisingUiTransport } from './ui-capability.js';

export type JsonObject = { [key: string]: unknown };

export const INSPECTOR_CLIENT_INFO = { name: 'mcpengine-inspector', version: '0.1.0' } as const;
export const DEFAULT_CONNECT_TIMEOUT_MS = 15_000;
export const DEFAULT_REQUEST_TIMEOUT_MS = 60_000;

/** Answers to the server's own requests; the web UI asks the user, the CLI declares none. */
export interface InspectionHandlers {
  sampling?: (params: JsonObject, signal: AbortSignal) => Promise<JsonObject>;
  elicitation?: (params: JsonObject, signal: AbortSignal) => Promise<JsonObject>;
  roots?: () => Promise<JsonObject[]>;
}

export interface OpenOptions {
  /** `auto` (default): modern first, legacy fallback. Or one revision to speak. */
  readonly revision?: Revision | 'auto';
  readonly handlers?: InspectionHandlers;
  readonly connectTimeoutMs?: number;
  readonly requestTimeoutMs?: number;
  /** Record into this timeline (default: a new one, pinned to `revision` when given). */
  readonly timeline?: Timeline;
  /** The fetch under the recorder (tests; a proxy-aware fetch). */
  readonly fetch?: FetchLike;
  /** Modern era: ask for log messages at this level on every request (legacy: `logging/setLevel`). */
  readonly logLevel?: string;
  /** Called once when the connection ends, whoever ended it (the server hung up, crashed, or `close()`). */
  readonly onClose?: (error?: Error) => void;
}

/** Why a session could not start. `auth`: the server answered 401/403; `unreachable`: anything else. */
export class ConnectFailure extends Error {
  override readonly name = 'ConnectFailure';
  readonly reason: 'auth' | 'unreachable';
  readonly status: number | undefined;
  constructor(reason: 'auth' | 'unreachable', message: string, status?: number) {
    super(message);
    this.reason = reason;
    this.status = status;
  }
}

/** The server answered a request with a JSON-RPC error. */
export interface ServerErrorLike {
  readonly code: number;
  readonly message: string;
  readonly data?: unknown;
}

export function serverErrorOf(error: unknown): ServerErrorLike | undefined {
  return error instanceof RemoteError
    ? { code: error.code, message: error.message, ...(error.data === undefined ? {} : { data: error.data }) }
    : undefined;
}

export interface RequestCallOptions {
  readonly signal?: AbortSignal;
  readonly onProgress?: (progress: { progress: number; total?: number; message?: string }) => void;
  readonly timeoutMs?: number;
}

/** A connected, recorded session with one server. */
export class Inspection {
  readonly target: Target;
  readonly timeline: Timeline;
  readonly #client: ClientSession;
  readonly #requestTimeoutMs: number;
  /** The tools of the latest `tools/list`, by name (for output checks). */
  readonly #tools = new Map<string, JsonObject>();
  #closed = false;

  constructor(target: Target, client: ClientSession, timeline: Timeline, requestTimeoutMs: number) {
    this.target = target;
    this.#client = client;
    this.timeline = timeline;
    this.#requestTimeoutMs = requestTimeoutMs;
  }

  get revision(): Revision {
    return this.#client.revision;
  }

  get era(): 'legacy' | 'modern' {
    return this.#client.era;
  }

  /** What the server told about itself: info, capabilities, instructions, the revisions it lists. */
  get server(): {
    info: JsonObject | undefined;
    capabilities: JsonObject;
    instructions: string | undefined;
    supportedVersions: string[];
  } {
    return {
      info: this.#client.serverInfo as JsonObject | undefined,
      capabilities: this.#client.serverCapabilities as JsonObject,
      instructions: this.#client.instructions,
      supportedVersions: [...this.#client.supportedVersions],
    };
  }

  /** Any request, by method name; `tools/call` answers that are tasks come back as they are. */
  async request(
    method: string,
    params: JsonObject = {},
    options: RequestCallOptions = {},
  ): Promise<JsonObject> {
    const result = (await this.#client.request(method, params as never, {
      timeoutMs: options.timeoutMs ?? this.#requestTimeoutMs,
      cache: false,
      acceptTask: true,
      ...(options.signal === undefined ? {} : { signal: options.signal }),
      ...(options.onProgress === undefined ? {} : { onProgress: options.onProgress }),
    })) as JsonObject;
    if (method === 'tools/list' && Array.isArray(result['tools']))
      for (const tool of result['tools'] as JsonObject[])
        if (typeof tool?.['name'] === 'string') this.#tools.set(tool['name'], tool);
    return result;
  }

  /**
   * Problems of a tool result against the tool's `outputSchema`; the tools are listed first when this session
   * has not listed them yet.
   */
  async outputFindings(name: string, result: JsonObject): Promise<string[]> {
    if (this.#tools.size === 0) await this.listAll('tools/list', 'tools').catch(() => undefined);
    return outputSchemaFindings(this.#tools.get(name), result);
  }

  /** Every item of a paginated list (`tools/list` → `tools`), following `nextCursor`. */
  async listAll(method: string, key: string, options: RequestCallOptions = {}): Promise<JsonObject> {
    const items: unknown[] = [];
    let cursor: string | undefined;
    let last: JsonObject = {};
    for (let page = 0; page < 1_000; page++) {
      last = await this.request(method, cursor === undefined ? {} : { cursor }, options);
      const found = last[key];
      if (Array.isArray(found)) items.push(...(found as unknown[]));
      cursor = typeof last['nextCursor'] === 'string' ? last['nextCursor'] : undefined;
      if (cursor === undefined) break;
    }
    const { nextCursor: _ignored, ...rest } = last;
    return { ...rest, [key]: items };
  }

  /**
   * Calls a tool. With `asTask`, the call asks for a task (2025-11-25 `params.task`; modern: the server decides)
   * and a task answer is returned as is; otherwise a task is awaited to its final result.
   */
  async callTool(
    name: string,
    args: JsonObject,
    options: RequestCallOptions & { asTask?: boolean } = {},
  ): Promise<JsonObject> {
    const timing = {
      timeoutMs: options.timeoutMs ?? this.#requestTimeoutMs,
      cache: false,
      ...(options.signal === undefined ? {} : { signal: options.signal }),
      ...(options.onProgress === undefined ? {} : { onProgress: options.onProgress }),
    };
    if (options.asTask) {
      const params: JsonObject = { name, arguments: args };
      if (this.era === 'legacy') params['task'] = {};
      return this.#client.request('tools/call', params as never, {
        ...timing,
        acceptTask: true,
      }) as Promise<JsonObject>;
    }
    return this.#client.callTool({ name, arguments: args as never }, timing) as Promise<JsonObject>;
  }

  /** Waits for a task's final tool result, in either era's dialect (polling as the server suggests). */
  async awaitTask(taskId: string, options: { signal?: AbortSignal } = {}): Promise<JsonObject> {
    return (await this.#client.tasks.result(
      taskId,
      undefined,
      options.signal === undefined ? {} : { signal: options.signal },
    )) as unknown as JsonObject;
  }

  /**
   * Modern era: opens a `subscriptions/listen` stream for `filter`; its notifications are recorded in the
   * timeline like any other message. Resolves with what the server acknowledged.
   */
  listen(filter: JsonObject): { acknowledged: Promise<JsonObject>; ended: Promise<void>; close(): void } {
    const subscription = this.#client.listen(filter as never, () => {});
    return {
      acknowledged: subscription.acknowledged as Promise<JsonObject>,
      ended: subscription.ended,
      close: () => subscription.close(),
    };
  }

  /** Sends a notification (e.g. `notifications/roots/list_changed`). */
  notify(method: string, params?: JsonObject): void {
    this.#client.notify(method, params as never);
  }

  onNotification(method: string, handler: (params: JsonObject) => void): () => void {
    return this.#client.onNotification(method, handler as never);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#client.close().catch(() => {});
    this.timeline.note('event', 'closed');
  }
}

/** Connects to `target`, recording everything from the first byte. */
export async function openInspection(target: Target, options: OpenOptions = {}): Promise<Inspection> {
  const revision = options.revision ?? 'auto';
  const timeline = options.timeline ?? new Timeline(revision === 'auto' ? {} : { revision });
  const observations: HttpObservations = {};
  const transport = makeTransport(target, timeline, observations, options.fetch);
  const requestTimeoutMs = options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  const client = new Client({
    ...INSPECTOR_CLIENT_INFO,
    title: 'MCPEngine Inspector',
    handlers: clientHandlers(options.handlers ?? {}),
    requestTimeoutMs,
    tasks: {},
    ...(options.logLevel === undefined ? {} : { logLevel: options.logLevel as never }),
  });
  const connectTimeoutMs = options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
  timeline.note('event', `connecting to ${JSON.stringify(describeTarget(target))}`);
  let timer: ReturnType<typeof setTimeout> | undefined;
  let session: ClientSession;
  try {
    session = await Promise.race([
      client.connect(advertisingUiTransport(recordingTransport(transport, timeline, options.onClose)), {
        revision,
        probeTimeoutMs: Math.min(5_000, connectTimeoutMs),
      }),
      new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new Error(`no answer to the handshake within ${connectTimeoutMs} ms`)),
          connectTimeoutMs,
        );
      }),
    ]);
  } catch (error) {
    // A failed connect() closes the transport it was given; closing again is harmless.
    await transport.close().catch(() => {});
    const failure = classifyConnectError(error, observations);
    timeline.note('event', `connection failed: ${failure.message}`);
    throw failure;
  } finally {
    clearTimeout(timer);
  }
  timeline.note('event', `connected at ${session.revision} (${session.era} era)`);
  return new Inspection(target, session, timeline, requestTimeoutMs);
}

/** The HTTP 401 or 403 somewhere in an error's causes (the server refused the credentials, or wants more). */
export function authStatusOf(error: unknown): number | undefined {
  for (let cause: unknown = error; cause instanceof Error; cause = cause.cause)
    if (cause instanceof HttpError && (cause.status === 401 || cause.status === 403)) return cause.status;
  return undefined;
}

function classifyConnectError(error: unknown, observations: HttpObservations): ConnectFailure {
  const message = error instanceof Error ? error.message : String(error);
  const status = observations.authStatus ?? authStatusOf(error);
  if (status !== undefined)
    return new ConnectFailure(
      'auth',
      `the server requires authorization (HTTP ${status}): ${message}`,
      status,
    );
  return new ConnectFailure('unreachable', `cannot connect to the server: ${message}`);
}

function makeTransport(
  target: Target,
  timeline: Timeline,
  observations: HttpObservations,
  fetchBase: FetchLike | undefined,
): Transport {
  if (target.kind === 'stdio')
    return new StdioClientTransport({
      command: target.command,
      args: target.args,
      ...(target.env === undefined ? {} : { env: target.env }),
      ...(target.cwd === undefined ? {} : { cwd: target.cwd }),
      // Never inherited: stdout of the inspector carries only its own output.
      stderr: 'pipe',
      onStderr: (chunk) => timeline.note('stderr', chunk),
    });
  const http = {
    fetch: recordingFetch(timeline, observations, fetchBase),
    ...(target.headers === undefined ? {} : { headers: { ...target.headers } }),
    logger: { warn: (message: string) => timeline.note('event', `warning: ${message}`) },
  };
  switch (target.transport) {
    case 'sse':
      return new SseClientTransport(target.url, http);
    case 'streamable-http':
      return new StreamableHttpClientTransport(target.url, http);
    default:
      return new HttpClientTransport(target.url, http);
  }
}

function clientHandlers(handlers: InspectionHandlers): ClientHandlers {
  const out: ClientHandlers = {};
  if (handlers.sampling) {
    const sampling = handlers.sampling;
    out.sampling = (params, ctx) => sampling(params as unknown as JsonObject, ctx.signal) as never;
  }
  if (handlers.elicitation) {
    const elicitation = handlers.elicitation;
    out.elicitation = (params, ctx) => elicitation(params as unknown as JsonObject, ctx.signal) as never;
  }
  if (handlers.roots) {
    const roots = handlers.roots;
    out.roots = () => roots() as never;
  }
  return out;
}
