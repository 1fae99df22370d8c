/**
 * The review's inspection of a server whose fleet.json says `apps: true` advertises MCP Apps, as a host does:
 * `capabilities.extensions["io.modelcontextprotocol/ui"] = { mimeTypes: ["text/html;profile=mcp-app"] }` in
 * `initialize` (legacy) and in every request's `_meta["io.modelcontextprotocol/clientCapabilities"]`
 * (2026-07-28). A server that negotiates (as the spec asks) shows `_meta.ui` only to such a client, so without
 * it the "MCP Apps" review check would find no tool linking a view. The engine's client takes capabilities only
 * as a whole, so the extension is added to the outgoing messages instead.
 */
import { APP_MIME_TYPE, APPS_EXTENSION, CLIENT_CAPABILITIES_META_KEY } from 'mcpengine/apps/protocol';

type Json = { [key: string]: unknown };

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function withApps(capabilities: Json): Json {
  const extensions = isObject(capabilities['extensions']) ? capabilities['extensions'] : {};
  return { ...capabilities, extensions: { ...extensions, [APPS_EXTENSION]: { mimeTypes: [APP_MIME_TYPE] } } };
}

/** The message with MCP Apps advertised where the client states its capabilities; any other unchanged. */
export function advertiseApps(text: string): string {
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
    params['capabilities'] = withApps(params['capabilities']);
    changed = true;
  }
  const meta = params['_meta'];
  if (isObject(meta) && isObject(meta[CLIENT_CAPABILITIES_META_KEY])) {
    meta[CLIENT_CAPABILITIES_META_KEY] = withApps(meta[CLIENT_CAPABILITIES_META_KEY]);
    changed = true;
  }
  return changed ? JSON.stringify(message) : text;
}

/** `transport` whose outgoing messages advertise MCP Apps (its other members pass through). */
export function advertisingApps<T extends object>(transport: T): T {
  const target = transport as T & { send(message: string): unknown };
  const send = (message: string): unknown => target.send(advertiseApps(message));
  return new Proxy(target, {
    get(object, key) {
      if (key === 'send') return send;
      const value: unknown = Reflect.get(object, key, object);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(object) : value;
    },
  });
}
