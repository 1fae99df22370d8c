/**
 * MCP Apps (`io.modelcontextprotocol/ui`, SEP-1865, stable 2026-01-26): the names and constants the inspector's
 * reference host speaks. Kept local so the host does not depend on the engine's apps extension; the two are to be
 * deduplicated once both exist (see docs/apps-host.md).
 *
 * Source: modelcontextprotocol/ext-apps `specification/2026-01-26/apps.mdx`.
 */

/** "This extension is identified as: `io.modelcontextprotocol/ui`". */
export const UI_EXTENSION_ID = 'io.modelcontextprotocol/ui';
/** "`mimeType` MUST be `text/html;profile=mcp-app`". */
export const APP_MIME_TYPE = 'text/html;profile=mcp-app';
/** "URI MUST start with `ui://` scheme". */
export const APP_URI_SCHEME = 'ui://';
/** The Apps protocol version the host answers `ui/initialize` with. */
export const APPS_PROTOCOL_VERSION = '2026-01-26';
/** The deprecated flat tool key, still read ("will be removed before GA"). */
export const LEGACY_RESOURCE_URI_KEY = 'ui/resourceUri';

/** The `ui/*` methods between a View and its Host (17, with the two reserved sandbox notifications). */
export const UI_METHODS = {
  initialize: 'ui/initialize',
  initialized: 'ui/notifications/initialized',
  toolInput: 'ui/notifications/tool-input',
  toolInputPartial: 'ui/notifications/tool-input-partial',
  toolResult: 'ui/notifications/tool-result',
  toolCancelled: 'ui/notifications/tool-cancelled',
  hostContextChanged: 'ui/notifications/host-context-changed',
  resourceTeardown: 'ui/resource-teardown',
  requestTeardown: 'ui/notifications/request-teardown',
  sizeChanged: 'ui/notifications/size-changed',
  openLink: 'ui/open-link',
  downloadFile: 'ui/download-file',
  message: 'ui/message',
  updateModelContext: 'ui/update-model-context',
  requestDisplayMode: 'ui/request-display-mode',
  sandboxProxyReady: 'ui/notifications/sandbox-proxy-ready',
  sandboxResourceReady: 'ui/notifications/sandbox-resource-ready',
} as const;

/** "The Sandbox MUST forward messages … for any method that doesn't start with `ui/notifications/sandbox-`". */
export const SANDBOX_METHOD_PREFIX = 'ui/notifications/sandbox-';

/** "The Sandbox MUST have the following permissions: `allow-scripts`, `allow-same-origin`." (the outer frame) */
export const PROXY_SANDBOX = 'allow-scripts allow-same-origin';
/** The View's own frame inside the proxy: scripts and forms, an opaque origin (stricter than the proxy). */
export const VIEW_SANDBOX = 'allow-scripts allow-forms';

export type DisplayMode = 'inline' | 'fullscreen' | 'pip';
export const HOST_DISPLAY_MODES: readonly DisplayMode[] = ['inline', 'fullscreen'];

/** `_meta.ui.permissions` → Permission Policy features of the inner iframe's `allow` attribute. */
export const PERMISSION_FEATURES = {
  camera: 'camera',
  microphone: 'microphone',
  geolocation: 'geolocation',
  clipboardWrite: 'clipboard-write',
} as const;

export type Visibility = 'model' | 'app';
/** "`visibility` defaults to `["model", "app"]` if omitted". */
export const DEFAULT_VISIBILITY: readonly Visibility[] = ['model', 'app'];

/** The client capability a host advertises: `capabilities.extensions["io.modelcontextprotocol/ui"]`. */
export const UI_CLIENT_CAPABILITY = { mimeTypes: [APP_MIME_TYPE] } as const;
