/**
 * The inspector's MCP Apps reference host, framework-free half (apps.mdx, SEP-1865, 2026-01-26): one View's
 * JSON-RPC session over postMessage through its sandbox proxy (`ViewBridge`), and `mountAppView`, which asks the
 * backend to open a View (`apps/open`), builds the proxy frame on the sandbox origin and wires the bridge to it.
 *
 * The inspector's Preact panel (`host.ts`) and the command center's dashboard both mount Views with this module
 * (package export `@mcpengine/inspector/apps-page`): one host, two pages. It imports nothing at run time but the
 * protocol constants, so any bundler can take it into a page.
 */
import {
  APP_URI_SCHEME,
  APPS_METHODS,
  APPS_PROTOCOL_VERSION,
  LEGACY_RESOURCE_URI_META_KEY,
} from 'mcpengine/apps/protocol';

export type Json = Record<string, unknown>;
export type Api = (path: string, body?: unknown) => Promise<Json>;

const SANDBOX_PREFIX = 'ui/notifications/sandbox-';
const HOST_MODES = ['inline', 'fullscreen'] as const;
export const MAX_HEIGHT = 1200;
/** How long the host waits for the View's answer to `ui/resource-teardown` before removing it anyway. */
const TEARDOWN_WAIT_MS = 3000;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The tool's View: `_meta.ui.resourceUri`, else the deprecated flat key (hosts read both). */
export function appResourceUri(tool: Json): string | undefined {
  const meta = isObject(tool['_meta']) ? tool['_meta'] : {};
  const ui = isObject(meta['ui']) ? meta['ui'] : {};
  const uri = ui['resourceUri'] ?? meta[LEGACY_RESOURCE_URI_META_KEY];
  return typeof uri === 'string' && uri.startsWith(APP_URI_SCHEME) ? uri : undefined;
}

export interface Opened {
  viewId: string;
  proxyUrl: string;
  sandboxOrigin: string;
  proxySandbox: string;
  viewSandbox: string;
  html: string;
  csp: Json;
  permissions: Json;
  allow: string;
  header: string;
  prefersBorder: boolean | null;
  warnings: string[];
}

export interface ViewEvents {
  status(text: string): void;
  size(height: number | undefined): void;
  mode(mode: string): void;
  note(kind: 'message' | 'context' | 'link' | 'log', value: unknown): void;
  teardown(): void;
}

/** One View's JSON-RPC session over postMessage, through its sandbox proxy. */
export class ViewBridge {
  initialized = false;
  displayMode = 'inline';
  #appModes: string[] | undefined;
  readonly #queue: Json[] = [];
  readonly #pending = new Map<number, (message: Json) => void>();
  #nextId = 1;
  #recording: Promise<unknown> = Promise.resolve();
  #inputSent = false;
  #resultSent = false;
  #result: Json | undefined;

  constructor(
    readonly opened: Opened,
    readonly frame: HTMLIFrameElement,
    readonly tool: Json,
    readonly args: unknown,
    readonly api: Api,
    readonly events: ViewEvents,
    public theme: 'light' | 'dark',
    /** `hostInfo.name` and the user agent's product ("mcpengine-inspector", "mcpengine-center"). */
    readonly hostName = 'mcpengine-inspector',
  ) {}

