/**
 * MCP Apps (`io.modelcontextprotocol/ui`, SEP-1865, stable 2026-01-26): what only the inspector's reference host
 * needs. The protocol itself — extension id, MIME type, `ui://` scheme, method names, meta keys, the default CSP and
 * visibility — comes from the engine's one protocol module, `mcpengine/apps/protocol`, which the server helpers, the
 * view bridge and the validator share.
 *
 * Source: modelcontextprotocol/ext-apps `specification/2026-01-26/apps.mdx`.
 */
import { APP_MIME_TYPE, type AppPermissions, type AppsClientCapability } from 'mcpengine/apps/protocol';

/** "The Sandbox MUST forward messages … for any method that doesn't start with `ui/notifications/sandbox-`". */
export const SANDBOX_METHOD_PREFIX = 'ui/notifications/sandbox-';

/** "The Sandbox MUST have the following permissions: `allow-scripts`, `allow-same-origin`." (the outer frame) */
export const PROXY_SANDBOX = 'allow-scripts allow-same-origin';
/** The View's own frame inside the proxy: scripts and forms, an opaque origin (stricter than the proxy). */
export const VIEW_SANDBOX = 'allow-scripts allow-forms';

/** `_meta.ui.permissions` → Permission Policy features of the inner iframe's `allow` attribute. */
export const PERMISSION_FEATURES: { readonly [name in keyof Required<AppPermissions>]: string } = {
  camera: 'camera',
  microphone: 'microphone',
  geolocation: 'geolocation',
  clipboardWrite: 'clipboard-write',
};

/** The client capability this host advertises: `capabilities.extensions["io.modelcontextprotocol/ui"]`. */
export const UI_CLIENT_CAPABILITY: Readonly<AppsClientCapability> = { mimeTypes: [APP_MIME_TYPE] };
