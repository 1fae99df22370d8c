/**
 * The protocol core of the server: turns one well-formed JSON-RPC request into one serialized response, for
 * either era, independent of the transport. Transports (stdio, in-memory, Streamable HTTP) only decide which
 * outbox a message goes to and when a request is cancelled.
 */
import { ErrorCode, ProtocolError, type ErrorObject } from '../protocol/errors.js';
import {
  serializeError,
  serializeNotification,
  serializeResult,
  serializeResultParts,
  type JsonRpcNotification,
  type JsonRpcRequest,
  type JsonRpcResponse,
} from '../protocol/jsonrpc.js';
import { MetaKey, readModernMeta, unsupportedVersionError } from '../protocol/meta.js';
import {
  isRevision,
  newestFirst,
  REVISION_SPECS,
  type ClientMethodRule,
  type Revision,
  type RevisionSpec,
} from '../protocol/revisions.js';
import type {
  CacheScope,
  ClientCapabilities,
  Implementation,
  InputRequest,
  InputResponse,
  JsonObject,
  LoggingLevel,
  ProgressParams,
  RequestId,
  ServerCapabilities,
  SubscriptionFilter,
} from '../protocol/types.js';
import { RequestAbortedError } from '../protocol/errors.js';
import type { Outbox } from '../rpc/outbox.js';
import { Broadcaster, taggedNotification, type Listener } from './broadcast.js';
import {
  readProgressToken,
  RequestContext,
  type AuthInfo,
  type InputOptions,
  type RequestIO,
  type RequestTransport,
} from './context.js';
import { capabilitiesFor, hasCapability, implementationFor, type ServerDefinition } from './definition.js';
import type { CacheHint } from './features/resources.js';
import { InputRound, readInputResponses } from './input.js';
import { LegacySession, type LegacySessionSnapshot } from './legacy-session.js';
import { principalOf } from './principal.js';
import { RawResult } from './lists.js';
import { isPromiseLike, resultJson, TextToolResult } from './features/tools.js';
import type {
  Call,
  ListenHooks,
  MethodHandler,
  MethodSettings,
  Outcome,
  ResolvedMethod,
} from './dispatch.js';
import { METHOD_HANDLERS } from './methods.js';
import { composeRequestMiddleware, runNotificationMiddleware, type Middleware } from './middleware.js';
import { bindingSnapshot, digestOfSnapshot, openRequestState, sealRequestState } from './request-state.js';
import type { ServerSecret } from './secret.js';
import { ExtensionSet, type ServerExtension } from './extension.js';
import { abortRequest, finishRequest, isRequestAborted } from './context.js';

export interface ServerCoreSettings {
  readonly pageSize: number;
  readonly secret: ServerSecret;
  readonly listCache: CacheHint;
  readonly readCache: CacheHint;
  readonly discoverCache: CacheHint;
  /** Modern era: put `io.modelcontextprotocol/serverInfo` in every result's `_meta` (a SHOULD). */
  readonly serverInfoInResults: boolean;
  readonly requestStateTtlMs: number;
  readonly inputTimeoutMs: number;
  /** Receives internal errors that were answered with a generic -32603. */
  report(error: unknown, where: string): void;
  onRootsListChanged?(session: LegacySession): void;
}

export interface DefinitionSource {
  readonly definition: ServerDefinition;
}

/** Per-request environment supplied by the transport. */
export interface RequestEnv {
  /** Where notifications related to the request (progress, logs, listen events) are sent. */
  readonly outbox: Outbox;
  readonly auth?: AuthInfo | undefined;
  /** Controls over the request's stream that the transport offers to handlers (`ctx.transport`). */
  readonly transport?: RequestTransport | undefined;
  /** Called once the request's context exists; the returned function runs when the request ends. */
  track?(id: RequestId, ctx: RequestContext): () => void;
}

/** A serialized response plus its error code, which HTTP maps to a status. */
export interface ResponseOut {
  readonly json: string;
  readonly errorCode?: number;
  /**
   * For large pre-serialized results (list pages): the same bytes as `json`, in pieces whose big one is
   * already UTF-8, so a transport that writes bytes can skip building and encoding the whole text.
   */
  readonly parts?: readonly (string | Uint8Array)[];
}

/** Results at least this long (in UTF-16 code units) are also offered to transports as pre-encoded parts. */
const PARTS_THRESHOLD = 16 * 1024;