  #record(from: 'view' | 'host' | 'sandbox', message: unknown): void {
    const body = { viewId: this.opened.viewId, from, message };
    this.#recording = this.#recording.then(() => this.api('apps/record', body)).catch(() => undefined);
  }

  #post(message: Json): void {
    this.#record('host', message);
    this.frame.contentWindow?.postMessage(message, this.opened.sandboxOrigin);
  }

  /** Notifications wait for `initialized`: "The Host MUST NOT send any request or notification to the View before…". */
  notify(method: string, params: Json): void {
    const message = { jsonrpc: '2.0', method, params };
    if (this.initialized) this.#post(message);
    else this.#queue.push(message);
  }

  request(method: string, params: Json): Promise<Json> {
    const id = this.#nextId++;
    return new Promise((resolve) => {
      this.#pending.set(id, resolve);
      this.#post({ jsonrpc: '2.0', id, method, params });
    });
  }

  /** The tool call's outcome; sent once the View is initialized and has its input. */
  setResult(answer: Json | undefined): void {
    this.#result = answer;
    this.#flushToolData();
  }

  #flushToolData(): void {
    if (!this.initialized) return;
    if (!this.#inputSent) {
      this.#inputSent = true;
      this.#post({
        jsonrpc: '2.0',
        method: APPS_METHODS.toolInput,
        params: { arguments: isObject(this.args) ? this.args : {} },
      });
    }
    const answer = this.#result;
    if (answer === undefined || this.#resultSent) return;
    this.#resultSent = true;
    if (answer['error'] !== undefined)
      this.#post({
        jsonrpc: '2.0',
        method: APPS_METHODS.toolCancelled,
        params: { reason: `the tool call failed: ${JSON.stringify(answer['error'])}` },
      });
    else
      this.#post({
        jsonrpc: '2.0',
        method: APPS_METHODS.toolResult,
        params: answer['result'] as Json,
      });
  }

  hostContext(): Json {
    return {
      toolInfo: { tool: this.tool },
      theme: this.theme,
      styles: { variables: themeVariables(this.theme) },
      displayMode: this.displayMode,
      availableDisplayModes: [...HOST_MODES],
      containerDimensions: { width: Math.max(1, Math.round(this.frame.clientWidth)), maxHeight: MAX_HEIGHT },
      locale: navigator.language,
      timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
      userAgent: `${this.hostName}/0.1.0`,
      platform: 'web',
      deviceCapabilities: {
        touch: navigator.maxTouchPoints > 0,
        hover: matchMedia('(hover: hover)').matches,
      },
    };
  }

  setTheme(theme: 'light' | 'dark'): void {
    this.theme = theme;
    this.notify(APPS_METHODS.hostContextChanged, {
      theme,
      styles: { variables: themeVariables(theme) },
    });
  }

  onMessage = (event: MessageEvent): void => {
    // Only the View's proxy, from the sandbox origin ("Validate all incoming messages from UI iframes").
    if (event.source !== this.frame.contentWindow || event.origin !== this.opened.sandboxOrigin) return;
    const message = event.data as unknown;
    if (!isObject(message) || message['jsonrpc'] !== '2.0') {
      this.#record('view', message);
      return;
    }
    const method = typeof message['method'] === 'string' ? message['method'] : undefined;
    if (method?.startsWith(SANDBOX_PREFIX)) {
      this.#record('sandbox', message);
      if (method === APPS_METHODS.sandboxProxyReady)
        // The proxy relays nothing else of ours before this; the host then sends the raw HTML.
        this.#post({
          jsonrpc: '2.0',
          method: APPS_METHODS.sandboxResourceReady,
          params: {
            html: this.opened.html,
            sandbox: this.opened.viewSandbox,
            csp: this.opened.csp,
            permissions: this.opened.permissions,
          },
        });
      return;
    }
    this.#record('view', message);
    const id = message['id'];
    if (method === undefined) {
      if (typeof id === 'number' && this.#pending.has(id)) {
        this.#pending.get(id)!(message);
        this.#pending.delete(id);
      }
      return;
    }
    if (id === undefined)
      return this.#onNotification(method, isObject(message['params']) ? message['params'] : {});
    if (typeof id !== 'string' && typeof id !== 'number') return;
    void this.#onRequest(method, isObject(message['params']) ? message['params'] : {}).then(
      (result) => this.#post({ jsonrpc: '2.0', id, result }),
      (error: { code?: number; message?: string }) =>
        this.#post({
          jsonrpc: '2.0',
          id,
          error: { code: error.code ?? -32603, message: error.message ?? String(error) },
        }),
    );
  };

  #onNotification(method: string, params: Json): void {
    switch (method) {
      case APPS_METHODS.initialized: {
        this.initialized = true;
        this.events.status('initialized');
        for (const queued of this.#queue.splice(0)) this.#post(queued);
        this.#flushToolData();
        return;
      }
      case APPS_METHODS.sizeChanged: {
        // Flexible height ("hosts MUST listen for `ui/notifications/size-changed` … and update the iframe").
        const height = typeof params['height'] === 'number' ? params['height'] : undefined;
        this.events.size(height === undefined ? undefined : Math.min(Math.max(0, height), MAX_HEIGHT));
        return;
      }
      case APPS_METHODS.requestTeardown:
        this.events.teardown();
        return;
      case 'notifications/message':
        this.events.note('log', params);
        return;
      default:
        return;
    }
  }

  async #onRequest(method: string, params: Json): Promise<Json> {
    switch (method) {
      case APPS_METHODS.initialize: {
        const caps = isObject(params['appCapabilities']) ? params['appCapabilities'] : {};
        this.#appModes = Array.isArray(caps['availableDisplayModes'])
          ? (caps['availableDisplayModes'] as string[])
          : undefined;
        return {
          protocolVersion: APPS_PROTOCOL_VERSION,
          hostInfo: { name: this.hostName, version: '0.1.0' },
          hostCapabilities: {
            openLinks: {},
            serverTools: {},
            serverResources: {},
            logging: {},
            message: { text: {} },
            updateModelContext: { text: {}, structuredContent: {} },
            sandbox: { permissions: this.opened.permissions, csp: this.opened.csp },
          },
          hostContext: this.hostContext(),
        };
      }
      case 'ping':
        return {};
      case APPS_METHODS.openLink: {
        const url = params['url'];
        let parsed: URL | undefined;
        try {
          parsed = typeof url === 'string' ? new URL(url) : undefined;
        } catch {
          parsed = undefined;
        }
        if (parsed === undefined || !['http:', 'https:'].includes(parsed.protocol))
          throw { code: -32000, message: 'Invalid URL' };
        // Never opened by itself: the user sees the link and decides.
        this.events.note('link', parsed.href);
        return {};
      }
      case APPS_METHODS.message:
        this.events.note('message', params);
        return {};
      case APPS_METHODS.updateModelContext:
        this.events.note('context', params);
        return {};
      case APPS_METHODS.requestDisplayMode: {
        const mode = params['mode'];
        const allowed =
          typeof mode === 'string' &&
          (HOST_MODES as readonly string[]).includes(mode) &&
          // "Host MUST NOT switch the View to a display mode that does not appear in its availableDisplayModes".
          (this.#appModes === undefined || this.#appModes.includes(mode));
        if (allowed && mode !== this.displayMode) {
          this.displayMode = mode;
          this.events.mode(mode);
          this.notify(APPS_METHODS.hostContextChanged, { displayMode: mode });
        }
        return { mode: this.displayMode };
      }
      case 'tools/call':
      case 'resources/read':
      case 'resources/list':
      case 'resources/templates/list': {
        const answer = await this.api('apps/request', { viewId: this.opened.viewId, method, params });
        if (answer['error'] !== undefined) throw answer['error'];
        return answer['result'] as Json;
      }
      default:
        throw { code: -32601, message: `the host does not support ${method}` };
    }
  }

  async teardown(reason: string): Promise<void> {
    if (!this.initialized) return;
    await Promise.race([
      this.request(APPS_METHODS.resourceTeardown, { reason }),
      new Promise((done) => setTimeout(done, TEARDOWN_WAIT_MS)),
    ]);
  }
}

