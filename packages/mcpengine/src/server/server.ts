/**
 * `McpServer`: what a server offers (tools, resources, prompts) and the entry point for transports.
 *
 * Registration compiles each feature once. The server publishes an immutable `ServerDefinition` snapshot that
 * every connection and request reads; runtime changes swap the snapshot and notify listeners.
 */
import { REVISIONS, type Revision } from '../protocol/revisions.js';
import { LOGGING_LEVELS } from '../protocol/types.js';
import type {
  Icon,
  Implementation,
  JsonObject,
  LoggingLevel,
  ServerCapabilities,
} from '../protocol/types.js';
import type { Transport } from '../transports/transport.js';
import { ServerConnection, type ConnectionOptions } from './connection.js';
import { ServerCore, type ServerCoreSettings } from './core.js';
import { buildDefinition, type ServerDefinition } from './definition.js';
import { compilePrompt, type CompiledPrompt, type PromptConfig } from './features/prompts.js';
import {
  compileResource,
  compileTemplate,
  type CacheHint,
  type CompiledResource,
  type CompiledTemplate,
  type ResourceConfig,
  type ResourceTemplateConfig,
} from './features/resources.js';
import { compileTool, type CompiledTool, type ToolConfig } from './features/tools.js';
import type { LegacySession } from './legacy-session.js';
import type { Middleware } from './middleware.js';
import { ServerSecret } from './secret.js';
import type { ServerExtension } from './extension.js';
import { TaskEngine, tasksExtension, type TaskOptions } from './tasks/index.js';

export interface ServerOptions {
  name: string;
  version: string;
  title?: string;
  description?: string;
  websiteUrl?: string;
  icons?: Icon[];
  /** Guidance for the model on how to use this server. */
  instructions?: string;
  /** Revisions to serve. Default: all of them, both eras. */
  revisions?: readonly Revision[];
  /**
   * Capabilities to advertise beyond what the registered features imply (for features added later, logging,
   * experimental and extensions). Tools, resources and prompts are advertised as soon as one is registered.
   */
  capabilities?: ServerCapabilities;
  /** Advertise and allow `notifications/message` logging. Default true. */
  logging?: boolean;
  /** Items per list page. Default 100. */
  pageSize?: number;
  /** Keys cursors and requestState. Give every instance of a load-balanced server the same secret. */
  secret?: string | Uint8Array;
  /** Modern-era cache hints. Defaults: lists 60 s public, reads 0 private, discover 300 s public. */
  cache?: { lists?: CacheHint; reads?: CacheHint; discover?: CacheHint };
  /** Modern era: identify the server in every result's `_meta`. Default true. */
  serverInfoInResults?: boolean;
  /** Modern era: lifetime of a requestState. Default 10 minutes. */
  requestStateTtlMs?: number;
  /** Legacy era: how long ctx.elicit()/sample()/listRoots() wait for the client. Default 5 minutes. */
  inputTimeoutMs?: number;
  /** Receives internal errors (answered to clients as a generic -32603). Default: a line on stderr. */
  onError?: (error: unknown, where: string) => void;
  /** Long-running requests (tasks): store, retention, limits. Tasks are on when a tool allows them. */
  tasks?: TaskOptions;
}

// Assigned by McpServer's static block, declared first: the block runs when the class is evaluated.
let readCore!: (server: McpServer) => ServerCore;

/** A registered feature: switch it on and off, replace it, or remove it at runtime. */
export interface FeatureHandle<Config> {
  readonly enabled: boolean;
  enable(): void;
  disable(): void;
  update(config: Config): void;
  remove(): void;
}

type Kind = 'tools' | 'resources' | 'templates' | 'prompts';

interface Entry<Compiled> {
  compiled: Compiled;
  enabled: boolean;
}

export class McpServer {
  private readonly options: ServerOptions;
  private readonly entries = {
    tools: new Map<string, Entry<CompiledTool>>(),
    resources: new Map<string, Entry<CompiledResource>>(),
    templates: new Map<string, Entry<CompiledTemplate>>(),
    prompts: new Map<string, Entry<CompiledPrompt>>(),
  };
  private snapshot: ServerDefinition | undefined;
  private version = 0;
  private readonly connections = new Set<ServerConnection>();
  /**
   * The transport-independent protocol core. Private: the HTTP handler and the resource server reach it through
   * `coreOf` (an engine-internal function no entry point exports).
   */
  private readonly core: ServerCore;

  static {
    readCore = (server) => server.core;
  }