/** The response to a request whose result is pre-serialized JSON. */
function rawResponse(id: RequestId, result: RawResult): ResponseOut {
  const json = serializeResult(id, result.json);
  return result.json.length < PARTS_THRESHOLD
    ? { json }
    : { json, parts: serializeResultParts(id, result.bytes) };
}

const PENDING_INPUT = Symbol('pending input');

/** A modern request that may ask the client for input (multi-round-trip): its round and state binding. */
interface ModernInput {
  round: InputRound;
  binding: () => { digest: string; principal: string };
  /** The handler asked for input (in the turn it was called). */
  asked: boolean;
  /** Called on every ask; replaced once the handler is found to be asynchronous. */
  onAsk: () => void;
}

const SALIENT_PARAMS: Readonly<Record<string, readonly string[]>> = {
  'tools/call': ['name', 'arguments'],
  'prompts/get': ['name', 'arguments'],
  'resources/read': ['uri'],
};

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export class ServerCore {
  readonly broadcaster = new Broadcaster();
  /** Protocol extensions (`server.extend()`): their methods, gates and capabilities. */
  readonly extensions = new ExtensionSet();
  /** Open `subscriptions/listen` requests and how to end each one gracefully. */
  private readonly openListens = new Map<RequestContext, () => void>();
  private readonly envelopeCache = new Map<string, string>();
  private closed = false;
  /** `server.use()` middleware, outermost first; composed into each method when it is resolved. */
  private middleware: readonly Middleware[] = [];

  constructor(
    private readonly source: DefinitionSource,
    readonly settings: ServerCoreSettings,
  ) {}

  get definition(): ServerDefinition {
    return this.source.definition;
  }

  get modernRevisions(): Revision[] {
    return this.revisionsByEra().modern;
  }

  get legacyRevisions(): Revision[] {
    return this.revisionsByEra().legacy;
  }

  /** Both lists, computed once per list of served revisions (every modern request reads them). Frozen. */
  private revisionsByEra(): { modern: Revision[]; legacy: Revision[] } {
    const revisions = this.definition.revisions;
    let cached = this.eraCache;
    if (cached?.revisions !== revisions) {
      const of = (era: string) =>
        Object.freeze(newestFirst(revisions.filter((r) => REVISION_SPECS[r].era === era))) as Revision[];
      cached = this.eraCache = { revisions, modern: of('modern'), legacy: of('legacy') };
    }
    return cached;
  }

  private eraCache: { revisions: readonly Revision[]; modern: Revision[]; legacy: Revision[] } | undefined;

  // ── errors ──────────────────────────────────────────────────────────────────────────────────────────

  /** The one place where failures become JSON-RPC errors. Unknown failures never leak details. */
  toErrorObject(error: unknown, revision: RevisionSpec | undefined, where: string): ErrorObject {
    if (error instanceof ProtocolError) {
      const object = error.toErrorObject();
      // 2026-07-28 forbids emitting -32002; resource-not-found is -32602 there.
      if (revision?.era === 'modern' && object.code === ErrorCode.ResourceNotFound)
        object.code = ErrorCode.InvalidParams;
      return object;
    }
    this.settings.report(error, where);
    return { code: ErrorCode.InternalError, message: 'Internal error' };
  }

  errorResponse(
    id: RequestId | null,
    error: unknown,
    revision: RevisionSpec | undefined,
    where: string,
  ): ResponseOut {
    const object = this.toErrorObject(error, revision, where);
    return { json: serializeError(id, object), errorCode: object.code };
  }

  // ── modern era ──────────────────────────────────────────────────────────────────────────────────────

  /** Checks a modern request's `_meta` and version; returns the revision or throws the spec's error. */
  modernRevisionOf(params: JsonObject | undefined): {
    revision: RevisionSpec;
    meta: ReturnType<typeof readModernMeta>;
  } {
    const meta = readModernMeta(params);
    const requested = meta.protocolVersion;
    if (!isRevision(requested) || !this.modernRevisions.includes(requested)) {
      throw unsupportedVersionError(requested, this.modernRevisions);
    }
    return { revision: REVISION_SPECS[requested], meta };
  }

  /**
   * Serves one modern request. Synchronous when its handler is (the usual tools/call): a promise is made only
   * for a handler that returns one, since every await costs an allocation and a turn per request.
   */
  handleModern(request: JsonRpcRequest, env: RequestEnv): ResponseOut | null | Promise<ResponseOut | null> {
    let revision: RevisionSpec | undefined;
    const params = request.params ?? {};
    let ctx: RequestContext | undefined;
    let untrack: (() => void) | undefined;
    // Set once a promise took the request over: it then finishes the context itself.
    let handedOff = false;
    try {
      const checked = this.modernRevisionOf(request.params);
      revision = checked.revision;
      const meta = checked.meta;
      const definition = this.definition;
      const { rule, handler, salientParams } = this.modernMethodFor(definition, revision, request.method);

      let input: ModernInput | undefined;
      let state: JsonObject | undefined;
      if (rule.inputRequired) {
        const responses = readInputResponses(params);
        // The digest is needed only to open or seal a requestState; most requests do neither.
        const snapshot = bindingSnapshot(pick(params, salientParams));
        let bound: { digest: string; principal: string } | undefined;
        const binding = () =>
          (bound ??= {
            digest: digestOfSnapshot(request.method, snapshot),
            principal: principalOf(env.auth),
          });
        let answers: JsonObject = {};
        if (params.requestState !== undefined) {
          const opened = openRequestState(this.settings.secret, params.requestState, binding());
          answers = opened.answers;
          state = opened.state;
        }
        const round = new InputRound({ ...answers, ...responses }, () => asking.onAsk());
        const asking: ModernInput = {
          round,
          binding,
          asked: false,
          // Set when the handler asks the client for input: the request then answers input_required.
          onAsk: () => (asking.asked = true),
        };
        input = asking;
      }

      const io = new ModernIO(
        env.outbox,
        meta.logLevel,
        input?.round,
        meta.clientCapabilities,
        request.method,
      );
      ctx = new RequestContext({
        requestId: request.id,
        method: request.method,
        revision: revision.id,
        era: 'modern',
        client: meta.clientInfo
          ? { info: meta.clientInfo, capabilities: meta.clientCapabilities }
          : { capabilities: meta.clientCapabilities },
        params,
        io,
        progressToken: readProgressToken(params),
        auth: env.auth,
        state,
        transport: env.transport,
      });
      untrack = env.track?.(request.id, ctx);
      const call: Call = {
        id: request.id,
        method: request.method,
        params,
        ctx,
        revision,
        definition,
        settings: this.methodSettings(revision, definition),
      };
      if (request.method === 'subscriptions/listen') {
        (call as { listen?: ListenHooks }).listen = this.listenHooks(request.id, env.outbox, ctx);
      }

      const running = handler(call);
      // Answered at once: a synchronous answer wins over any input the handler asked for meanwhile.
      if (!isPromiseLike(running)) return this.modernResponse(request, ctx, running, rule, definition, input);
      handedOff = true;
      return this.settleModern(request, ctx, untrack, running, rule, definition, revision, input);
    } catch (error) {
      if (isRequestAborted(ctx) && !(error instanceof ProtocolError)) return null;
      return this.errorResponse(request.id, error, revision, request.method);
    } finally {
      if (!handedOff) {
        finishRequest(ctx);
        untrack?.();
      }
    }
  }

  /** The rest of a modern request whose handler returned a promise. */
  private async settleModern(
    request: JsonRpcRequest,
    ctx: RequestContext,
    untrack: (() => void) | undefined,
    running: PromiseLike<Outcome>,
    rule: ClientMethodRule,
    definition: ServerDefinition,
    revision: RevisionSpec,
    input: ModernInput | undefined,
  ): Promise<ResponseOut | null> {
    try {
      let outcome: Outcome | typeof PENDING_INPUT;
      if (input) {
        running.then(undefined, () => {});
        // Let every ask made in the same turn (e.g. Promise.all) register before answering input_required.
        const pending = new Promise<typeof PENDING_INPUT>((resolve) => {
          input.onAsk = () => setImmediate(() => resolve(PENDING_INPUT));
          if (input.asked) input.onAsk();
        });
        outcome = await Promise.race([running, pending]);
      } else {
        outcome = await running;
      }
      return this.modernResponse(request, ctx, outcome, rule, definition, input);
    } catch (error) {
      if (isRequestAborted(ctx) && !(error instanceof ProtocolError)) return null;
      return this.errorResponse(request.id, error, revision, request.method);
    } finally {
      finishRequest(ctx);
      untrack?.();
    }
  }

  /** The response to a modern request, from what its handler produced (or the input it asked for). */
  private modernResponse(
    request: JsonRpcRequest,
    ctx: RequestContext,
    outcome: Outcome | typeof PENDING_INPUT,
    rule: ClientMethodRule,
    definition: ServerDefinition,
    input: ModernInput | undefined,
  ): ResponseOut | null {
    if (isRequestAborted(ctx) && outcome !== PENDING_INPUT) return null;
    if (outcome === null) return null;
    if (outcome === PENDING_INPUT) {
      abortRequest(ctx, new Error('input required'));
      const result: JsonObject = {
        resultType: 'input_required',
        inputRequests: input!.round.pending,
        requestState: sealRequestState(
          this.settings.secret,
          { answers: input!.round.consumed, state: ctx.state },
          { ...input!.binding(), ttlMs: this.settings.requestStateTtlMs },
        ),
      };
      return { json: serializeResult(request.id, this.finishModern(result, rule, definition)) };
    }
    if (outcome instanceof RawResult) return rawResponse(request.id, outcome);
    return { json: serializeResult(request.id, this.finishModern(outcome, rule, definition)) };
  }

  /**
   * A method as this server serves it at `revision`: its rule, its handler and the params that bind a
   * `requestState`; -32601 when the revision or the server's capabilities do not offer it. The tables are
   * read as own properties only: a method named `toString` or `__proto__` is unknown, not Object.prototype's.
   */
  private resolveMethod(
    revision: RevisionSpec,
    name: string,
    capabilities: ServerCapabilities,
  ): ResolvedMethod {
    let rule = Object.hasOwn(revision.clientRequests, name) ? revision.clientRequests[name] : undefined;
    let handler =
      name === 'server/discover'
        ? this.discoverHandler
        : Object.hasOwn(METHOD_HANDLERS, name)
          ? METHOD_HANDLERS[name]
          : undefined;
    if (handler === undefined) {
      const extended = this.extensions.method(name, revision);
      handler = extended?.handler;
      rule ??= extended?.rule;
    }
    if (!rule || !handler || (rule.capability && !hasCapability(capabilities, rule.capability)))
      throw ProtocolError.methodNotFound(name);
    const salientParams = Object.hasOwn(SALIENT_PARAMS, name) ? SALIENT_PARAMS[name]! : [];
    return { name, rule, handler: composeRequestMiddleware(this.middleware, handler), salientParams };
  }

  /**
   * Adds a middleware around every request and notification. Methods already resolved (per legacy session, per
   * definition and revision) are forgotten, so the next request composes the new chain.
   */
  use(middleware: Middleware): void {
    this.middleware = [...this.middleware, middleware];
    this.forgetResolvedMethods();
  }

  /** Adds a protocol extension; methods already resolved are forgotten, as for `use()`. */
  extend(extension: ServerExtension): void {
    this.extensions.add(extension);
    this.forgetResolvedMethods();
  }

  private forgetResolvedMethods(): void {
    this.modernMethods = new WeakMap();
    this.legacyMethods = new WeakMap();
  }

  /** Runs a received notification's built-in handling inside the middleware chain. */
  aroundNotification(
    notification: { method: string; params: JsonObject; revision: RevisionSpec },
    handle: (params: JsonObject) => void,
  ): void {
    const { method, params, revision } = notification;
    runNotificationMiddleware(
      this.middleware,
      { method, params, revision: revision.id, era: revision.era },
      handle,
      this.settings.report,
    );
  }

  private readonly discoverHandler: MethodHandler = (call) => this.discover(call.revision);

  /**
   * `resolveMethod` for a legacy session, remembered per session: its revision and capabilities are fixed at
   * `initialize`, so each method is resolved once per session, not once per request.
   */
  private legacyMethodFor(session: LegacySession, name: string): ResolvedMethod {
    let resolved = this.legacyMethods.get(session);
    if (resolved === undefined)
      this.legacyMethods.set(session, (resolved = { byName: new Map(), last: undefined }));
    // A client mostly repeats one method (a run of tools/call): check the last one before the map.
    const last = resolved.last;
    if (last !== undefined && last.name === name) return last;
    let method = resolved.byName.get(name);
    if (method === undefined) {
      // Checked here, on the way to the first lookup, rather than compared on every request.
      if (name === 'initialize')
        throw ProtocolError.invalidRequest('Invalid Request: the session is already initialized');
      method = this.resolveMethod(session.revision, name, session.capabilities);
      resolved.byName.set(name, method);
    }
    resolved.last = method;
    return method;
  }

  /**
   * Each method a legacy session has called, and the one it called last. Kept here rather than on the session,
   * so that the session knows nothing of dispatch (whose `Call` refers to the session); replaced as a whole to
   * forget every session's methods at once.
   */
  private legacyMethods = new WeakMap<
    LegacySession,
    { readonly byName: Map<string, ResolvedMethod>; last: ResolvedMethod | undefined }
  >();

  /**
   * `resolveMethod` for the modern era, remembered per definition and revision: a request names its method as
   * a fresh string, and looking that up as a property key costs a string-table probe every time (more than the
   * rest of the dispatch), where a `Map` only hashes it. Only methods that exist are remembered.
   */
  private modernMethodFor(
    definition: ServerDefinition,
    revision: RevisionSpec,
    name: string,
  ): ResolvedMethod {
    let perRevision = this.modernMethods.get(definition);
    if (!perRevision) this.modernMethods.set(definition, (perRevision = new Map()));
    let methods = perRevision.get(revision);
    if (!methods) perRevision.set(revision, (methods = new Map()));
    let method = methods.get(name);
    if (method === undefined) {
      method = this.resolveMethod(revision, name, capabilitiesFor(definition, revision));
      methods.set(name, method);
    }
    return method;
  }

  private modernMethods = new WeakMap<ServerDefinition, Map<RevisionSpec, Map<string, ResolvedMethod>>>();

  private discover(revision: RevisionSpec): Outcome {
    const definition = this.definition;
    const result: JsonObject = {
      supportedVersions: newestFirst(definition.revisions),
      capabilities: capabilitiesFor(definition, revision),
    };
    if (definition.instructions !== undefined) result.instructions = definition.instructions;
    return result;
  }

  private serverInfoJson(definition: ServerDefinition): string {
    return JSON.stringify(implementationFor(definition, REVISION_SPECS['2026-07-28']));
  }

  /** The JSON appended to modern list results: resultType, cache hints and serverInfo. */
  private listEnvelope(revision: RevisionSpec, definition: ServerDefinition, scope: CacheScope): string {
    if (revision.era !== 'modern') return '';
    const key = `${definition.version}|${revision.id}|${scope}`;
    let json = this.envelopeCache.get(key);
    if (json === undefined) {
      const hint = this.settings.listCache;
      json = `,"resultType":"complete","ttlMs":${hint.ttlMs},"cacheScope":"${scope === 'private' ? 'private' : hint.scope}"`;
      if (this.settings.serverInfoInResults) {
        json += `,"_meta":{"${MetaKey.serverInfo}":${this.serverInfoJson(definition)}}`;
      }
      if (this.envelopeCache.size > 64) this.envelopeCache.clear();
      this.envelopeCache.set(key, json);
    }
    return json;
  }

  /** One settings object per definition and revision, shared by their requests (not rebuilt per request). */
  private methodSettings(revision: RevisionSpec, definition: ServerDefinition): MethodSettings {
    // Consecutive requests nearly always share both: answer them without the two lookups.
    const last = this.lastSettings;
    if (last?.revision === revision && last.definition === definition) return last.settings;
    let perRevision = this.settingsCache.get(definition);
    if (!perRevision) this.settingsCache.set(definition, (perRevision = new Map()));
    let settings = perRevision.get(revision);
    if (!settings) {
      settings = {
        pageSize: this.settings.pageSize,
        secret: this.settings.secret,
        envelope: (scope) => this.listEnvelope(revision, definition, scope),
        extensions: this.extensions,
      };
      perRevision.set(revision, settings);
    }
    this.lastSettings = { revision, definition, settings };
    return settings;
  }

  private lastSettings:
    { revision: RevisionSpec; definition: ServerDefinition; settings: MethodSettings } | undefined;

  private readonly settingsCache = new WeakMap<ServerDefinition, Map<RevisionSpec, MethodSettings>>();

  /** Adds the modern envelope: resultType, cache hints on cacheable results, serverInfo. */
  private finishModern(outcome: Outcome, rule: ClientMethodRule, definition: ServerDefinition): string {
    if (outcome instanceof RawResult) return outcome.json;
    const body = outcome as JsonObject;
    if (
      body.resultType === undefined &&
      body._meta === undefined &&
      !rule.cacheable &&
      this.settings.serverInfoInResults &&
      (body instanceof TextToolResult || Object.getPrototypeOf(body) === Object.prototype)
    ) {
      // The common case (a tool result): the envelope is appended to the body's JSON, no copy of the body.
      const json = resultJson(body);
      const open = json === '{}' ? '{' : `${json.slice(0, -1)},`;
      return `${open}"resultType":"complete","_meta":${this.serverInfoMetaJson(definition)}}`;
    }
    const result: JsonObject = { ...body };
    const resultType = body.resultType ?? 'complete';
    result.resultType = resultType;
    if (resultType === 'input_required' && !rule.inputRequired) {
      throw ProtocolError.internal('input_required is not allowed for this method');
    }
    if (resultType === 'complete' && rule.cacheable) {
      const hint =
        body.contents !== undefined
          ? this.settings.readCache
          : body.supportedVersions !== undefined
            ? this.settings.discoverCache
            : this.settings.listCache;
      if (result.ttlMs === undefined) result.ttlMs = hint.ttlMs;
      if (result.cacheScope === undefined) result.cacheScope = hint.scope;
    }
    if (this.settings.serverInfoInResults) {
      if (body._meta === undefined) {
        // The common case: the `_meta` holding only serverInfo is JSON made once per definition, appended.
        const json = JSON.stringify(result);
        return `${json.slice(0, -1)},"_meta":${this.serverInfoMetaJson(definition)}}`;
      }
      const meta = isObject(body._meta) ? body._meta : {};
      result._meta = {
        ...meta,
        [MetaKey.serverInfo]: implementationFor(definition, REVISION_SPECS['2026-07-28']),
      };
    }
    return JSON.stringify(result);
  }

  /** `{"io.modelcontextprotocol/serverInfo":…}` for a definition, cached for the current one. */
  private serverInfoMetaJson(definition: ServerDefinition): string {
    if (this.serverInfoMeta?.definition !== definition) {
      this.serverInfoMeta = {
        definition,
        json: `{${JSON.stringify(MetaKey.serverInfo)}:${this.serverInfoJson(definition)}}`,
      };
    }
    return this.serverInfoMeta.json;
  }

  private serverInfoMeta: { definition: ServerDefinition; json: string } | undefined;

  private listenHooks(id: RequestId, outbox: Outbox, ctx: RequestContext): ListenHooks {
    return {
      outbox,
      open: (_requested: SubscriptionFilter, agreed: SubscriptionFilter) =>
        new Promise<JsonObject | null>((resolve) => {
          if (this.closed) {
            resolve({ _meta: { [MetaKey.subscriptionId]: id } });
            return;
          }
          const listener: Listener = { id, filter: agreed, outbox };
          outbox.send(
            taggedNotification('notifications/subscriptions/acknowledged', id, { notifications: agreed }),
          );
          this.broadcaster.listeners.add(listener);
          const end = (result: JsonObject | null) => {
            this.broadcaster.listeners.delete(listener);
            this.openListens.delete(ctx);
            resolve(result);
          };
          const graceful = () => end({ _meta: { [MetaKey.subscriptionId]: id } });
          this.openListens.set(ctx, graceful);
          ctx.signal.addEventListener('abort', () => end(null), { once: true });
        }),
    };
  }

  // ── legacy era ──────────────────────────────────────────────────────────────────────────────────────

  /** Answers `initialize`. On success the returned session is the new legacy session. */
  openLegacySession(
    request: JsonRpcRequest,
    defaultOutbox: Outbox,
  ): { session: LegacySession | undefined; response: ResponseOut } {
    const params = request.params ?? {};
    const legacy = this.legacyRevisions;
    const requested = params.protocolVersion;
    const versionError = (why: string) =>
      this.errorResponse(
        request.id,
        new ProtocolError(ErrorCode.InvalidParams, why, {
          supported: legacy.length > 0 ? legacy : this.modernRevisions,
          requested: requested ?? null,
        }),
        undefined,
        'initialize',
      );
    if (legacy.length === 0) {
      return {
        session: undefined,
        response: versionError('Unsupported protocol version: this server does not accept initialize'),
      };
    }
    if (typeof requested !== 'string' || requested.length === 0) {
      return {
        session: undefined,
        response: versionError('Invalid params: "protocolVersion" must be a string'),
      };
    }
    if (!isObject(params.capabilities)) {
      return {
        session: undefined,
        response: this.errorResponse(
          request.id,
          ProtocolError.invalidParams('Invalid params: "capabilities" must be an object'),
          undefined,
          'initialize',
        ),
      };
    }
    const info = params.clientInfo;
    if (!isObject(info) || typeof info.name !== 'string' || typeof info.version !== 'string') {
      return {
        session: undefined,
        response: this.errorResponse(
          request.id,
          ProtocolError.invalidParams('Invalid params: "clientInfo" must have string "name" and "version"'),
          undefined,
          'initialize',
        ),
      };
    }
    // Answer the requested revision when supported, else the newest we support (the client may then disconnect).
    const chosen: Revision = isRevision(requested) && legacy.includes(requested) ? requested : legacy[0]!;
    const revision = REVISION_SPECS[chosen];
    const definition = this.definition;
    const capabilities = capabilitiesFor(definition, revision);
    const session = new LegacySession(
      revision,
      { info: info as unknown as Implementation, capabilities: params.capabilities as ClientCapabilities },
      capabilities,
      defaultOutbox,
    );
    this.broadcaster.sessions.add(session);
    session.onClose(() => this.broadcaster.sessions.delete(session));
    const result: JsonObject = {
      protocolVersion: chosen,
      capabilities,
      serverInfo: implementationFor(definition, revision),
    };
    if (definition.instructions !== undefined) result.instructions = definition.instructions;
    return { session, response: { json: serializeResult(request.id, JSON.stringify(result)) } };
  }

  /**
   * Brings back a legacy session opened by another process of a scaled-out server, from its snapshot. Undefined
   * when this server does not speak the session's revision (a node of another version).
   */
  restoreLegacySession(
    snapshot: LegacySessionSnapshot,
    defaultOutbox: Outbox,
    firstOutgoingId?: number,
  ): LegacySession | undefined {
    const chosen = snapshot.revision;
    if (!isRevision(chosen) || !this.legacyRevisions.includes(chosen)) return undefined;
    const revision = REVISION_SPECS[chosen];
    const session = new LegacySession(
      revision,
      snapshot.client,
      capabilitiesFor(this.definition, revision),
      defaultOutbox,
      firstOutgoingId === undefined ? { id: snapshot.id } : { id: snapshot.id, firstOutgoingId },
    );
    session.apply(snapshot);
    this.broadcaster.sessions.add(session);
    session.onClose(() => this.broadcaster.sessions.delete(session));
    return session;
  }

  /**
   * Serves one request of a legacy session. Synchronous when the method's handler is (a synchronous tool, a list
   * page): a stream of such requests then costs no promise and no microtask turn per request.
   */
  handleLegacy(
    session: LegacySession,
    request: JsonRpcRequest,
    env: RequestEnv,
  ): ResponseOut | null | Promise<ResponseOut | null> {
    const revision = session.revision;
    let ctx: RequestContext | undefined;
    try {
      // Only asynchronous requests are registered: the map is empty for a client making synchronous calls.
      if (session.inflight.size !== 0 && session.inflight.has(request.id)) {
        throw ProtocolError.invalidRequest(
          `Invalid Request: request id ${JSON.stringify(request.id)} is already in use`,
        );
      }
      const { handler } = this.legacyMethodFor(session, request.method);
      const definition = this.definition;
      const params = request.params ?? {};
      const io = session.ioFor(env.outbox, this.settings.inputTimeoutMs);
      ctx = new RequestContext({
        requestId: request.id,
        method: request.method,
        revision: revision.id,
        era: 'legacy',
        client: session.client,
        params,
        io,
        progressToken: readProgressToken(params),
        auth: env.auth,
        sessionId: session.id,
        transport: env.transport,
      });
      const call: Call = {
        id: request.id,
        method: request.method,
        params,
        ctx,
        revision,
        definition,
        settings: this.methodSettings(revision, definition),
        session,
        legacy: io,
      };
      const outcome = handler(call);
      if (isPromiseLike(outcome)) return this.settleLegacy(session, request, ctx, env, outcome);
      const response = this.legacyResponse(request.id, ctx, outcome);
      finishRequest(ctx);
      return response;
    } catch (error) {
      // Thrown before the handler ran, by it (synchronously), or while serializing its result.
      finishRequest(ctx);
      return this.legacyFailure(request, ctx, error, revision);
    }
  }

  /** The rest of a request whose handler returned a promise. */
  private async settleLegacy(
    session: LegacySession,
    request: JsonRpcRequest,
    ctx: RequestContext,
    env: RequestEnv,
    outcome: PromiseLike<Outcome>,
  ): Promise<ResponseOut | null> {
    let untrack: (() => void) | undefined;
    try {
      // Only a request still running can be cancelled or collide with a reused id: track it from here on.
      session.inflight.set(request.id, ctx);
      untrack = env.track?.(request.id, ctx);
      return this.legacyResponse(request.id, ctx, await outcome);
    } catch (error) {
      return this.legacyFailure(request, ctx, error, session.revision);
    } finally {
      finishRequest(ctx);
      if (session.inflight.get(request.id) === ctx) session.inflight.delete(request.id);
      untrack?.();
    }
  }

  private legacyResponse(id: RequestId, ctx: RequestContext, outcome: Outcome): ResponseOut | null {
    if (isRequestAborted(ctx) || outcome === null) return null;
    if (outcome instanceof RawResult) return rawResponse(id, outcome);
    if ((outcome as JsonObject).resultType === 'input_required') {
      throw ProtocolError.internal(
        'input_required results exist only from 2026-07-28; use ctx.elicit() and friends',
      );
    }
    return { json: serializeResult(id, resultJson(outcome)) };
  }

  private legacyFailure(
    request: JsonRpcRequest,
    ctx: RequestContext | undefined,
    error: unknown,
    revision: RevisionSpec,
  ): ResponseOut | null {
    if (isRequestAborted(ctx) && !(error instanceof ProtocolError)) return null;
    return this.errorResponse(request.id, error, revision, request.method);
  }

  handleLegacyNotification(session: LegacySession, notification: JsonRpcNotification): void {
    const params = notification.params ?? {};
    if (this.middleware.length === 0) this.legacyNotification(session, notification.method, params);
    else
      this.aroundNotification({ method: notification.method, params, revision: session.revision }, (passed) =>
        this.legacyNotification(session, notification.method, passed),
      );
  }

  private legacyNotification(session: LegacySession, method: string, params: JsonObject): void {
    switch (method) {
      case 'notifications/initialized':
        session.initialized = true;
        return;
      case 'notifications/cancelled': {
        const ctx = session.inflight.get(params.requestId as RequestId);
        abortRequest(
          ctx,
          new RequestAbortedError(
            'cancelled',
            typeof params.reason === 'string' ? params.reason : 'cancelled by client',
          ),
        );
        return;
      }
      case 'notifications/progress':
        if (
          typeof params.progress === 'number' &&
          (typeof params.progressToken === 'string' || typeof params.progressToken === 'number')
        ) {
          session.outgoing.progress(params as unknown as ProgressParams, session.defaultOutbox);
        }
        return;
      case 'notifications/roots/list_changed':
        this.settings.onRootsListChanged?.(session);
        return;
      default:
        // Unknown notifications are ignored, as JSON-RPC requires (they are never answered).
        return;
    }
  }

  handleLegacyResponse(session: LegacySession, response: JsonRpcResponse): boolean {
    return session.outgoing.settle(response);
  }

  /** Ends one open subscription with its final result (server-initiated teardown). False if it is not open. */
  endSubscription(ctx: RequestContext): boolean {
    const end = this.openListens.get(ctx);
    end?.();
    return end !== undefined;
  }

  /** Ends open subscriptions gracefully (a final result) and stops accepting new ones. */
  close(): void {
    this.closed = true;
    for (const end of [...this.openListens.values()]) end();
  }
}