/** A small, standard subset of the spec's theme variables, `light-dark()` aware. */
export function themeVariables(theme: 'light' | 'dark'): Json {
  const dark = theme === 'dark';
  return {
    '--color-background-primary': dark ? '#171717' : '#ffffff',
    '--color-background-secondary': dark ? '#262626' : '#f5f5f5',
    '--color-text-primary': dark ? '#fafafa' : '#171717',
    '--color-text-secondary': dark ? '#a3a3a3' : '#525252',
    '--color-border-primary': dark ? '#404040' : '#d4d4d4',
    '--font-sans': 'system-ui, sans-serif',
    '--font-mono': 'ui-monospace, monospace',
    '--border-radius-md': '6px',
  };
}

/** A View mounted in a page: its backend answer, its proxy frame and bridge; `detach` removes both. */
export interface MountedView {
  readonly opened: Opened;
  readonly frame: HTMLIFrameElement;
  readonly bridge: ViewBridge;
  /** Stops listening and removes the frame (after `bridge.teardown` when the View should be told). */
  detach(): void;
}

export interface MountOptions {
  /** The backend's answer to `apps/open` (the proxy document is registered, the policy built). */
  readonly opened: Opened;
  /** Where the proxy frame goes. */
  readonly container: HTMLElement;
  readonly uri: string;
  readonly tool: Json;
  readonly args: unknown;
  /** The tool call's outcome, `{result}` or `{error}`; later ones through `bridge.setResult`. */
  readonly answer: Json | undefined;
  readonly api: Api;
  readonly events: ViewEvents;
  readonly theme: 'light' | 'dark';
  readonly hostName?: string;
}

/**
 * Builds the proxy frame (`sandbox="allow-scripts allow-same-origin"`, on the sandbox origin, never this page's),
 * wires a bridge to it and loads the proxy document; the listener is in place before the proxy can announce itself.
 */
export function mountAppView(options: MountOptions): MountedView {
  const { opened } = options;
  const frame = document.createElement('iframe');
  frame.setAttribute('sandbox', opened.proxySandbox);
  if (opened.allow !== '') frame.setAttribute('allow', opened.allow);
  frame.setAttribute('title', `MCP App ${options.uri}`);
  frame.setAttribute('data-testid', 'app-frame');
  frame.className = 'app-frame';
  options.container.appendChild(frame);
  const bridge = new ViewBridge(
    opened,
    frame,
    options.tool,
    options.args,
    options.api,
    options.events,
    options.theme,
    options.hostName,
  );
  window.addEventListener('message', bridge.onMessage);
  bridge.setResult(options.answer);
  frame.src = `${opened.proxyUrl}#host=${encodeURIComponent(location.origin)}`;
  return {
    opened,
    frame,
    bridge,
    detach() {
      window.removeEventListener('message', bridge.onMessage);
      frame.remove();
    },
  };
}
