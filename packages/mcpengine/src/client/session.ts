/**
 * `ClientSession`: one connection to one MCP server, in whichever era the server speaks. `Client.connect()`
 * opens it; the negotiated revision, server info, capabilities and instructions are fixed by the handshake.
 *
 * Every method works in both eras: in the modern era requests carry their `_meta`, and `input_required` results
 * are answered with the same sampling/elicitation/roots handlers that serve legacy server→client requests.
 * Every message sent or received passes the client's middleware, when it has any.
 */
import { ErrorCode, ProtocolError, RemoteError, RequestAbortedError } from '../protocol/errors.js';
import {
  parseInbound,
  serializeError,
  serializeNotification,
  serializeResult,
  type InboundMessage,
  type JsonRpcRequest,
} from '../protocol/jsonrpc.js';
import { MetaKey } from '../protocol/meta.js';
import {
  isRevision,
  newestFirst,
  REVISION_SPECS,
  REVISIONS,
  type Era,
  type Revision,
  type RevisionSpec,
} from '../protocol/revisions.js';
import type {
  CallToolResult,
  CompleteResult,
  GetPromptResult,
  Implementation,
  InputRequest,
  JsonObject,
  LoggingLevel,
  Prompt,
  PromptReference,
  ReadResourceResult,
  RequestId,
  Resource,
  ResourceTemplate,
  ResourceTemplateReference,
  ServerCapabilities,
  SubscriptionFilter,
  Tool,
} from '../protocol/types.js';
import { OutgoingRequests, type RequestOptions } from '../rpc/outgoing.js';
import type { Outbox } from '../rpc/outbox.js';
import type { Transport } from '../transports/transport.js';
import { ResultCache } from './cache.js';
import { legacyCapabilities, modernCapabilities } from './capabilities.js';
import type { ComposedClientMiddleware } from './middleware.js';
import { TaskReceiver } from './tasks-receiver.js';
import { ClientTasks } from './tasks.js';
import type {
  CallOptions,
  ClientCall,
  ClientHandlerContext,
  ClientOptions,
  ConnectOptions,
  NotificationHandler,
  Subscription,
} from './types.js';

/** What a session takes from its `Client` (internal: users get sessions from `Client.connect`). */
export interface SessionSetup {
  readonly options: ClientOptions;
  readonly info: Implementation;
  /** The client's composed middleware, read per message so `Client.use` applies to open sessions too. */
  middleware(): ComposedClientMiddleware | undefined;
}

/** What the handshake settles. Replaced as a whole when a legacy session is renewed. */
interface Handshake {
  readonly spec: RevisionSpec;
  readonly serverInfo: Implementation | undefined;
  readonly serverCapabilities: ServerCapabilities;
  readonly instructions: string | undefined;
  readonly supportedVersions: readonly string[];
}

/** Opens a session: starts the transport and runs the handshake. */
export async function openSession(
  setup: SessionSetup,
  transport: Transport,
  options: ConnectOptions,
): Promise<ClientSession> {
  const session = new ClientSession(setup, transport, SESSION_KEY);
  await session[OPEN](options);
  return session;
}

/** Keeps the constructor and the handshake to this module: sessions come from `Client.connect`. */
const SESSION_KEY: unique symbol = Symbol('ClientSession');
const OPEN: unique symbol = Symbol('open');
let sessionsOpened = 0;

interface OpenSubscription {
  onNotification: (method: string, params: JsonObject) => void;
  acknowledge: (filter: SubscriptionFilter) => void;
}

