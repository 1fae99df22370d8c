/**
 * MCP Apps (`io.modelcontextprotocol/ui`, SEP-1865): the protocol's identifiers, method names and message shapes,
 * shared by the server helpers (`mcpengine/apps`), the view bridge (`@mcpengine/apps-view`), the inspector's
 * reference host and the validator. Pure data and types: no imports at run time, safe in a browser bundle.
 *
 * Source: the Apps specification `specification/2026-01-26/apps.mdx` (ext-apps) and the official SDK
 * `@modelcontextprotocol/ext-apps` 2.0.x, whose wire protocol we interoperate with (notes: factory-2026-11 §1.2).
 */
import type { CallToolResult, ContentBlock, Implementation, Tool } from '../protocol/types.js';

/** The extension identifier, the key in `capabilities.extensions` (and `experimental`, accepted for old clients). */
export const APPS_EXTENSION = 'io.modelcontextprotocol/ui';
/** The MIME type of an app resource ("text/html;profile=mcp-app"). */
export const APP_MIME_TYPE = 'text/html;profile=mcp-app';
/** App resource URIs MUST start with this scheme prefix. */
export const APP_URI_SCHEME = 'ui://';
/** The Apps protocol version spoken over postMessage (not an MCP revision). */
export const APPS_PROTOCOL_VERSION = '2026-01-26';
/** The `_meta` key holding UI metadata on tools and resources. */
export const UI_META_KEY = 'ui';
/** The deprecated flat `_meta` key for a tool's resource URI; hosts still read it, so servers write both. */
export const LEGACY_RESOURCE_URI_META_KEY = 'ui/resourceUri';
/** Where 2026-07-28 clients send their capabilities with every request. */
export const CLIENT_CAPABILITIES_META_KEY = 'io.modelcontextprotocol/clientCapabilities';

/** Every `ui/*` method of the View ⇄ Host protocol. */
export const APPS_METHODS = {
  // View → Host requests
  initialize: 'ui/initialize',
  openLink: 'ui/open-link',
  downloadFile: 'ui/download-file',
  message: 'ui/message',
  updateModelContext: 'ui/update-model-context',
  requestDisplayMode: 'ui/request-display-mode',
  // View → Host notifications
  initialized: 'ui/notifications/initialized',
  sizeChanged: 'ui/notifications/size-changed',
  requestTeardown: 'ui/notifications/request-teardown',
  // Host → View notifications
  toolInput: 'ui/notifications/tool-input',
  toolInputPartial: 'ui/notifications/tool-input-partial',
  toolResult: 'ui/notifications/tool-result',
  toolCancelled: 'ui/notifications/tool-cancelled',
  hostContextChanged: 'ui/notifications/host-context-changed',
  // Host → View request
  resourceTeardown: 'ui/resource-teardown',
  // Sandbox proxy ⇄ Host (web hosts' double iframe); never relayed to the View
  sandboxProxyReady: 'ui/notifications/sandbox-proxy-ready',
  sandboxResourceReady: 'ui/notifications/sandbox-resource-ready',
} as const;
export type AppsMethod = (typeof APPS_METHODS)[keyof typeof APPS_METHODS];

/** Standard MCP methods a View may send through the host (proxied to the server, or answered by the host). */
export const VIEW_MCP_METHODS = [
  'tools/call',
  'resources/read',
  'resources/list',
  'resources/templates/list',
  'notifications/message',
  'ping',
  'sampling/createMessage',
] as const;

/** The CSP a host MUST apply when a resource declares no `csp` (spec, "Content Security Policy"). */
export const DEFAULT_APP_CSP =
  "default-src 'none'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; " +
  "img-src 'self' data:; media-src 'self' data:; connect-src 'none'";

export type AppToolVisibility = 'model' | 'app';
/** The default visibility: the model and the app may both call the tool. */
export const DEFAULT_VISIBILITY: readonly AppToolVisibility[] = ['model', 'app'];
export type AppDisplayMode = 'inline' | 'fullscreen' | 'pip';
export type AppTheme = 'light' | 'dark';

/** Client capability entry: `capabilities.extensions["io.modelcontextprotocol/ui"]`. `mimeTypes` is required. */
export interface AppsClientCapability {
  mimeTypes: string[];
  [key: string]: unknown;
}

