/**
 * The sandbox proxy: a second loopback listener, so that Views run on an origin other than the inspector's
 * (apps.mdx, "Sandbox proxy": "If the Host is a web page, it MUST wrap the View and communicate with it through an
 * intermediate Sandbox proxy. The Host and the Sandbox MUST have different origins.").
 *
 * Each View gets an unguessable id; `/view/<id>` is the proxy document, served with the View's Content Security
 * Policy as an HTTP header (built from validated origins only, never from the page's query), framable only by the
 * inspector. The proxy loads the View's HTML into an inner `srcdoc` frame, which inherits that policy, and relays
 * every message between the inspector and the View except the reserved `ui/notifications/sandbox-*` ones.
 *
 * The same listener shows plain `text/html` resources (not Apps): `/html/<id>` serves the server's HTML as is,
 * under a policy that runs no script at all (CSP `sandbox` without `allow-scripts`: an opaque origin, no forms,
 * no popups; `default-src 'none'` with inline styles and `data:` images only), framable only by the inspector.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { APPS_METHODS } from 'mcpengine/apps/protocol';
import { SANDBOX_METHOD_PREFIX, VIEW_SANDBOX } from './protocol.js';

export interface SandboxView {
  /** The View's CSP header value. */
  readonly header: string;
  /** The inner frame's `allow` attribute. */
  readonly allow: string;
}

export interface RunningSandbox {
  readonly origin: string;
  register(view: SandboxView): { id: string; url: string };
  /** A static HTML document (a `text/html` resource) shown without scripts; the oldest go past 32. */
  registerDocument(html: string): { id: string; url: string };
  unregister(id: string): void;
  close(): Promise<void>;
}

/** Tokens the host may ask for on the View's frame; never `allow-same-origin` (it would reach the proxy). */
const VIEW_SANDBOX_TOKENS = [
  'allow-scripts',
  'allow-forms',
  'allow-popups',
  'allow-modals',
  'allow-downloads',
];

/** The proxy's script: plain browser JavaScript, served from the sandbox origin (`script-src 'self'`). */
const PROXY_SCRIPT = `(() => {
  'use strict';
  const root = document.documentElement;
  // The inspector may be open as 127.0.0.1, localhost or [::1]: the page names its origin in the fragment, and
  // only one of the inspector's own origins is believed.
  const hosts = (root.dataset.hosts || '').split(' ');
  const named = new URLSearchParams(location.hash.slice(1)).get('host');
  const host = hosts.includes(named) ? named : hosts[0];
  const allow = root.dataset.allow || '';
  const permitted = ${JSON.stringify(VIEW_SANDBOX_TOKENS)};
  const reserved = (data) =>
    typeof data === 'object' && data !== null && typeof data.method === 'string' &&
    data.method.startsWith(${JSON.stringify(SANDBOX_METHOD_PREFIX)});
  let inner;
  function load(params) {
    inner = document.createElement('iframe');
    const asked = typeof params.sandbox === 'string' ? params.sandbox : ${JSON.stringify(VIEW_SANDBOX)};
    inner.setAttribute('sandbox', asked.split(/\\s+/).filter((t) => permitted.includes(t)).join(' '));
    if (allow !== '') inner.setAttribute('allow', allow);
    inner.setAttribute('title', 'MCP App view');
    inner.srcdoc = typeof params.html === 'string' ? params.html : '';
    document.body.appendChild(inner);
  }
  window.addEventListener('message', (event) => {
    const data = event.data;
    if (event.source === window.parent && event.origin === host) {
      if (reserved(data)) {
        if (data.method === ${JSON.stringify(APPS_METHODS.sandboxResourceReady)} && inner === undefined)
          load(data.params || {});
        return;
      }
      if (inner !== undefined && inner.contentWindow) inner.contentWindow.postMessage(data, '*');
      return;
    }
    if (inner !== undefined && event.source === inner.contentWindow && !reserved(data))
      window.parent.postMessage(data, host);
  });
  window.parent.postMessage(
    { jsonrpc: '2.0', method: ${JSON.stringify(APPS_METHODS.sandboxProxyReady)}, params: {} },
    host,
  );
})();
`;

/** The policy of a `text/html` resource: rendered, never run, nothing fetched. */
export const HTML_RESOURCE_CSP =
  "default-src 'none'; style-src 'unsafe-inline'; img-src data:; font-src data:; media-src data:; " +
  "form-action 'none'; base-uri 'none'; sandbox";
