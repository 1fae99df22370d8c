/**
 * `@mcpengine/apps-view`: the view half of MCP Apps (`io.modelcontextprotocol/ui`), for a page running in the
 * host's iframe. JSON-RPC 2.0 over `postMessage` with the host window only (messages from any other window are
 * ignored). Register handlers, then `connect()`: it sends `ui/initialize`, applies the host's theme and style
 * variables, sends `ui/notifications/initialized` and starts reporting size changes. The last tool input and
 * result are kept, so a handler registered late still receives them.
 *
 * Protocol: the Apps specification 2026-01-26 (SEP-1865); wire-compatible with `@modelcontextprotocol/ext-apps`.
 */
import {
  APPS_METHODS,
  APPS_PROTOCOL_VERSION,
  type AppActionResult,
  type AppCapabilities,
  type AppDisplayMode,
  type HostCapabilities,
  type HostContext,
  type InitializeResult,
  type SizeChangedParams,
  type ToolCancelledParams,
  type ToolInputParams,
  type UpdateModelContextParams,
} from 'mcpengine/apps/protocol';
import type { CallToolResult, ContentBlock, Implementation, ReadResourceResult } from 'mcpengine/protocol';
import { browser, type BridgeMessageEvent, type HostWindow, type StyleTarget } from './dom.js';

export { APPS_METHODS, APPS_PROTOCOL_VERSION } from 'mcpengine/apps/protocol';
export type * from 'mcpengine/apps/protocol';
export type { HostWindow, StyleTarget } from './dom.js';

/** An error answer from the host (or a refusal by this bridge), with the JSON-RPC code. */
export class AppRequestError extends Error {
  constructor(
    message: string,
    readonly code: number,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = 'AppRequestError';
  }
}

export interface AppViewEvents {
  /** The complete tool arguments (at most once per render). */
  toolinput: ToolInputParams;
  /** Best-effort partial arguments while the model streams them. */
  toolinputpartial: ToolInputParams;
  /** The tool's `CallToolResult`. */
  toolresult: CallToolResult;
  /** The tool call was cancelled. */
  toolcancelled: ToolCancelledParams;
  /** The host context changed; the argument is the change, `view.hostContext` the merged context. */
  hostcontextchanged: Partial<HostContext>;
}

type Handler<T> = (value: T) => void;

export interface AppViewOptions {
  /** What the view offers the host (display modes it supports …). */
  capabilities?: AppCapabilities;
  /** Report the document's size to the host whenever it changes (ResizeObserver). Default true. */
  autoResize?: boolean;
  /** Apply `hostContext.theme` and `styles.variables` to the document. Default true. */
  applyHostStyles?: boolean;
  /** The host window. Default `window.parent`. */
  host?: HostWindow;
}

interface Pending {
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
}

const REPLAYED = ['toolinput', 'toolresult', 'toolcancelled'] as const;

export class AppView {
  private readonly host: HostWindow;
  private readonly pending = new Map<number, Pending>();
  private readonly handlers = new Map<keyof AppViewEvents, Set<Handler<unknown>>>();
  private readonly last = new Map<keyof AppViewEvents, unknown>();
  private nextId = 1;
  private listening = false;
  private initialized = false;
  private resizeObserver: { disconnect(): void } | undefined;
  private lastSize = '';
  private readonly onWindowMessage = (event: BridgeMessageEvent) => this.receive(event);

  /** Set by `connect()`. */
  hostInfo: Implementation | undefined;
  hostCapabilities: HostCapabilities | undefined;
  hostContext: HostContext = {};
  protocolVersion: string | undefined;
  /**
   * Called on `ui/resource-teardown` before the view is removed: save state here. The host waits for it to
   * finish (or fail) before unmounting.
   */
  onteardown: (() => void | Promise<void>) | undefined;

  constructor(
    readonly appInfo: Implementation,
    private readonly options: AppViewOptions = {},
  ) {
    this.host = options.host ?? browser().window.parent;
  }

  /** Listens to an event; returns a function that stops listening. Replays the last tool input/result. */
  on<K extends keyof AppViewEvents>(event: K, handler: Handler<AppViewEvents[K]>): () => void {
    let set = this.handlers.get(event);
    if (!set) this.handlers.set(event, (set = new Set()));
    set.add(handler as Handler<unknown>);
    if ((REPLAYED as readonly string[]).includes(event) && this.last.has(event)) {
      const value = this.last.get(event) as AppViewEvents[K];
      browser().queueMicrotask(() => {
        if (set.has(handler as Handler<unknown>)) handler(value);
      });
    }
    return () => set.delete(handler as Handler<unknown>);
  }

  /** The last tool arguments and result received, if any. */
  get toolInput(): ToolInputParams | undefined {
    return this.last.get('toolinput') as ToolInputParams | undefined;
  }
  get toolResult(): CallToolResult | undefined {
    return this.last.get('toolresult') as CallToolResult | undefined;
  }

