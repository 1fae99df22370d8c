/**
 * The inspector's MCP Apps reference host, in the page (apps.mdx, SEP-1865, 2026-01-26).
 *
 * A tool whose `_meta.ui.resourceUri` (or the deprecated `_meta["ui/resourceUri"]`) names a `ui://` resource gets
 * an "Open app view" button. The View runs in a sandbox proxy on another origin (the backend's second listener),
 * in a frame with `sandbox="allow-scripts allow-same-origin"`; the proxy runs the View's HTML in an inner frame
 * under the CSP built from its declared domains. This module is the Host: it answers `ui/initialize` with host
 * context and capabilities, sends nothing before `ui/notifications/initialized`, then the tool input and the
 * result (or `tool-cancelled`), forwards the View's MCP requests to the backend (which enforces visibility),
 * follows size changes and display-mode requests, tears the View down with `ui/resource-teardown`, and records
 * every postMessage in the session timeline.
 */
import { h, type ComponentChild } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';

type Json = Record<string, unknown>;
export type Api = (path: string, body?: unknown) => Promise<Json>;

const PROTOCOL_VERSION = '2026-01-26';
const SANDBOX_PREFIX = 'ui/notifications/sandbox-';
const HOST_MODES = ['inline', 'fullscreen'] as const;
const MAX_HEIGHT = 1200;
/** How long the host waits for the View's answer to `ui/resource-teardown` before removing it anyway. */
const TEARDOWN_WAIT_MS = 3000;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The tool's View: `_meta.ui.resourceUri`, else the deprecated flat key (hosts read both). */
export function appResourceUri(tool: Json): string | undefined {
  const meta = isObject(tool['_meta']) ? tool['_meta'] : {};
  const ui = isObject(meta['ui']) ? meta['ui'] : {};
  const uri = ui['resourceUri'] ?? meta['ui/resourceUri'];
  return typeof uri === 'string' && uri.startsWith('ui://') ? uri : undefined;
}