function pick(params: JsonObject, keys: readonly string[]): JsonObject {
  const out: JsonObject = {};
  for (const key of keys) if (params[key] !== undefined) out[key] = params[key];
  return out;
}

/** Modern-era plumbing: notifications on the request's stream, input through multi-round-trip results. */
class ModernIO implements RequestIO {
  readonly progressMessage = true;

  constructor(
    private readonly outbox: Outbox,
    readonly logLevel: LoggingLevel | undefined,
    private readonly round: InputRound | undefined,
    private readonly capabilities: ClientCapabilities,
    private readonly method: string,
  ) {}

  notify(method: string, params: JsonObject): void {
    this.outbox.send(serializeNotification(method, params));
  }

  input(request: InputRequest, options: InputOptions): Promise<InputResponse> {
    if (!this.round) {
      return Promise.reject(
        new Error(
          `${this.method} cannot ask the client for input (only tools/call, prompts/get and resources/read can)`,
        ),
      );
    }
    try {
      const key = options.key ?? this.round.autoKey(request.method);
      // 2026-07-28 removed elicitationId from URL-mode elicitation (requestState correlates instead).
      if (
        request.method === 'elicitation/create' &&
        request.params.mode === 'url' &&
        'elicitationId' in request.params
      ) {
        const { elicitationId: _dropped, ...params } = request.params;
        request = { method: 'elicitation/create', params };
      }
      return this.round.ask(key, request, this.capabilities);
    } catch (error) {
      return Promise.reject(error);
    }
  }
}