  /** The handshake: `ui/initialize`, then `ui/notifications/initialized`. Resolves with the host's answer. */
  async connect(): Promise<InitializeResult> {
    if (!this.listening) {
      browser().window.addEventListener('message', this.onWindowMessage);
      this.listening = true;
    }
    const result = (await this.request(APPS_METHODS.initialize, {
      appInfo: this.appInfo,
      appCapabilities: this.options.capabilities ?? {},
      protocolVersion: APPS_PROTOCOL_VERSION,
    })) as InitializeResult;
    if (!result || typeof result !== 'object' || typeof result.protocolVersion !== 'string')
      throw new AppRequestError('The host answered ui/initialize without a protocolVersion', -32603);
    this.protocolVersion = result.protocolVersion;
    this.hostInfo = result.hostInfo;
    this.hostCapabilities = result.hostCapabilities ?? {};
    this.hostContext = { ...(result.hostContext ?? {}) };
    if (this.options.applyHostStyles !== false) applyHostContext(this.hostContext);
    this.initialized = true;
    this.notify(APPS_METHODS.initialized, {});
    if (this.options.autoResize !== false) this.startAutoResize();
    return result;
  }

  /** Calls a tool of the view's server through the host (the tool must have "app" visibility). */
  callServerTool(name: string, args: Record<string, unknown> = {}): Promise<CallToolResult> {
    return this.request('tools/call', { name, arguments: args }) as Promise<CallToolResult>;
  }

  /** Reads a resource of the view's server through the host. */
  readServerResource(uri: string): Promise<ReadResourceResult> {
    return this.request('resources/read', { uri }) as Promise<ReadResourceResult>;
  }

  /** Lists the server's resources through the host. */
  listServerResources(cursor?: string): Promise<{ resources: unknown[]; nextCursor?: string }> {
    return this.request('resources/list', cursor === undefined ? {} : { cursor }) as Promise<{
      resources: unknown[];
    }>;
  }

  /** Asks the host to open a URL (it may ask the user first). */
  openLink(url: string): Promise<AppActionResult> {
    return this.request(APPS_METHODS.openLink, { url }) as Promise<AppActionResult>;
  }

  /** Asks the host to download files (embedded resources or resource links); the host should ask the user. */
  downloadFile(contents: ContentBlock[]): Promise<AppActionResult> {
    return this.request(APPS_METHODS.downloadFile, { contents }) as Promise<AppActionResult>;
  }

  /** Sends a message to the conversation as the user; the host starts a follow-up turn. */
  sendMessage(content: ContentBlock[] | string): Promise<AppActionResult> {
    const blocks = typeof content === 'string' ? [{ type: 'text' as const, text: content }] : content;
    return this.request(APPS_METHODS.message, { role: 'user', content: blocks }) as Promise<AppActionResult>;
  }

  /** Replaces what the view tells the model (sent with the next user turn; no follow-up turn). */
  updateModelContext(params: UpdateModelContextParams): Promise<Record<string, unknown>> {
    return this.request(APPS_METHODS.updateModelContext, params) as Promise<Record<string, unknown>>;
  }

  /** Asks for a display mode; resolves with the mode the host actually set. */
  async requestDisplayMode(mode: AppDisplayMode): Promise<AppDisplayMode> {
    const result = (await this.request(APPS_METHODS.requestDisplayMode, { mode })) as {
      mode: AppDisplayMode;
    };
    if (result?.mode) this.hostContext = { ...this.hostContext, displayMode: result.mode };
    return result?.mode;
  }

  /** Asks the host to close the view (the host then sends `ui/resource-teardown`). */
  requestTeardown(): void {
    this.notify(APPS_METHODS.requestTeardown, {});
  }

  /** A log message for the host (`notifications/message`). */
  log(level: 'debug' | 'info' | 'notice' | 'warning' | 'error', data: unknown, logger?: string): void {
    this.notify('notifications/message', logger === undefined ? { level, data } : { level, data, logger });
  }

  /** Reports a size now (auto-resize does this for you). */
  sendSizeChanged(size: SizeChangedParams): void {
    this.notify(APPS_METHODS.sizeChanged, size);
  }

  /** Stops listening and observing; pending requests fail. */
  close(): void {
    browser().window.removeEventListener('message', this.onWindowMessage);
    this.listening = false;
    this.resizeObserver?.disconnect();
    this.resizeObserver = undefined;
    for (const pending of this.pending.values())
      pending.reject(new AppRequestError('The view closed', -32000));
    this.pending.clear();
  }

  // ── wire ──────────────────────────────────────────────────────────────────────────────────────────────