  constructor(options: ServerOptions) {
    if (!options?.name || !options.version) throw new TypeError('McpServer needs a name and a version');
    const revisions = options.revisions ?? REVISIONS;
    for (const revision of revisions) {
      if (!REVISIONS.includes(revision))
        throw new TypeError(`Unknown protocol revision: ${String(revision)}`);
    }
    this.options = { ...options, revisions };
    const report =
      options.onError ??
      ((error: unknown, where: string) => {
        const detail = error instanceof Error ? (error.stack ?? error.message) : String(error);
        console.error(`[mcpengine] internal error in ${where}: ${detail}`);
      });
    const settings: ServerCoreSettings = {
      pageSize: options.pageSize ?? 100,
      secret: new ServerSecret(options.secret),
      listCache: options.cache?.lists ?? { ttlMs: 60_000, scope: 'public' },
      readCache: options.cache?.reads ?? { ttlMs: 0, scope: 'private' },
      discoverCache: options.cache?.discover ?? { ttlMs: 300_000, scope: 'public' },
      serverInfoInResults: options.serverInfoInResults ?? true,
      requestStateTtlMs: options.requestStateTtlMs ?? 600_000,
      inputTimeoutMs: options.inputTimeoutMs ?? 300_000,
      report,
      onRootsListChanged: (session) => this.rootsListeners.forEach((listener) => listener(session)),
    };
    if (settings.pageSize < 1 || !Number.isInteger(settings.pageSize))
      throw new TypeError('pageSize must be a positive integer');
    this.core = new ServerCore(this, settings);
    // Tasks are built in: their capabilities appear when a tool allows them.
    const tasks = new TaskEngine(options.tasks, { listeners: () => this.core.broadcaster.listeners, report });
    this.extend(tasksExtension(tasks));
  }

  private readonly rootsListeners = new Set<(session: LegacySession) => void>();

  /** The current immutable definition. */
  get definition(): ServerDefinition {
    return (this.snapshot ??= this.buildSnapshot());
  }

  // ── registration ────────────────────────────────────────────────────────────────────────────────────

  addTool<Args = JsonObject>(config: ToolConfig<Args>): FeatureHandle<ToolConfig<Args>> {
    return this.register('tools', config.name, compileTool(config), compileTool);
  }

  addResource(config: ResourceConfig): FeatureHandle<ResourceConfig> {
    return this.register('resources', config.uri, compileResource(config), compileResource);
  }

  addResourceTemplate(config: ResourceTemplateConfig): FeatureHandle<ResourceTemplateConfig> {
    return this.register('templates', config.uriTemplate, compileTemplate(config), compileTemplate);
  }

  addPrompt(config: PromptConfig): FeatureHandle<PromptConfig> {
    return this.register('prompts', config.name, compilePrompt(config), compilePrompt);
  }

  private register<Config, Compiled>(
    kind: Kind,
    key: string,
    compiled: Compiled,
    compile: (config: Config) => Compiled,
  ): FeatureHandle<Config> {
    const map = this.entries[kind] as Map<string, Entry<Compiled>>;
    if (map.has(key)) throw new TypeError(`Duplicate ${kind.slice(0, -1)}: ${key}`);
    const entry: Entry<Compiled> = { compiled, enabled: true };
    map.set(key, entry);
    this.changed(kind);
    let removed = false;
    const live = () => {
      if (removed) throw new Error(`${key} was removed`);
    };
    return {
      get enabled() {
        return entry.enabled && !removed;
      },
      enable: () => {
        live();
        if (!entry.enabled) {
          entry.enabled = true;
          this.changed(kind);
        }
      },
      disable: () => {
        live();
        if (entry.enabled) {
          entry.enabled = false;
          this.changed(kind);
        }
      },
      update: (config: Config) => {
        live();
        const next = compile(config);
        const nextKey = keyOf(kind, next);
        if (nextKey !== key)
          throw new TypeError(`update() cannot rename ${key}; remove it and add a new one`);
        entry.compiled = next;
        this.changed(kind);
      },
      remove: () => {
        if (removed) return;
        removed = true;
        map.delete(key);
        this.changed(kind);
      },
    };
  }

  private changed(kind: Kind): void {
    this.snapshot = undefined;
    // Nobody can have seen a list before the first snapshot, so there is nothing to invalidate yet.
    if (this.version > 0) this.core.broadcaster.listChanged(kind === 'templates' ? 'resources' : kind);
  }

  private buildSnapshot(): ServerDefinition {
    const enabled = <T>(map: Map<string, Entry<T>>) =>
      [...map.values()].filter((e) => e.enabled).map((e) => e.compiled);
    const tools = enabled(this.entries.tools);
    const resources = enabled(this.entries.resources);
    const templates = enabled(this.entries.templates);
    const prompts = enabled(this.entries.prompts);
    const info: Implementation = { name: this.options.name, version: this.options.version };
    for (const key of ['title', 'description', 'websiteUrl', 'icons'] as const) {
      if (this.options[key] !== undefined) (info as unknown as JsonObject)[key] = this.options[key];
    }
    return buildDefinition({
      version: ++this.version,
      info,
      instructions: this.options.instructions,
      capabilities: this.capabilities(),
      revisions: this.options.revisions ?? REVISIONS,
      tools,
      resources,
      templates,
      prompts,
    });
  }

