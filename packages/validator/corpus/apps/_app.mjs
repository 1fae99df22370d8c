// A small, correct MCP Apps server for the validator's `--apps` corpus and the inspector's host tests, built on the
// corpus' raw JSON-RPC server (../_server.mjs). Each broken entry starts it with one option that breaks one rule of
// the Apps specification (modelcontextprotocol/ext-apps specification/2026-01-26/apps.mdx).
//
// It negotiates per era: tools carry `_meta.ui` only for a client that advertised
// capabilities.extensions["io.modelcontextprotocol/ui"] with the MIME type — at initialize (legacy) or in the
// request's _meta client capabilities (2026-07-28). The View's CSP may declare one connect origin, taken from
// $CORPUS_APP_CONNECT (tests point it at a loopback server).
import { ECHO_TOOL, errorResponse, main, resultResponse } from '../_server.mjs';

export const UI = 'io.modelcontextprotocol/ui';
export const MIME = 'text/html;profile=mcp-app';
export const VIEW_URI = 'ui://corpus/view.html';

/** The View: plain JavaScript speaking the View's half of the protocol, with hooks for tests. */
export function viewHtml(head = '') {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Corpus app</title>
${head}
</head>
<body>
<h1>Corpus app</h1>
<p id="status">starting</p>
<p id="input">no input</p>
<p id="result">no result</p>
<p id="context">no context</p>
<p id="call">no call</p>
<p id="csp"></p>
<script>
(() => {
  let next = 1;
  const pending = new Map();
  const context = {};
  const show = (id, text) => { document.getElementById(id).textContent = text; };
  const send = (message) => window.parent.postMessage(message, '*');
  const request = (method, params) =>
    new Promise((resolve) => {
      const id = next++;
      pending.set(id, resolve);
      send({ jsonrpc: '2.0', id, method, params });
    });
  window.addEventListener('message', (event) => {
    if (event.source !== window.parent) return;
    const m = event.data;
    if (!m || m.jsonrpc !== '2.0') return;
    if (m.method === undefined) {
      const done = pending.get(m.id);
      if (done) { pending.delete(m.id); done(m); }
      return;
    }
    if (m.method === 'ui/notifications/tool-input') show('input', 'input ' + JSON.stringify(m.params.arguments));
    else if (m.method === 'ui/notifications/tool-result')
      show('result', 'result ' + JSON.stringify(m.params.structuredContent ?? m.params.content));
    else if (m.method === 'ui/notifications/tool-cancelled') show('result', 'cancelled ' + m.params.reason);
    else if (m.method === 'ui/notifications/host-context-changed') {
      Object.assign(context, m.params);
      show('context', 'theme ' + context.theme + ' mode ' + context.displayMode);
    } else if (m.method === 'ui/resource-teardown') {
      show('status', 'torn down');
      send({ jsonrpc: '2.0', id: m.id, result: {} });
    }
  });
  document.addEventListener('securitypolicyviolation', (event) => {
    document.getElementById('csp').textContent += 'violated ' + event.effectiveDirective + ' ' + event.blockedURI + ';';
  });
  window.corpusApp = {
    async call(name, args) {
      const answer = await request('tools/call', { name, arguments: args || {} });
      const text = answer.error
        ? 'error ' + answer.error.code + ' ' + answer.error.message
        : 'ok ' + JSON.stringify(answer.result.content);
      show('call', text);
      return text;
    },
    async fetch(url) {
      try {
        const response = await fetch(url);
        return 'status ' + response.status;
      } catch (error) {
        return 'blocked';
      }
    },
    async displayMode(mode) {
      const answer = await request('ui/request-display-mode', { mode });
      return answer.result.mode;
    },
  };
  request('ui/initialize', {
    appInfo: { name: 'corpus-view', version: '1.0.0' },
    appCapabilities: { availableDisplayModes: ['inline', 'fullscreen'] },
    protocolVersion: '2026-01-26',
  }).then((answer) => {
    Object.assign(context, answer.result.hostContext);
    show('context', 'theme ' + context.theme + ' mode ' + context.displayMode);
    send({ jsonrpc: '2.0', method: 'ui/notifications/initialized', params: {} });
    show('status', 'initialized');
    send({ jsonrpc: '2.0', method: 'ui/notifications/size-changed', params: { width: 600, height: 420 } });
  });
})();
</script>
</body>
</html>
`;
}

export const SHOW_TOOL = {
  name: 'show_view',
  title: 'Show the view',
  description: 'Echoes a text and shows it in the corpus app',
  inputSchema: { type: 'object', properties: { text: { type: 'string' } }, additionalProperties: false },
  annotations: { readOnlyHint: true },
  _meta: { ui: { resourceUri: VIEW_URI, visibility: ['model', 'app'] }, 'ui/resourceUri': VIEW_URI },
};
export const APP_ONLY_TOOL = {
  name: 'app_refresh',
  description: 'Refreshes the corpus app (for the app only)',
  inputSchema: { type: 'object', properties: {} },
  annotations: { readOnlyHint: true },
  _meta: { ui: { resourceUri: VIEW_URI, visibility: ['app'] } },
};
export const MODEL_ONLY_TOOL = {
  name: 'model_only',
  description: 'A tool only the model may call',
  inputSchema: { type: 'object', properties: {} },
  annotations: { readOnlyHint: true },
  _meta: { ui: { visibility: ['model'] } },
};

export function declaredCsp() {
  const connect = process.env.CORPUS_APP_CONNECT;
  return connect ? { connectDomains: [connect] } : {};
}

/**
 * Options (each breaks one rule when set): tools, resource (list entry), content (read item, a function of the
 * default), html, csp and uiMeta (the resource's _meta.ui), callTool (name, args) → result, alwaysUi (ignore
 * negotiation).
 */
export function appServer(options = {}) {
  const negotiated = new WeakSet();
  const html = options.html ?? viewHtml();
  const uiMeta = { csp: options.csp ?? declaredCsp(), prefersBorder: true, ...(options.uiMeta ?? {}) };
  const resource = options.resource ?? {
    uri: VIEW_URI,
    name: 'corpus-view',
    mimeType: MIME,
    _meta: { ui: uiMeta },
  };
  const content = (options.content ?? ((item) => item))({
    uri: VIEW_URI,
    mimeType: MIME,
    text: html,
    _meta: { ui: uiMeta },
  });
  const uiTools = options.tools ?? [ECHO_TOOL, SHOW_TOOL, APP_ONLY_TOOL, MODEL_ONLY_TOOL];
  const hasUi = (ctx) => {
    if (options.alwaysUi) return true;
    const caps = ctx.modern ? ctx.clientCapabilities : negotiated.has(ctx.state) ? { ok: true } : undefined;
    if (!ctx.modern) return caps !== undefined;
    const ui = caps?.extensions?.[UI];
    return Array.isArray(ui?.mimeTypes) && ui.mimeTypes.includes(MIME);
  };
  /** The text-only variants: no UI metadata, no app-only tools. */
  const textOnly = (tools) =>
    tools
      .filter((tool) => !(tool._meta?.ui?.visibility?.length === 1 && tool._meta.ui.visibility[0] === 'app'))
      .map((tool) => {
        if (tool._meta === undefined) return tool;
        const { _meta: _ignored, ...rest } = tool;
        return rest;
      });
  return main({
    tools: uiTools,
    resources: [{ uri: 'test://corpus/readme', name: 'readme', mimeType: 'text/plain' }, resource],
    afterInitialize({ state, message }) {
      const ui = message.params?.capabilities?.extensions?.[UI];
      if (Array.isArray(ui?.mimeTypes) && ui.mimeTypes.includes(MIME)) negotiated.add(state);
    },
    request(message, ctx, next) {
      if (message.method === 'tools/list') {
        const reply = next();
        if (reply?.result && !hasUi(ctx)) reply.result.tools = textOnly(reply.result.tools);
        return reply;
      }
      if (message.method === 'resources/read' && message.params?.uri === VIEW_URI)
        return resultResponse(message.id, { contents: [content] }, ctx, true);
      return next();
    },
    callTool(name, args, ctx, id) {
      if (options.callTool) {
        const custom = options.callTool(name, args);
        if (custom !== undefined) return resultResponse(id, custom, ctx);
      }
      switch (name) {
        case 'show_view':
          // A call that fails as a protocol error (the host then sends the View tool-cancelled).
          if (args.text === 'fail') return errorResponse(id, -32602, 'show_view refuses the text "fail"');
          return resultResponse(
            id,
            {
              content: [{ type: 'text', text: `Shown: ${String(args.text ?? '')}` }],
              structuredContent: { shown: String(args.text ?? '') },
            },
            ctx,
          );
        case 'app_refresh':
          return resultResponse(id, { content: [{ type: 'text', text: 'refreshed' }] }, ctx);
        case 'model_only':
          return resultResponse(id, { content: [{ type: 'text', text: 'the model called me' }] }, ctx);
        default:
          return undefined;
      }
    },
  });
}

export { errorResponse };