  /** Sends any request to the host (for methods this class has no helper for). */
  request(method: string, params: unknown): Promise<unknown> {
    if (!this.listening) return Promise.reject(new AppRequestError('Call connect() first', -32000));
    if (!this.initialized && method !== APPS_METHODS.initialize && method !== 'ping')
      return Promise.reject(new AppRequestError(`${method} before ui/initialize completed`, -32000));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.post({ jsonrpc: '2.0', id, method, params });
    });
  }

  private notify(method: string, params: unknown): void {
    this.post({ jsonrpc: '2.0', method, params });
  }

  private post(message: unknown): void {
    // The view cannot know the host's (sandbox proxy's) origin; what it sends is meant for that window only.
    this.host.postMessage(message, '*');
  }

  private receive(event: BridgeMessageEvent): void {
    if (event.source !== this.host) return;
    const message = event.data as Record<string, unknown> | null;
    if (!message || typeof message !== 'object' || message.jsonrpc !== '2.0') return;
    const { id, method } = message;
    if (typeof method === 'string') {
      if (id === undefined) this.onNotification(method, message.params);
      else if (typeof id === 'string' || typeof id === 'number')
        void this.onRequest(id, method, message.params);
      return;
    }
    if (typeof id !== 'number') return;
    const pending = this.pending.get(id);
    if (!pending) return;
    this.pending.delete(id);
    const error = message.error as { code?: unknown; message?: unknown; data?: unknown } | undefined;
    if (error && typeof error === 'object')
      pending.reject(
        new AppRequestError(
          typeof error.message === 'string' ? error.message : 'The host refused the request',
          typeof error.code === 'number' ? error.code : -32603,
          error.data,
        ),
      );
    else pending.resolve(message.result);
  }

  private emit<K extends keyof AppViewEvents>(event: K, value: AppViewEvents[K]): void {
    if ((REPLAYED as readonly string[]).includes(event)) this.last.set(event, value);
    for (const handler of [...(this.handlers.get(event) ?? [])]) {
      try {
        handler(value);
      } catch (error) {
        browser().console.error(`@mcpengine/apps-view: a ${event} handler threw`, error);
      }
    }
  }

  private onNotification(method: string, params: unknown): void {
    const value = (params && typeof params === 'object' ? params : {}) as never;
    switch (method) {
      case APPS_METHODS.toolInput:
        return this.emit('toolinput', value);
      case APPS_METHODS.toolInputPartial:
        return this.emit('toolinputpartial', value);
      case APPS_METHODS.toolResult:
        return this.emit('toolresult', value);
      case APPS_METHODS.toolCancelled:
        return this.emit('toolcancelled', value);
      case APPS_METHODS.hostContextChanged:
        this.hostContext = { ...this.hostContext, ...(value as HostContext) };
        if (this.options.applyHostStyles !== false) applyHostContext(value);
        return this.emit('hostcontextchanged', value);
    }
  }

  private async onRequest(id: string | number, method: string, params: unknown): Promise<void> {
    let result: unknown;
    try {
      if (method === 'ping') result = {};
      else if (method === APPS_METHODS.resourceTeardown) {
        await this.onteardown?.();
        result = {};
      } else {
        this.post({ jsonrpc: '2.0', id, error: { code: -32601, message: `Method not found: ${method}` } });
        return;
      }
    } catch (error) {
      this.post({
        jsonrpc: '2.0',
        id,
        error: { code: -32603, message: String((error as Error)?.message ?? error) },
      });
      return;
    }
    void params;
    this.post({ jsonrpc: '2.0', id, result });
  }

  private startAutoResize(): void {
    const { document, ResizeObserver } = browser();
    if (this.resizeObserver || !ResizeObserver) return;
    const report = () => {
      const root = document.documentElement;
      // The content's own size: the host may have fixed the iframe's, so measure what the document needs.
      const width = Math.ceil(root.scrollWidth);
      const height = Math.ceil(Math.max(root.scrollHeight, document.body?.scrollHeight ?? 0));
      const key = `${width}x${height}`;
      if (key === this.lastSize) return;
      this.lastSize = key;
      this.sendSizeChanged({ width, height });
    };
    const observer = new ResizeObserver(report);
    observer.observe(document.documentElement);
    if (document.body) observer.observe(document.body);
    this.resizeObserver = observer;
    report();
  }
}

/**
 * Applies a host context to the document: `theme` (as `data-theme` and `color-scheme`), `styles.variables`
 * (CSS custom properties on `:root`; only `--*` names, values without `;`/`{`/`}`), and `styles.css.fonts`.
 */
export function applyHostContext(
  context: Partial<HostContext>,
  root: StyleTarget = browser().document.documentElement,
): void {
  const { document } = browser();
  if (context.theme === 'light' || context.theme === 'dark') {
    root.dataset.theme = context.theme;
    root.style.colorScheme = context.theme;
  }
  const variables = context.styles?.variables;
  if (variables && typeof variables === 'object') {
    for (const [name, value] of Object.entries(variables)) {
      if (!/^--[A-Za-z0-9-]+$/.test(name) || typeof value !== 'string' || /[;{}]/.test(value)) continue;
      root.style.setProperty(name, value);
    }
  }
  const fonts = context.styles?.css?.fonts;
  if (typeof fonts === 'string' && fonts.length > 0 && !/<\/style/i.test(fonts)) {
    let style = document.getElementById('mcpengine-host-fonts');
    if (!style) {
      style = document.createElement('style');
      style.id = 'mcpengine-host-fonts';
      document.head.appendChild(style);
    }
    style.textContent = fonts;
  }
}