  /** Capabilities follow what was ever registered, so they stay stable while features are toggled. */
  private capabilities(): ServerCapabilities {
    const declared = this.options.capabilities ?? {};
    const caps: ServerCapabilities = { ...declared };
    const any = (kind: Kind) => this.entries[kind].size > 0;
    if (any('tools') || declared.tools) caps.tools = { listChanged: true, ...declared.tools };
    if (any('prompts') || declared.prompts) caps.prompts = { listChanged: true, ...declared.prompts };
    if (any('resources') || any('templates') || declared.resources) {
      caps.resources = { subscribe: true, listChanged: true, ...declared.resources };
    }
    if (this.options.logging !== false) caps.logging = declared.logging ?? {};
    const completers =
      [...this.entries.prompts.values()].some((e) => e.compiled.completers.size > 0) ||
      [...this.entries.templates.values()].some((e) => e.compiled.config.complete !== undefined);
    if (completers || declared.completions) caps.completions = declared.completions ?? {};
    const tools = [...this.entries.tools.values()].map((e) => e.compiled);
    return this.core.extensions.capabilities(caps, { tools, declared });
  }

  // ── middleware ──────────────────────────────────────────────────────────────────────────────────────

  /**
   * Runs `middleware` around every request and notification this server receives (after `initialize`), in
   * registration order: the first one added is the outermost. See `Middleware` for what it may do.
   */
  use(middleware: Middleware): this {
    if (typeof middleware !== 'function') throw new TypeError('use() needs a middleware function');
    this.core.use(middleware);
    return this;
  }

  // ── extensions ──────────────────────────────────────────────────────────────────────────────────────

  /**
   * Installs a protocol extension: its capabilities, methods and gates (see `ServerExtension`). The tasks
   * extension is installed by every server.
   */
  extend(extension: ServerExtension): this {
    this.core.extend(extension);
    this.snapshot = undefined;
    return this;
  }

  /** The installed extension with this id, if any. */
  extension(id: string): ServerExtension | undefined {
    return this.core.extensions.get(id);
  }

  // ── notifications ───────────────────────────────────────────────────────────────────────────────────

  /** Tells subscribers (legacy `resources/subscribe`, modern listen streams) that a resource changed. */
  notifyResourceUpdated(uri: string): void {
    this.core.broadcaster.resourceUpdated(uri);
  }

  /** Server-wide log message to every legacy session whose level lets it through (the modern era logs per request). */
  log(level: LoggingLevel, data: unknown, logger?: string): void {
    for (const session of this.core.broadcaster.sessions) {
      const s = session as LegacySession;
      if (!s.initialized || !s.capabilities.logging) continue;
      if (LOGGING_LEVELS.indexOf(level) < LOGGING_LEVELS.indexOf(s.logLevel ?? 'debug')) continue;
      s.notify('notifications/message', logger === undefined ? { level, data } : { level, data, logger });
    }
  }

  /** Called when a legacy client reports that its roots changed. */
  onRootsListChanged(listener: (session: LegacySession) => void): () => void {
    this.rootsListeners.add(listener);
    return () => this.rootsListeners.delete(listener);
  }

  // ── transports ──────────────────────────────────────────────────────────────────────────────────────

  /** Serves one message-stream transport (stdio, in-memory, a socket). */
  async connect(transport: Transport, options?: ConnectionOptions): Promise<ServerConnection> {
    const connection = new ServerConnection(this.core, transport, options);
    this.connections.add(connection);
    void connection.closed.then(() => this.connections.delete(connection));
    await connection.start();
    return connection;
  }

  /**
   * Graceful shutdown: ends listen subscriptions with a final result, lets in-flight requests finish (up to
   * `drainTimeoutMs`, default 2 s), then closes every connection.
   */
  async close(options: { drainTimeoutMs?: number } = {}): Promise<void> {
    this.core.close();
    this.core.extensions.close();
    const connections = [...this.connections];
    await Promise.all(connections.map((c) => c.drain(options.drainTimeoutMs ?? 2_000)));
    await Promise.all(connections.map((c) => c.close()));
  }
}

/** Engine-internal: the protocol core behind a server (for the HTTP handler and the resource server). */
export function coreOf(server: McpServer): ServerCore {
  return readCore(server);
}

function keyOf(kind: Kind, compiled: unknown): string {
  switch (kind) {
    case 'tools':
    case 'prompts':
      return (compiled as CompiledTool).name;
    case 'resources':
      return (compiled as CompiledResource).uri;
    case 'templates':
      return (compiled as CompiledTemplate).uriTemplate;
  }
}