const LIST_METHOD_FOR: Record<string, string[]> = {
  'notifications/tools/list_changed': ['tools/list'],
  'notifications/prompts/list_changed': ['prompts/list'],
  'notifications/resources/list_changed': ['resources/list', 'resources/templates/list'],
};

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export class ClientSession {
  private readonly options: ClientOptions;
  private readonly setup: SessionSetup;
  private readonly transport: Transport;
  private readonly outgoing = new OutgoingRequests();
  private readonly outbox: Outbox;
  private readonly cache = new ResultCache();
  private readonly notificationHandlers = new Map<string, Set<NotificationHandler>>();
  private readonly subscriptions = new Map<RequestId, OpenSubscription>();
  private readonly serverRequests = new Map<RequestId, AbortController>();
  private handshake: Handshake | undefined;
  private closed = false;
  private closeError: Error | undefined;
  private renewing = false;
  private tasksApi: ClientTasks | undefined;
  /** A number unique among this process's sessions (not the HTTP `Mcp-Session-Id`). */
  readonly localId = ++sessionsOpened;
  /** Legacy era: what this session set up on the server, restored when an expired session is renewed. */
  private readonly legacyState = {
    resourceSubscriptions: new Set<string>(),
    logLevel: undefined as LoggingLevel | undefined,
  };
  /** 2025-11-25: tasks the server asked this client to run (task-augmented sampling and elicitation). */
  private readonly taskReceiver = new TaskReceiver({
    accepts: (method) => {
      const tasks = legacyCapabilities(this.options, this.revision).tasks;
      if (method === 'tasks') return tasks !== undefined;
      const requests = tasks?.requests as JsonObject | undefined;
      return method === 'sampling/createMessage'
        ? isObject(requests?.sampling) && requests.sampling.createMessage !== undefined
        : isObject(requests?.elicitation) && requests.elicitation.create !== undefined;
    },
    fulfil: (request, signal) => this.fulfil(request, 'legacy', signal),
    notify: (method, params) => this.notify(method, params),
  });

  /** @internal Sessions come from `Client.connect()`. */
  constructor(setup: SessionSetup, transport: Transport, key: typeof SESSION_KEY) {
    if (key !== SESSION_KEY) throw new TypeError('Open a ClientSession with Client.connect()');
    this.setup = setup;
    this.options = setup.options;
    this.transport = transport;
    this.outbox = {
      send: (message) => {
        if (this.closed) return false;
        try {
          this.transport.send(message);
          return true;
        } catch {
          return false;
        }
      },
    };
  }

  /** The negotiated protocol revision. */
  get revision(): Revision {
    return this.settled.spec.id;
  }

  get era(): Era {
    return this.settled.spec.era;
  }

  /** The server's `Implementation`, as the handshake reported it. */
  get serverInfo(): Implementation | undefined {
    return this.handshake?.serverInfo;
  }

  get serverCapabilities(): ServerCapabilities {
    return this.handshake?.serverCapabilities ?? {};
  }

  get instructions(): string | undefined {
    return this.handshake?.instructions;
  }

  /** Modern era: what `server/discover` listed. */
  get supportedVersions(): readonly string[] {
    return this.handshake?.supportedVersions ?? [];
  }

  /** Whether the session has ended (closed by either side). */
  get isClosed(): boolean {
    return this.closed;
  }

  private get settled(): Handshake {
    if (!this.handshake) throw new Error('The session has not finished its handshake');
    return this.handshake;
  }

  // ── connection ──────────────────────────────────────────────────────────────────────────────────────

  /** @internal The handshake, run once by `Client.connect()`. */
  async [OPEN](options: ConnectOptions): Promise<void> {
    try {
      await this.start();
      await this.negotiate(options);
    } catch (error) {
      await this.close();
      throw error;
    }
  }

  private async start(): Promise<void> {
    await this.transport.start({
      message: (text) => this.receive(text),
      invalid: () => {
        // A server that sends garbage: nothing to answer (we never answer the server's responses).
      },
      close: (error) => this.onTransportClosed(error),
      requestFailed: (id, error) => {
        this.outgoing.fail(id, error);
      },
      sessionExpired: () => this.renewSession(),
      // New credentials (a step-up adds scopes) can change what the server lists: cached results are stale.
      authorizationChanged: () => this.cache.clear(),
    });
  }

  private async negotiate(options: ConnectOptions): Promise<void> {
    const allowed = options.revisions ?? REVISIONS;
    const pinned = options.revision ?? 'auto';
    if (pinned !== 'auto') {
      if (!isRevision(pinned)) throw new TypeError(`Unknown protocol revision: ${String(pinned)}`);
      if (REVISION_SPECS[pinned].era === 'modern') await this.discover(pinned);
      else await this.initialize(pinned, allowed);
      return;
    }
    const modern = newestFirst(allowed.filter((r) => REVISION_SPECS[r].era === 'modern'));
    const legacy = newestFirst(allowed.filter((r) => REVISION_SPECS[r].era === 'legacy'));
    if (modern.length > 0) {
      // The short probe timeout exists to fall back to a silent legacy server; with no legacy revision allowed
      // there is nothing to fall back to, so the probe waits as long as any request.
      const probeTimeoutMs = legacy.length === 0 ? undefined : (options.probeTimeoutMs ?? 5_000);
      const outcome = await this.probe(modern[0]!, modern, legacy, probeTimeoutMs);
      if (outcome === 'modern') return;
      if (outcome !== 'legacy') {
        await this.initialize(outcome, allowed);
        return;
      }
    }
    if (legacy.length === 0)
      throw new Error('The server does not speak a modern revision and no legacy revision is allowed');
    await this.initialize(legacy[0]!, allowed);
  }

  /**
   * The stdio backward-compatibility probe: a DiscoverResult or a recognized modern error means a modern server;
   * anything else (another error, or silence) means legacy. Returns a legacy revision to initialize with when
   * a modern server lists only legacy revisions we share.
   */
  private async probe(
    preferred: Revision,
    modern: readonly Revision[],
    legacy: readonly Revision[],
    timeoutMs: number | undefined,
  ): Promise<'modern' | 'legacy' | Revision> {
    try {
      await this.discover(preferred, timeoutMs);
      return 'modern';
    } catch (error) {
      if (!(error instanceof RemoteError) || error.code !== ErrorCode.UnsupportedProtocolVersion)
        return 'legacy';
      const supported = Array.isArray((error.data as JsonObject)?.supported)
        ? ((error.data as JsonObject).supported as unknown[])
        : [];
      const sharedModern = modern.find((r) => supported.includes(r));
      if (sharedModern) {
        await this.discover(sharedModern, timeoutMs);
        return 'modern';
      }
      const sharedLegacy = legacy.find((r) => supported.includes(r));
      if (sharedLegacy) return sharedLegacy;
      throw new Error(
        `No protocol version in common with the server (it supports: ${supported.join(', ')})`,
        {
          cause: error,
        },
      );
    }
  }

  private async discover(revision: Revision, timeoutMs?: number): Promise<void> {
    const spec = REVISION_SPECS[revision];
    const result = await this.send(
      'server/discover',
      { _meta: this.modernMeta(spec) },
      { timeoutMs: timeoutMs ?? this.options.requestTimeoutMs ?? 60_000 },
    );
    const versions = Array.isArray(result.supportedVersions)
      ? result.supportedVersions.filter((v): v is string => typeof v === 'string')
      : [];
    if (!versions.includes(revision)) {
      throw new Error(`server/discover does not list ${revision} (it lists ${versions.join(', ')})`);
    }
    const meta = isObject(result._meta) ? result._meta : {};
    const info = meta[MetaKey.serverInfo];
    this.handshake = {
      spec,
      supportedVersions: versions,
      serverCapabilities: isObject(result.capabilities) ? (result.capabilities as ServerCapabilities) : {},
      instructions: typeof result.instructions === 'string' ? result.instructions : undefined,
      serverInfo: isObject(info) ? (info as unknown as Implementation) : undefined,
    };
  }

  private async initialize(revision: Revision, allowed: readonly Revision[]): Promise<void> {
    const result = await this.send(
      'initialize',
      {
        protocolVersion: revision,
        capabilities: legacyCapabilities(this.options, revision),
        clientInfo: this.setup.info,
      },
      { timeoutMs: this.options.requestTimeoutMs ?? 60_000 },
    );
    const version = result.protocolVersion;
    if (!isRevision(version) || REVISION_SPECS[version].era !== 'legacy' || !allowed.includes(version)) {
      throw new Error(
        `The server answered initialize with unsupported protocol version ${JSON.stringify(version)}`,
      );
    }
    this.handshake = {
      spec: REVISION_SPECS[version],
      supportedVersions: [],
      serverCapabilities: isObject(result.capabilities) ? (result.capabilities as ServerCapabilities) : {},
      serverInfo: isObject(result.serverInfo) ? (result.serverInfo as unknown as Implementation) : undefined,
      instructions: typeof result.instructions === 'string' ? result.instructions : undefined,
    };
    this.notify('notifications/initialized');
  }

  /**
   * The server ended the legacy session (HTTP 404): open a new one at the same revision, once at a time, and
   * set up again what the old one had — resource subscriptions and the log level — so the user notices nothing.
   */
  private renewSession(): void {
    const spec = this.handshake?.spec;
    if (this.renewing || this.closed || !spec || spec.era !== 'legacy') return;
    this.renewing = true;
    this.initialize(spec.id, [spec.id])
      .then(() => this.restoreLegacyState())
      .then(
        () => {
          this.renewing = false;
        },
        (error: unknown) => {
          this.renewing = false;
          const message = error instanceof Error ? error.message : String(error);
          this.onTransportClosed(new Error(`The session expired and could not be renewed: ${message}`));
          void this.transport.close();
        },
      );
  }

  private async restoreLegacyState(): Promise<void> {
    const { logLevel, resourceSubscriptions } = this.legacyState;
    const restores: Promise<JsonObject>[] = [];
    if (logLevel !== undefined) restores.push(this.send('logging/setLevel', { level: logLevel }));
    for (const uri of resourceSubscriptions) restores.push(this.send('resources/subscribe', { uri }));
    await Promise.all(restores);
  }

  private modernMeta(spec: RevisionSpec, extra?: JsonObject): JsonObject {
    const meta: JsonObject = {
      ...extra,
      [MetaKey.protocolVersion]: spec.id,
      [MetaKey.clientInfo]: this.setup.info,
      [MetaKey.clientCapabilities]: modernCapabilities(this.options, spec),
    };
    if (this.options.logLevel !== undefined) meta[MetaKey.logLevel] = this.options.logLevel;
    return meta;
  }

  /** Sends one request through the middleware (if any) and awaits its result. */
  private send(method: string, params: JsonObject, options: RequestOptions = {}): Promise<JsonObject> {
    const chain = this.setup.middleware();
    if (!chain) return this.outgoing.request(method, params, this.outbox, options);
    return this.throughMiddleware(chain, 'outgoing', 'request', method, params, (call) =>
      this.outgoing.request(call.method, call.params, this.outbox, options),
    );
  }

  /** Runs a call through the middleware; a request must end with a result. */
  private async throughMiddleware(
    chain: ComposedClientMiddleware,
    direction: ClientCall['direction'],
    kind: ClientCall['kind'],
    method: string,
    params: JsonObject,
    terminal: (call: ClientCall) => Promise<JsonObject | undefined>,
  ): Promise<JsonObject> {
    const call: ClientCall = {
      direction,
      kind,
      method,
      params,
      revision: this.handshake?.spec.id,
      sessionId: this.localId,
    };
    const result = await chain(call, terminal);
    if (kind === 'request' && !isObject(result)) {
      throw new Error(`Client middleware answered ${method} without a result object`);
    }
    return result ?? {};
  }

  /** Ends the session: pending requests fail, subscriptions end, the transport closes. Idempotent. */
  async close(): Promise<void> {
    if (this.closed) return;
    for (const id of [...this.subscriptions.keys()]) this.subscriptions.delete(id);
    this.onTransportClosed(new Error('client closed'));
    this.taskReceiver.close();
    await this.transport.close();
  }

  private onTransportClosed(error?: Error): void {
    if (this.closed) return;
    this.closed = true;
    this.closeError = error;
    this.outgoing.closeAll(error?.message ?? 'connection closed');
    for (const controller of this.serverRequests.values()) controller.abort(error);
    this.serverRequests.clear();
  }

  // ── inbound ─────────────────────────────────────────────────────────────────────────────────────────

  private receive(text: string): void {
    const parsed = parseInbound(text);
    if (parsed.kind === 'unparseable') return;
    if (parsed.kind !== 'batch') this.dispatch(parsed);
    else for (const item of parsed.items) this.dispatch(item);
  }

  private dispatch(item: InboundMessage): void {
    switch (item.kind) {
      case 'response':
        this.outgoing.settle(item.message);
        return;
      case 'notification':
        this.onNotificationMessage(item.message.method, item.message.params ?? {});
        return;
      case 'request':
        void this.onServerRequest(item.message);
        return;
      case 'invalid':
        if (item.answerable && item.id !== null) this.outbox.send(serializeError(item.id, item.error));
        return;
    }
  }

  private onNotificationMessage(method: string, params: JsonObject): void {
    const chain = this.setup.middleware();
    if (!chain) return this.handleNotification(method, params);
    this.throughMiddleware(chain, 'incoming', 'notification', method, params, (call) => {
      this.handleNotification(call.method, call.params);
      return Promise.resolve(undefined);
    }).catch(() => {
      // Middleware that throws on a notification drops it; nothing can be answered.
    });
  }

  private handleNotification(method: string, params: JsonObject): void {
    const meta = isObject(params._meta) ? params._meta : undefined;
    const subscriptionId = meta?.[MetaKey.subscriptionId];
    if (subscriptionId !== undefined) {
      const subscription = this.subscriptions.get(subscriptionId as RequestId);
      if (method === 'notifications/subscriptions/acknowledged') {
        subscription?.acknowledge(
          isObject(params.notifications) ? (params.notifications as SubscriptionFilter) : {},
        );
        return;
      }
      subscription?.onNotification(method, params);
    }
    if (method === 'notifications/progress') {
      if (typeof params.progress === 'number') this.outgoing.progress(params as never, this.outbox);
    } else if (method === 'notifications/cancelled') {
      this.serverRequests
        .get(params.requestId as RequestId)
        ?.abort(new Error(String(params.reason ?? 'cancelled')));
    }
    for (const listMethod of LIST_METHOD_FOR[method] ?? []) this.cache.invalidate(listMethod);
    for (const handler of this.notificationHandlers.get(method) ?? []) {
      try {
        handler(params);
      } catch {
        // A throwing listener must not break message processing.
      }
    }
  }

  /** Legacy era: the server asks the client something. */
  private async onServerRequest(request: JsonRpcRequest): Promise<void> {
    const controller = new AbortController();
    this.serverRequests.set(request.id, controller);
    try {
      const spec = this.handshake?.spec;
      if (
        !spec ||
        spec.era !== 'legacy' ||
        (!spec.serverRequests[request.method] && request.method !== 'ping')
      ) {
        throw ProtocolError.methodNotFound(request.method);
      }
      const answer = (method: string, params: JsonObject): Promise<JsonObject> =>
        method === 'ping'
          ? Promise.resolve({})
          : this.taskReceiver.handles(method, params)
            ? this.taskReceiver.serve(method, params)
            : this.fulfil({ method, params } as InputRequest, 'legacy', controller.signal);
      const chain = this.setup.middleware();
      const params = request.params ?? {};
      const result = chain
        ? await this.throughMiddleware(chain, 'incoming', 'request', request.method, params, (call) =>
            answer(call.method, call.params),
          )
        : await answer(request.method, params);
      if (!controller.signal.aborted) this.outbox.send(serializeResult(request.id, JSON.stringify(result)));
    } catch (error) {
      if (controller.signal.aborted) return;
      const object =
        error instanceof ProtocolError
          ? error.toErrorObject()
          : {
              code: ErrorCode.InternalError,
              message: error instanceof Error ? error.message : String(error),
            };
      this.outbox.send(serializeError(request.id, object));
    } finally {
      this.serverRequests.delete(request.id);
    }
  }

  /** Runs the handler for one input request (a legacy server→client request or a modern input request). */
  private async fulfil(
    request: InputRequest,
    era: Era,
    signal: AbortSignal,
    progressToken?: RequestId,
  ): Promise<JsonObject> {
    const handlers = this.options.handlers ?? {};
    let last = -Infinity;
    const ctx: ClientHandlerContext = {
      signal,
      era,
      progress: (progress, total, message) => {
        if (progressToken === undefined || signal.aborted || !(progress > last)) return;
        last = progress;
        const params: JsonObject = { progressToken, progress };
        if (total !== undefined) params.total = total;
        if (message !== undefined && this.handshake?.spec.progressMessage) params.message = message;
        this.notify('notifications/progress', params);
      },
    };
    switch (request.method) {
      case 'sampling/createMessage':
        if (!handlers.sampling) throw ProtocolError.methodNotFound(request.method);
        return await handlers.sampling(request.params, ctx);
      case 'elicitation/create':
        if (!handlers.elicitation) throw ProtocolError.methodNotFound(request.method);
        return await handlers.elicitation(request.params, ctx);
      case 'roots/list':
        if (!handlers.roots) throw ProtocolError.methodNotFound(request.method);
        return { roots: await handlers.roots(ctx) };
      default:
        throw ProtocolError.methodNotFound((request as { method: string }).method);
    }
  }

  // ── requests ────────────────────────────────────────────────────────────────────────────────────────

  private requestOptions(options: CallOptions): RequestOptions {
    const merged: RequestOptions = {
      timeoutMs: options.timeoutMs ?? this.options.requestTimeoutMs ?? 60_000,
      resetTimeoutOnProgress: options.resetTimeoutOnProgress ?? this.options.resetTimeoutOnProgress ?? true,
      maxTotalTimeoutMs: options.maxTotalTimeoutMs ?? this.options.maxTotalTimeoutMs ?? 600_000,
    };
    if (options.signal) merged.signal = options.signal;
    if (options.onProgress) merged.onProgress = options.onProgress;
    return merged;
  }

  /**
   * Sends any request and returns its result. In the modern era it adds the per-request `_meta`, serves
   * `input_required` results with the client's handlers, and treats unknown result types as invalid.
   */
  async request(method: string, params: JsonObject = {}, options: CallOptions = {}): Promise<JsonObject> {
    if (this.closed)
      throw new RequestAbortedError(
        'closed',
        `Cannot send ${method}: ${this.closeError?.message ?? 'closed'}`,
      );
    const spec = this.settled.spec;
    const withMeta = options.meta
      ? { ...params, _meta: { ...(params._meta as JsonObject), ...options.meta } }
      : params;
    const chain = this.setup.middleware();
    if (!chain) return this.perform(spec, method, withMeta, options);
    return this.throughMiddleware(chain, 'outgoing', 'request', method, withMeta, (call) =>
      this.perform(spec, call.method, call.params, options),
    );
  }

  /** The work behind `request`, after the middleware. */
  private async perform(
    spec: RevisionSpec,
    method: string,
    params: JsonObject,
    options: CallOptions,
  ): Promise<JsonObject> {
    if (spec.era === 'legacy') {
      return this.outgoing.request(method, params, this.outbox, this.requestOptions(options));
    }
    const rule = spec.clientRequests[method];
    const useCache = options.cache !== false && rule?.cacheable === true;
    const cacheKey = useCache ? ResultCache.key(method, params) : '';
    if (useCache) {
      const hit = this.cache.get(cacheKey);
      if (hit) return hit;
    }
    const maxRounds = this.options.maxInputRounds ?? 10;
    let current: JsonObject = params;
    for (let round = 0; ; round++) {
      const wire = { ...current, _meta: this.modernMeta(spec, params._meta as JsonObject | undefined) };
      const result = await this.outgoing.request(method, wire, this.outbox, this.requestOptions(options));
      const resultType = result.resultType ?? 'complete';
      if (resultType === 'complete') {
        if (useCache && round === 0) this.cache.put(cacheKey, result);
        return result;
      }
      if (resultType === 'task' && options.acceptTask === true) return result;
      if (resultType !== 'input_required' || rule?.inputRequired !== true) {
        throw new Error(
          `The server answered ${method} with an unrecognized resultType ${JSON.stringify(resultType)}`,
        );
      }
      if (round + 1 >= maxRounds) throw new Error(`${method} still required input after ${maxRounds} rounds`);
      const inputRequests = isObject(result.inputRequests) ? result.inputRequests : {};
      const responses: JsonObject = {};
      const signal = options.signal ?? new AbortController().signal;
      await Promise.all(
        Object.entries(inputRequests).map(async ([key, request]) => {
          responses[key] = await this.answerInputRequest(request as InputRequest, signal);
        }),
      );
      current = { ...params };
      if (Object.keys(inputRequests).length > 0) current.inputResponses = responses;
      if (typeof result.requestState === 'string') current.requestState = result.requestState;
    }
  }

  /** Modern era: one input request of an `input_required` result, through the middleware. */
  private answerInputRequest(request: InputRequest, signal: AbortSignal): Promise<JsonObject> {
    const chain = this.setup.middleware();
    if (!chain) return this.fulfil(request, 'modern', signal);
    const params = isObject(request.params) ? (request.params as JsonObject) : {};
    return this.throughMiddleware(chain, 'incoming', 'request', request.method, params, (call) =>
      this.fulfil({ method: call.method, params: call.params } as InputRequest, 'modern', signal),
    );
  }

  /** Sends a notification to the server. */
  notify(method: string, params?: JsonObject): void {
    const chain = this.setup.middleware();
    if (!chain) {
      this.outbox.send(serializeNotification(method, params));
      return;
    }
    const given = params ?? {};
    this.throughMiddleware(chain, 'outgoing', 'notification', method, given, (call) => {
      // Keep a notification without params without them, unless middleware added some.
      const wire = params === undefined && call.params === given ? undefined : call.params;
      this.outbox.send(serializeNotification(call.method, wire));
      return Promise.resolve(undefined);
    }).catch(() => {
      // Middleware that throws on a notification drops it.
    });
  }

  /** Subscribes to a notification method (e.g. `notifications/message`). Returns an unsubscribe function. */
  onNotification(method: string, handler: NotificationHandler): () => void {
    let set = this.notificationHandlers.get(method);
    if (!set) this.notificationHandlers.set(method, (set = new Set()));
    set.add(handler);
    return () => set.delete(handler);
  }

  // ── typed methods ───────────────────────────────────────────────────────────────────────────────────

  /** Legacy era only (the modern era has no ping). */
  async ping(options: CallOptions = {}): Promise<void> {
    await this.request('ping', {}, options);
  }

  listTools(
    params: { cursor?: string } = {},
    options?: CallOptions,
  ): Promise<{ tools: Tool[]; nextCursor?: string } & JsonObject> {
    return this.request('tools/list', params, options) as never;
  }

  /** Every tool, following pagination. */
  tools(options?: CallOptions): AsyncIterable<Tool> {
    return this.paginate('tools/list', 'tools', options) as AsyncIterable<Tool>;
  }

  async listAllTools(options?: CallOptions): Promise<Tool[]> {
    return collect(this.tools(options));
  }

  /** Calls a tool. A task the server makes of it (tasks extension) is awaited: the result is always final. */
  async callTool(
    params: { name: string; arguments?: JsonObject },
    options?: CallOptions,
  ): Promise<CallToolResult & JsonObject> {
    const result = await this.retryOnHeaderMismatch(() =>
      this.request('tools/call', params as JsonObject, { ...options, acceptTask: true }),
    );
    if (result.resultType !== 'task') return result as never;
    const wait = options?.signal ? { signal: options.signal } : {};
    return (await this.tasks.fromCallResult(result).result(wait)) as never;
  }

  /**
   * 2026-07-28 Streamable HTTP: a HeaderMismatch (-32020) on `tools/call` means the transport mirrored
   * `x-mcp-header` parameters from a tool list that is outdated or was never fetched. The spec's remedy: list
   * the tools again (the transport learns the bindings from the result), then retry once.
   */
  private async retryOnHeaderMismatch(call: () => Promise<JsonObject>): Promise<JsonObject> {
    try {
      return await call();
    } catch (error) {
      const mismatch = error instanceof RemoteError && error.code === ErrorCode.HeaderMismatch;
      if (!mismatch || this.handshake?.spec.era !== 'modern') throw error;
      await this.listAllTools({ cache: false });
      return call();
    }
  }

  /** Tasks: call tools as tasks, await, cancel and list them. */
  get tasks(): ClientTasks {
    return (this.tasksApi ??= new ClientTasks(
      {
        spec: () => this.settled.spec,
        serverCapabilities: () => this.serverCapabilities,
        request: (method, params, options) => this.request(method, params, options),
        fulfil: (request, signal) => this.fulfil(request, 'modern', signal),
        onNotification: (method, handler) => this.onNotification(method, handler),
      },
      this.options.tasks,
    ));
  }

  listPrompts(
    params: { cursor?: string } = {},
    options?: CallOptions,
  ): Promise<{ prompts: Prompt[]; nextCursor?: string } & JsonObject> {
    return this.request('prompts/list', params, options) as never;
  }

  prompts(options?: CallOptions): AsyncIterable<Prompt> {
    return this.paginate('prompts/list', 'prompts', options) as AsyncIterable<Prompt>;
  }

  getPrompt(
    params: { name: string; arguments?: Record<string, string> },
    options?: CallOptions,
  ): Promise<GetPromptResult & JsonObject> {
    return this.request('prompts/get', params as JsonObject, options) as never;
  }

  listResources(
    params: { cursor?: string } = {},
    options?: CallOptions,
  ): Promise<{ resources: Resource[]; nextCursor?: string } & JsonObject> {
    return this.request('resources/list', params, options) as never;
  }

  resources(options?: CallOptions): AsyncIterable<Resource> {
    return this.paginate('resources/list', 'resources', options) as AsyncIterable<Resource>;
  }

  listResourceTemplates(
    params: { cursor?: string } = {},
    options?: CallOptions,
  ): Promise<{ resourceTemplates: ResourceTemplate[]; nextCursor?: string } & JsonObject> {
    return this.request('resources/templates/list', params, options) as never;
  }

  resourceTemplates(options?: CallOptions): AsyncIterable<ResourceTemplate> {
    return this.paginate(
      'resources/templates/list',
      'resourceTemplates',
      options,
    ) as AsyncIterable<ResourceTemplate>;
  }

  readResource(params: { uri: string }, options?: CallOptions): Promise<ReadResourceResult & JsonObject> {
    return this.request('resources/read', params, options) as never;
  }

  /** Legacy era: `resources/subscribe`. In the modern era use `listen({ resourceSubscriptions: [uri] })`. */
  async subscribeResource(uri: string, options?: CallOptions): Promise<void> {
    await this.request('resources/subscribe', { uri }, options);
    this.legacyState.resourceSubscriptions.add(uri);
  }

  async unsubscribeResource(uri: string, options?: CallOptions): Promise<void> {
    this.legacyState.resourceSubscriptions.delete(uri);
    await this.request('resources/unsubscribe', { uri }, options);
  }

  complete(
    params: {
      ref: PromptReference | ResourceTemplateReference;
      argument: { name: string; value: string };
      context?: { arguments?: Record<string, string> };
    },
    options?: CallOptions,
  ): Promise<CompleteResult & JsonObject> {
    return this.request('completion/complete', params, options) as never;
  }

  /** Legacy era: `logging/setLevel`. In the modern era pass `logLevel` in the client options. */
  async setLogLevel(level: LoggingLevel, options?: CallOptions): Promise<void> {
    await this.request('logging/setLevel', { level }, options);
    this.legacyState.logLevel = level;
  }

  /** Legacy era: tell the server the roots changed. */
  notifyRootsListChanged(): void {
    this.notify('notifications/roots/list_changed');
  }

  /**
   * Modern era: opens a `subscriptions/listen` stream. `onNotification` receives every notification tagged
   * with this subscription's id.
   */
  listen(
    filter: SubscriptionFilter,
    onNotification: (method: string, params: JsonObject) => void,
  ): Subscription {
    const spec = this.settled.spec;
    if (spec.era !== 'modern') throw new Error('listen() needs a modern (2026-07-28+) connection');
    const controller = new AbortController();
    let acknowledge!: (filter: SubscriptionFilter) => void;
    let failAck!: (error: Error) => void;
    const acknowledged = new Promise<SubscriptionFilter>((resolve, reject) => {
      acknowledge = resolve;
      failAck = reject;
    });
    acknowledged.catch(() => {});
    let id: RequestId | undefined;
    const open = (params: JsonObject): Promise<JsonObject> =>
      this.outgoing.request(
        'subscriptions/listen',
        params,
        this.outbox,
        { signal: controller.signal, timeoutMs: Infinity },
        (allocated) => {
          // Registered before the request leaves, so no notification for it can arrive unrouted.
          id = allocated;
          this.subscriptions.set(allocated, { onNotification, acknowledge });
        },
      );
    const params: JsonObject = { notifications: filter as JsonObject, _meta: this.modernMeta(spec) };
    const chain = this.setup.middleware();
    const pending = chain
      ? this.throughMiddleware(chain, 'outgoing', 'request', 'subscriptions/listen', params, (call) =>
          open(call.params),
        )
      : open(params);
    const ended = pending
      .then(
        () => undefined,
        (error: unknown) => {
          failAck(error instanceof Error ? error : new Error(String(error)));
        },
      )
      .finally(() => {
        if (id !== undefined) this.subscriptions.delete(id);
      });
    return {
      get id() {
        return id as RequestId;
      },
      acknowledged,
      ended,
      close: () => controller.abort(new Error('subscription closed by client')),
    };
  }

  private async *paginate(method: string, field: string, options?: CallOptions): AsyncIterable<unknown> {
    const seen = new Set<string>();
    let cursor: string | undefined;
    do {
      const page = await this.request(method, cursor === undefined ? {} : { cursor }, options);
      const items = page[field];
      if (Array.isArray(items)) yield* items;
      const next = page.nextCursor;
      cursor = typeof next === 'string' ? next : undefined;
      if (cursor !== undefined) {
        if (seen.has(cursor))
          throw new Error(`${method}: the server repeated cursor ${JSON.stringify(cursor)}`);
        seen.add(cursor);
      }
    } while (cursor !== undefined);
  }
}

async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of iterable) out.push(item);
  return out;
}
