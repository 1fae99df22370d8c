// A minimal host written against OUR protocol constants and types (mcpengine/apps/protocol): the handshake, tool
// input and result, and proxying the view's tools/call to the server only for tools with "app" visibility.
import {
  APPS_METHODS,
  APPS_PROTOCOL_VERSION,
  DEFAULT_VISIBILITY,
  type InitializeResult,
} from 'mcpengine/apps/protocol';
import { log, sandboxedFrame, setup } from './shared.js';

const { tool, tools, args, html } = await setup();
const iframe = sandboxedFrame();
const view = iframe.contentWindow!;
const post = (message: unknown) => view.postMessage(message, '*');
const answer = (id: unknown, result: unknown) => post({ jsonrpc: '2.0', id, result });
const refuse = (id: unknown, code: number, message: string) =>
  post({ jsonrpc: '2.0', id, error: { code, message } });

window.addEventListener('message', (event) => {
  if (event.source !== view) return;
  const message = event.data as {
    id?: unknown;
    method?: string;
    params?: { name?: string; [key: string]: unknown };
  };
  log.push({ received: message });
  if (message.method === undefined) return;
  switch (message.method) {
    case APPS_METHODS.initialize: {
      const result: InitializeResult = {
        protocolVersion: APPS_PROTOCOL_VERSION,
        hostInfo: { name: 'our-host', version: '1.0.0' },
        hostCapabilities: { serverTools: {} },
        hostContext: { theme: 'light', displayMode: 'inline', toolInfo: { tool: tool as never } },
      };
      return answer(message.id, result);
    }
    case APPS_METHODS.initialized:
      void (async () => {
        post({ jsonrpc: '2.0', method: APPS_METHODS.toolInput, params: { arguments: args } });
        const result = await window.mcp('tools/call', { name: tool.name, arguments: args });
        post({ jsonrpc: '2.0', method: APPS_METHODS.toolResult, params: result });
      })();
      return;
    case 'tools/call': {
      const target = tools.find((t) => t.name === message.params?.name);
      const visibility = target?._meta?.ui?.visibility ?? DEFAULT_VISIBILITY;
      if (!target || !visibility.includes('app'))
        return refuse(message.id, -32602, `Tool ${message.params?.name} is not available to the app`);
      void window
        .mcp('tools/call', message.params)
        .then((result) => answer(message.id, result))
        .catch((error: Error) => refuse(message.id, -32603, error.message));
      return;
    }
    case 'ping':
      return answer(message.id, {});
    default:
      if (message.id !== undefined) refuse(message.id, -32601, `Method not found: ${message.method}`);
  }
});
iframe.srcdoc = html;
window.hostReady = true;