const MAX_DOCUMENTS = 32;

const escapeAttribute = (value: string) =>
  value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

function proxyDocument(hostOrigins: readonly string[], view: SandboxView): string {
  return (
    `<!doctype html><html lang="en" data-hosts="${escapeAttribute(hostOrigins.join(' '))}" data-allow="${escapeAttribute(view.allow)}">` +
    '<head><meta charset="utf-8"><title>MCP App sandbox</title>' +
    '<style>html,body{margin:0;padding:0;height:100%;overflow:hidden;background:transparent}' +
    'iframe{border:0;width:100%;height:100%;display:block}</style>' +
    '<script src="/proxy.js"></script></head><body></body></html>'
  );
}

/** Starts the sandbox listener on `address` (the inspector's loopback address), a port of its own. */
/** `hostOrigins`: the inspector's own origins (its loopback names), the first the one it printed. */
export async function startSandbox(
  address: string,
  hostOrigins: () => readonly string[],
): Promise<RunningSandbox> {
  const views = new Map<string, SandboxView>();
  const documents = new Map<string, string>();
  const hosts = new Set<string>();
  const server: Server = createServer((request, response) => handle(request, response));

  function refuse(response: ServerResponse, status: number, text: string): void {
    response.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' });
    response.end(text);
  }

  function handle(request: IncomingMessage, response: ServerResponse): void {
    // DNS rebinding: only this listener's own names.
    if (!hosts.has((request.headers.host ?? '').toLowerCase()))
      return refuse(response, 403, 'forbidden host');
    if (request.method !== 'GET') return refuse(response, 405, 'GET only');
    const path = new URL(request.url ?? '/', 'http://sandbox').pathname;
    const common = {
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      'cache-control': 'no-store',
    };
    if (path === '/proxy.js') {
      response.writeHead(200, { ...common, 'content-type': 'text/javascript; charset=utf-8' });
      response.end(PROXY_SCRIPT);
      return;
    }
    const html = /^\/html\/([A-Za-z0-9_-]{16,64})$/.exec(path);
    if (html !== null) {
      const document = documents.get(html[1]!);
      if (document === undefined) return refuse(response, 404, 'no such document');
      response.setHeader('content-security-policy', [HTML_RESOURCE_CSP, frameAncestors(hostOrigins())]);
      response.writeHead(200, { ...common, 'content-type': 'text/html; charset=utf-8' });
      response.end(document);
      return;
    }
    const found = /^\/view\/([A-Za-z0-9_-]{16,64})$/.exec(path);
    const view = found === null ? undefined : views.get(found[1]!);
    if (view === undefined) return refuse(response, 404, 'no such view');
    // Two policies, both enforced: the View's, and one that lets only the inspector frame the proxy.
    response.setHeader('content-security-policy', [view.header, frameAncestors(hostOrigins())]);
    response.writeHead(200, { ...common, 'content-type': 'text/html; charset=utf-8' });
    response.end(proxyDocument(hostOrigins(), view));
  }

  await new Promise<void>((ready, reject) => {
    server.once('error', reject);
    server.listen(0, address, () => ready());
  });
  const bound = server.address();
  const port = typeof bound === 'object' && bound !== null ? bound.port : 0;
  for (const name of [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`]) hosts.add(name);
  const origin = `http://${address === '::1' ? '[::1]' : address}:${port}`;
  return {
    origin,
    register(view) {
      const id = randomBytes(18).toString('base64url');
      views.set(id, view);
      return { id, url: `${origin}/view/${id}` };
    },
    unregister(id) {
      views.delete(id);
    },
    registerDocument(html) {
      const id = randomBytes(18).toString('base64url');
      documents.set(id, html);
      if (documents.size > MAX_DOCUMENTS) documents.delete(documents.keys().next().value!);
      return { id, url: `${origin}/html/${id}` };
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((done) => server.close(() => done()));
    },
  };
}

/**
 * `frame-ancestors` for the host's origins. CSP's host-source grammar has no IPv6 literal, so Chromium drops
 * `http://[::1]:port` with a console warning; leave such origins out rather than emit a source it ignores.
 */
function frameAncestors(origins: readonly string[]): string {
  const sources = origins.filter((origin) => !/^https?:\/\/\[/.test(origin));
  return `frame-ancestors ${sources.length === 0 ? "'none'" : sources.join(' ')}`;
}
