/**
 * The one module that talks to the engine's client API (`mcpengine/client`). Everything else in the runner
 * uses `McpSession`, so a change of the client's shape (sessions returned by `connect`) is a change here only.
 */
import {
  Client,
  RemoteError,
  RequestAbortedError,
  type ClientHandlers,
  type ClientSession,
} from 'mcpengine/client';
import type { Transport } from 'mcpengine';
import type { JsonObject, ListKind, Revision } from '../model.js';

export { RemoteError, RequestAbortedError };

export interface SessionOptions {
  readonly handlers: ClientHandlers;
  readonly revision: Revision | 'auto';
  readonly timeoutMs: number;
}

export interface RequestSettings {
  readonly timeoutMs: number;
  readonly onProgress?: (progress: { progress: number; total?: number; message?: string }) => void;
  readonly logLevel?: string;
}

const LIST_METHODS: Record<ListKind, [string, string]> = {
  tools: ['tools/list', 'tools'],
  resources: ['resources/list', 'resources'],
  resourceTemplates: ['resources/templates/list', 'resourceTemplates'],
  prompts: ['prompts/list', 'prompts'],
};

const MAX_PAGES = 1000;

/** A connected client: the negotiated revision and the calls the runner makes. */
export class McpSession {
  readonly #client: ClientSession;

  private constructor(client: ClientSession) {
    this.#client = client;
  }

  static async connect(transport: Transport, options: SessionOptions): Promise<McpSession> {
    const client = new Client({
      name: 'mcpengine-test',
      version: '0.1.0',
      handlers: options.handlers,
      requestTimeoutMs: options.timeoutMs,
      // A test asks for what it means to test: no automatic task polling surprises.
      tasks: { receive: false },
    });
    const session = await client.connect(transport, {
      revision: options.revision,
      probeTimeoutMs: Math.min(options.timeoutMs, 5_000),
    });
    return new McpSession(session);
  }

  get revision(): Revision {
    return this.#client.revision as Revision;
  }

  get era(): 'legacy' | 'modern' {
    return this.#client.era;
  }

  get serverCapabilities(): JsonObject {
    return this.#client.serverCapabilities as JsonObject;
  }

  get serverInfo(): JsonObject | undefined {
    return this.#client.serverInfo as JsonObject | undefined;
  }

  #options(settings: RequestSettings): JsonObject {
    const meta =
      settings.logLevel !== undefined && this.era === 'modern'
        ? { meta: { 'io.modelcontextprotocol/logLevel': settings.logLevel } }
        : {};
    return {
      timeoutMs: settings.timeoutMs,
      maxTotalTimeoutMs: settings.timeoutMs,
      resetTimeoutOnProgress: false,
      cache: false,
      ...(settings.onProgress === undefined ? {} : { onProgress: settings.onProgress }),
      ...meta,
    };
  }

  /** Sends `method`; resolves with the raw result (modern envelope included). */
  request(method: string, params: JsonObject, settings: RequestSettings): Promise<JsonObject> {
    if (method === 'tools/call')
      return this.#client.callTool(params as never, this.#options(settings)) as Promise<JsonObject>;
    return this.#client.request(method, params, this.#options(settings));
  }

  async listAll(kind: ListKind, settings: RequestSettings): Promise<JsonObject[]> {
    const [method, field] = LIST_METHODS[kind];
    const items: JsonObject[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < MAX_PAGES; page++) {
      const result = await this.request(method, cursor === undefined ? {} : { cursor }, settings);
      const list = result[field];
      if (Array.isArray(list)) items.push(...(list as JsonObject[]));
      cursor = typeof result['nextCursor'] === 'string' ? result['nextCursor'] : undefined;
      if (cursor === undefined) return items;
    }
    throw new Error(`${method}: more than ${MAX_PAGES} pages`);
  }

  async setLogLevel(level: string, settings: RequestSettings): Promise<void> {
    if (this.era === 'legacy') await this.#client.setLogLevel(level as never, this.#options(settings));
  }

  onNotification(method: string, handler: (params: JsonObject) => void): () => void {
    return this.#client.onNotification(method, handler);
  }

  /** Subscribes to a resource's updates: `resources/subscribe` (legacy) or a `subscriptions/listen` stream (modern). */
  async subscribe(
    uri: string,
    onUpdate: (params: JsonObject) => void,
    settings: RequestSettings,
  ): Promise<() => Promise<void>> {
    if (this.era === 'legacy') {
      const off = this.#client.onNotification('notifications/resources/updated', (params) => {
        if (params['uri'] === uri) onUpdate(params);
      });
      await this.#client.subscribeResource(uri, this.#options(settings));
      return async () => {
        off();
        await this.#client.unsubscribeResource(uri, this.#options(settings)).catch(() => {});
      };
    }
    const subscription = this.#client.listen({ resourceSubscriptions: [uri] } as never, (method, params) => {
      if (method === 'notifications/resources/updated') onUpdate(params);
    });
    await subscription.acknowledged;
    return async () => {
      subscription.close();
      await subscription.ended;
    };
  }

  close(): Promise<void> {
    return this.#client.close();
  }
}