interface Opened {
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

interface ViewEvents {
  status(text: string): void;
  size(height: number | undefined): void;
  mode(mode: string): void;
  note(kind: 'message' | 'context' | 'link' | 'log', value: unknown): void;
  teardown(): void;
}

/** One View's JSON-RPC session over postMessage, through its sandbox proxy. */
class ViewBridge {
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
        method: 'ui/notifications/tool-input',
        params: { arguments: isObject(this.args) ? this.args : {} },
      });
    }
    const answer = this.#result;
    if (answer === undefined || this.#resultSent) return;
    this.#resultSent = true;
    if (answer['error'] !== undefined)
      this.#post({
        jsonrpc: '2.0',
        method: 'ui/notifications/tool-cancelled',
        params: { reason: `the tool call failed: ${JSON.stringify(answer['error'])}` },
      });
    else
      this.#post({
        jsonrpc: '2.0',
        method: 'ui/notifications/tool-result',
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
      userAgent: 'mcpengine-inspector/0.1.0',
      platform: 'web',
      deviceCapabilities: {
        touch: navigator.maxTouchPoints > 0,
        hover: matchMedia('(hover: hover)').matches,
      },
    };
  }

  setTheme(theme: 'light' | 'dark'): void {
    this.theme = theme;
    this.notify('ui/notifications/host-context-changed', {
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
      if (method === 'ui/notifications/sandbox-proxy-ready')
        // The proxy relays nothing else of ours before this; the host then sends the raw HTML.
        this.#post({
          jsonrpc: '2.0',
          method: 'ui/notifications/sandbox-resource-ready',
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
      case 'ui/notifications/initialized': {
        this.initialized = true;
        this.events.status('initialized');
        for (const queued of this.#queue.splice(0)) this.#post(queued);
        this.#flushToolData();
        return;
      }
      case 'ui/notifications/size-changed': {
        // Flexible height ("hosts MUST listen for `ui/notifications/size-changed` … and update the iframe").
        const height = typeof params['height'] === 'number' ? params['height'] : undefined;
        this.events.size(height === undefined ? undefined : Math.min(Math.max(0, height), MAX_HEIGHT));
        return;
      }
      case 'ui/notifications/request-teardown':
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
      case 'ui/initialize': {
        const caps = isObject(params['appCapabilities']) ? params['appCapabilities'] : {};
        this.#appModes = Array.isArray(caps['availableDisplayModes'])
          ? (caps['availableDisplayModes'] as string[])
          : undefined;
        return {
          protocolVersion: PROTOCOL_VERSION,
          hostInfo: { name: 'mcpengine-inspector', version: '0.1.0' },
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
      case 'ui/open-link': {
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
      case 'ui/message':
        this.events.note('message', params);
        return {};
      case 'ui/update-model-context':
        this.events.note('context', params);
        return {};
      case 'ui/request-display-mode': {
        const mode = params['mode'];
        const allowed =
          typeof mode === 'string' &&
          (HOST_MODES as readonly string[]).includes(mode) &&
          // "Host MUST NOT switch the View to a display mode that does not appear in its availableDisplayModes".
          (this.#appModes === undefined || this.#appModes.includes(mode));
        if (allowed && mode !== this.displayMode) {
          this.displayMode = mode;
          this.events.mode(mode);
          this.notify('ui/notifications/host-context-changed', { displayMode: mode });
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
      this.request('ui/resource-teardown', { reason }),
      new Promise((done) => setTimeout(done, TEARDOWN_WAIT_MS)),
    ]);
  }
}

/** A small, standard subset of the spec's theme variables, `light-dark()` aware. */
function themeVariables(theme: 'light' | 'dark'): Json {
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

/** The "App view" of a tool with a UI resource: a button, then the rendered View for the latest call. */
export function AppPanel(props: {
  tool: Json;
  args: unknown;
  answer: Json | undefined;
  callId: string;
  api: Api;
}): ComponentChild {
  const uri = appResourceUri(props.tool);
  const [open, setOpen] = useState(false);
  if (uri === undefined) return null;
  return h('section', { class: 'app-panel', 'aria-label': 'MCP App' }, [
    h('p', null, ['This tool has an MCP App view: ', h('code', null, uri)]),
    open
      ? h(AppFrame, {
          // A new call is a new View ("tool-input … is sent at most once").
          key: props.callId,
          uri,
          tool: props.tool,
          args: props.args,
          answer: props.answer,
          api: props.api,
          onClosed: () => setOpen(false),
        })
      : h('button', { onClick: () => setOpen(true), disabled: props.callId === '' }, 'Open app view'),
  ]);
}

function AppFrame(props: {
  uri: string;
  tool: Json;
  args: unknown;
  answer: Json | undefined;
  api: Api;
  onClosed: () => void;
}): ComponentChild {
  const box = useRef<HTMLDivElement>(null);
  const bridge = useRef<ViewBridge | undefined>(undefined);
  const [status, setStatus] = useState('loading');
  const [opened, setOpened] = useState<Opened | undefined>();
  const [height, setHeight] = useState<number | undefined>();
  const [mode, setMode] = useState('inline');
  const [theme, setTheme] = useState<'light' | 'dark'>(
    matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light',
  );
  const [notes, setNotes] = useState<{ kind: string; value: unknown }[]>([]);
  const [error, setError] = useState('');
  const close = async () => {
    const current = bridge.current;
    setStatus('tearing down');
    await current?.teardown('the user closed the view');
    if (current !== undefined)
      await props.api('apps/close', { viewId: current.opened.viewId }).catch(() => {});
    props.onClosed();
  };

  useEffect(() => {
    let frame: HTMLIFrameElement | undefined;
    let listener: ((event: MessageEvent) => void) | undefined;
    let cancelled = false;
    void props.api('apps/open', { uri: props.uri, toolName: props.tool['name'] }).then(
      (answer) => {
        if (cancelled || box.current === null) return;
        const view = answer as unknown as Opened;
        setOpened(view);
        frame = document.createElement('iframe');
        frame.setAttribute('sandbox', view.proxySandbox);
        if (view.allow !== '') frame.setAttribute('allow', view.allow);
        frame.setAttribute('title', `MCP App ${props.uri}`);
        frame.setAttribute('data-testid', 'app-frame');
        frame.className = 'app-frame';
        box.current.appendChild(frame);
        const created = new ViewBridge(
          view,
          frame,
          props.tool,
          props.args,
          props.api,
          {
            status: setStatus,
            size: setHeight,
            mode: setMode,
            note: (kind, value) => setNotes((old) => [...old, { kind, value }]),
            teardown: () => void close(),
          },
          theme,
        );
        bridge.current = created;
        listener = created.onMessage;
        window.addEventListener('message', listener);
        created.setResult(props.answer);
        // The listener is in place before the proxy can announce itself.
        frame.src = `${view.proxyUrl}#host=${encodeURIComponent(location.origin)}`;
        setStatus('waiting for the view');
      },
      (failure: Error) => setError(failure.message),
    );
    return () => {
      cancelled = true;
      if (listener !== undefined) window.removeEventListener('message', listener);
      const current = bridge.current;
      if (current !== undefined)
        void props.api('apps/close', { viewId: current.opened.viewId }).catch(() => {});
      frame?.remove();
    };
  }, []);

  useEffect(() => bridge.current?.setResult(props.answer), [props.answer]);

  return h(
    'div',
    {
      class: `app-view mode-${mode}${opened?.prefersBorder === false ? ' borderless' : ''}`,
      'data-testid': 'app-view',
      'data-display-mode': mode,
    },
    [
      h('div', { class: 'app-toolbar' }, [
        h('span', { 'data-testid': 'app-status' }, `View: ${status}`),
        h('label', { class: 'field inline' }, [
          h('span', null, 'Theme'),
          h(
            'select',
            {
              value: theme,
              onChange: (event: Event) => {
                const next = (event.target as HTMLSelectElement).value === 'dark' ? 'dark' : 'light';
                setTheme(next);
                bridge.current?.setTheme(next);
              },
            },
            [h('option', { value: 'light' }, 'light'), h('option', { value: 'dark' }, 'dark')],
          ),
        ]),
        h('button', { onClick: () => void close() }, 'Close app view'),
      ]),
      error === '' ? null : h('p', { class: 'error', role: 'alert' }, error),
      opened === undefined
        ? null
        : h('details', { class: 'app-policy' }, [
            h('summary', null, 'Sandbox and Content Security Policy'),
            h('pre', { 'data-testid': 'app-csp' }, opened.header),
            opened.allow === '' ? null : h('p', null, `allow: ${opened.allow}`),
            ...opened.warnings.map((warning) => h('p', { class: 'error' }, warning)),
          ]),
      h('div', {
        ref: box,
        class: 'app-frame-box',
        style: height === undefined ? undefined : { height: `${height}px` },
      }),
      notes.length === 0
        ? null
        : h(
            'ul',
            { class: 'app-notes', 'data-testid': 'app-notes', 'aria-label': 'From the view' },
            notes.map((note, index) =>
              h('li', { key: index }, [
                h('strong', null, `${note.kind}: `),
                note.kind === 'link'
                  ? h(
                      'a',
                      { href: String(note.value), target: '_blank', rel: 'noopener noreferrer' },
                      String(note.value),
                    )
                  : h('code', null, JSON.stringify(note.value)),
              ]),
            ),
          ),
    ],
  );
}