/** `_meta.ui` on a tool. */
export interface AppToolMeta {
  /** The `ui://` resource rendered for this tool's results. */
  resourceUri?: string;
  /** Who may call the tool; default `["model", "app"]`. */
  visibility?: AppToolVisibility[];
}

/** `_meta.ui.csp` on a resource: origins the view needs, per CSP directive. */
export interface AppCsp {
  /** `connect-src` (fetch, XHR, WebSocket). */
  connectDomains?: string[];
  /** `img-src`, `script-src`, `style-src`, `font-src`, `media-src`. */
  resourceDomains?: string[];
  /** `frame-src`. */
  frameDomains?: string[];
  /** `base-uri`. */
  baseUriDomains?: string[];
}

/** `_meta.ui.permissions` on a resource → the iframe `allow` attribute. */
export interface AppPermissions {
  camera?: Record<string, never>;
  microphone?: Record<string, never>;
  geolocation?: Record<string, never>;
  clipboardWrite?: Record<string, never>;
}

/** `_meta.ui` on a resource (list entry and read content; the content item wins). */
export interface AppResourceMeta {
  csp?: AppCsp;
  permissions?: AppPermissions;
  /** A host-specific dedicated origin for the view. */
  domain?: string;
  /** Whether the view prefers a visible border and background from the host. */
  prefersBorder?: boolean;
}

export interface AppCapabilities {
  experimental?: Record<string, object>;
  tools?: { listChanged?: boolean };
  availableDisplayModes?: AppDisplayMode[];
}

export interface ContentModalities {
  text?: object;
  image?: object;
  audio?: object;
  resource?: object;
  resourceLink?: object;
  structuredContent?: object;
}

export interface HostCapabilities {
  experimental?: Record<string, object>;
  openLinks?: object;
  downloadFile?: object;
  serverTools?: { listChanged?: boolean };
  serverResources?: { listChanged?: boolean };
  logging?: object;
  sandbox?: { permissions?: AppPermissions; csp?: AppCsp };
  updateModelContext?: ContentModalities;
  message?: ContentModalities;
  sampling?: { tools?: object };
}

export interface HostContext {
  toolInfo?: { id?: string | number; tool: Tool };
  theme?: AppTheme;
  styles?: { variables?: Record<string, string | undefined>; css?: { fonts?: string } };
  displayMode?: AppDisplayMode;
  availableDisplayModes?: AppDisplayMode[];
  containerDimensions?: { height?: number; maxHeight?: number; width?: number; maxWidth?: number };
  locale?: string;
  timeZone?: string;
  userAgent?: string;
  platform?: 'web' | 'desktop' | 'mobile';
  deviceCapabilities?: { touch?: boolean; hover?: boolean };
  safeAreaInsets?: { top: number; right: number; bottom: number; left: number };
  [key: string]: unknown;
}

export interface InitializeParams {
  appInfo: Implementation;
  appCapabilities: AppCapabilities;
  protocolVersion: string;
}

export interface InitializeResult {
  protocolVersion: string;
  hostInfo: Implementation;
  hostCapabilities: HostCapabilities;
  hostContext: HostContext;
  [key: string]: unknown;
}

export interface ToolInputParams {
  arguments?: Record<string, unknown>;
}
export type ToolResultParams = CallToolResult;
export interface ToolCancelledParams {
  reason?: string;
}
export interface SizeChangedParams {
  width?: number;
  height?: number;
}
export interface OpenLinkParams {
  url: string;
}
export interface MessageParams {
  role: 'user';
  content: ContentBlock[];
}
export interface UpdateModelContextParams {
  content?: ContentBlock[];
  structuredContent?: Record<string, unknown>;
}
export interface RequestDisplayModeParams {
  mode: AppDisplayMode;
}
export interface RequestDisplayModeResult {
  mode: AppDisplayMode;
}
/** The result of `ui/open-link`, `ui/message`, `ui/download-file`. */
export interface AppActionResult {
  isError?: boolean;
  [key: string]: unknown;
}
export interface SandboxResourceReadyParams {
  html: string;
  sandbox?: string;
  csp?: AppCsp;
  permissions?: AppPermissions;
}
