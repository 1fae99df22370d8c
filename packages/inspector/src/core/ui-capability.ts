/**
 * The host side of MCP Apps capability negotiation: the inspector's client advertises
 * `capabilities.extensions["io.modelcontextprotocol/ui"] = { mimeTypes: ["text/html;profile=mcp-app"] }`
 * (apps.mdx, "Client (Host) Capabilities": "`mimeTypes`: Array of supported content types (REQUIRED …)").
 *
 * Both eras: in the `initialize` request (legacy; the spec's own example uses protocolVersion 2024-11-05), and in
 * the per-request client capabilities of 2026-07-28 (`_meta["io.modelcontextprotocol/clientCapabilities"]`), so a
 * stateless server can decide per `tools/list` whether to show UI metadata. The engine's client takes explicit
 * capabilities only as a whole (which would drop the ones it derives from the handlers and revision), so the
 * extension is added on the way out instead, before the timeline records the message.
 */
import { UI_CLIENT_CAPABILITY, UI_EXTENSION_ID } from '../web/apps-host/protocol.js';

const CLIENT_CAPABILITIES_META = 'io.modelcontextprotocol/clientCapabilities';

type Json = { [key: string]: unknown };

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function withUi(capabilities: Json): Json {
  const extensions = isObject(capabilities['extensions']) ? capabilities['extensions'] : {};
  return { ...capabilities, extensions: { ...extensions, [UI_EXTENSION_ID]: { ...UI_CLIENT_CAPABILITY } } };
}

/** The message with the UI extension advertised where the client states its capabilities; others unchanged. */
export function advertiseUi(text: string): string {
  let message: unknown;
  try {
    message = JSON.parse(text);
  } catch {
    return text;
  }
  if (!isObject(message) || typeof message['method'] !== 'string' || !isObject(message['params']))
    return text;
  const params = message['params'];
  let changed = false;
  if (message['method'] === 'initialize' && isObject(params['capabilities'])) {
    params['capabilities'] = withUi(params['capabilities']);
    changed = true;
  }
  const meta = params['_meta'];
  if (isObject(meta) && isObject(meta[CLIENT_CAPABILITIES_META])) {
    meta[CLIENT_CAPABILITIES_META] = withUi(meta[CLIENT_CAPABILITIES_META]);
    changed = true;
  }
  return changed ? JSON.stringify(message) : text;
}

interface TransportLike {
  send(message: string): void;
}

/** `transport` whose outgoing messages advertise the UI extension (everything else passes through). */
export function advertisingUiTransport<T extends TransportLike>(transport: T): T {
  const send = (message: string): void => transport.send(advertiseUi(message));
  return new Proxy(transport, {
    get(target, key) {
      if (key === 'send') return send;
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}
