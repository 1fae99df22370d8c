/**
 * MCP Apps on the server, as an extension (`server.extend()`): app resources (`ui://`, `text/html;profile=mcp-app`,
 * `_meta.ui` on the list entry and the read content) and tools linked to them (`_meta.ui.resourceUri`, the
 * deprecated flat `ui/resourceUri`, `_meta.ui.visibility`).
 *
 * Negotiation, both eras: a client supports Apps when its capabilities carry
 * `extensions["io.modelcontextprotocol/ui"].mimeTypes` including `text/html;profile=mcp-app` — at `initialize`
 * (legacy; `experimental[…]` is accepted too, older hosts used it) or in every request's
 * `_meta["io.modelcontextprotocol/clientCapabilities"]` (2026-07-28). The UI metadata of a tool is added per
 * `tools/list` request, only for such clients; a stateless server thus answers a text-only client with plain tools.
 * App-only tools (`visibility: ["app"]`) are listed only to clients that support Apps: the spec has the host drop
 * them from the model's list, and a client that cannot render apps would otherwise hand them to its model.
 */
import type { ClientCapabilities, JsonObject, MetaObject } from '../protocol/types.js';
import type { Caller, RequestContext } from '../server/context.js';
import type { ServerExtension } from '../server/extension.js';
import type { ResourceConfig } from '../server/features/resources.js';
import type { ToolConfig, ToolReturn } from '../server/features/tools.js';
import type { FeatureHandle, McpServer } from '../server/server.js';
import {
  APP_MIME_TYPE,
  APP_URI_SCHEME,
  APPS_EXTENSION,
  LEGACY_RESOURCE_URI_META_KEY,
  UI_META_KEY,
  type AppCsp,
  type AppResourceMeta,
  type AppToolVisibility,
  type AppsClientCapability,
} from './protocol.js';

/** The client's Apps capability when it declared one that includes our MIME type; otherwise undefined. */
export function appsCapability(
  capabilities: ClientCapabilities | undefined,
): AppsClientCapability | undefined {
  for (const holder of [capabilities?.extensions, capabilities?.experimental]) {
    const entry = holder?.[APPS_EXTENSION] as JsonObject | undefined;
    if (entry === null || typeof entry !== 'object') continue;
    const mimeTypes = entry.mimeTypes;
    if (Array.isArray(mimeTypes) && mimeTypes.includes(APP_MIME_TYPE)) return entry as AppsClientCapability;
  }
  return undefined;
}

/** Whether the caller (its capabilities at initialize, or this request's in 2026-07-28) can render apps. */
export function callerSupportsApps(caller: Pick<Caller, 'client'>): boolean {
  return appsCapability(caller.client.capabilities) !== undefined;
}

export interface AppResourceConfig extends AppResourceMeta {
  /** A `ui://` URI. */
  uri: string;
  name: string;
  title?: string;
  description?: string;
  /** One complete HTML5 document (`<!doctype html>`), or a function producing it per read. */
  html: string | ((ctx: RequestContext) => string | Promise<string>);
  /** Other `_meta` entries for the list entry and the content item (`ui` is set from the fields above). */
  _meta?: MetaObject;
}

export interface AppToolUi {
  /** The `ui://` resource the host renders for this tool; registered with `apps.resource()` first. */
  resourceUri?: string;
  /** Who may call the tool; default `["model", "app"]`. `["app"]`: only the view (refresh buttons, forms). */
  visibility?: AppToolVisibility[];
}

export type AppToolConfig<Args = JsonObject> = ToolConfig<Args> & { ui: AppToolUi };

const VISIBILITIES: readonly string[] = ['model', 'app'];
/** scheme://host[:port], host possibly `*.`-prefixed; nothing that could break out of a CSP directive. */
const CSP_SOURCE = /^(https?|wss?):\/\/(\*\.)?[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*(:\d{1,5})?$/;
const DOCTYPE = /^\uFEFF?\s*(<!--[\s\S]*?-->\s*)*<!doctype html>/i;

/** Throws when the HTML is not an HTML5 document (the spec: the content MUST be a valid HTML5 document). */
export function assertHtmlDocument(html: unknown, where: string): asserts html is string {
  if (typeof html !== 'string' || !DOCTYPE.test(html))
    throw new TypeError(`${where}: the HTML must be a complete HTML5 document starting with <!doctype html>`);
}

function checkCsp(csp: AppCsp | undefined, where: string): void {
  if (csp === undefined) return;
  if (csp === null || typeof csp !== 'object') throw new TypeError(`${where}: csp must be an object`);
  for (const [key, domains] of Object.entries(csp)) {
    if (!['connectDomains', 'resourceDomains', 'frameDomains', 'baseUriDomains'].includes(key))
      throw new TypeError(`${where}: unknown csp field "${key}"`);
    if (!Array.isArray(domains)) throw new TypeError(`${where}: csp.${key} must be an array of origins`);
    for (const domain of domains as unknown[]) {
      if (typeof domain !== 'string' || !CSP_SOURCE.test(domain))
        throw new TypeError(
          `${where}: csp.${key} entry ${JSON.stringify(domain)} is not an origin like https://api.example.com`,
        );
    }
  }
}

function resourceMeta(config: AppResourceConfig): AppResourceMeta {
  const meta: AppResourceMeta = {};
  if (config.csp !== undefined) meta.csp = config.csp;
  if (config.permissions !== undefined) meta.permissions = config.permissions;
  if (config.domain !== undefined) meta.domain = config.domain;
  if (config.prefersBorder !== undefined) meta.prefersBorder = config.prefersBorder;
  return meta;
}

function hasText(result: ToolReturn): boolean {
  if (typeof result === 'string') return result.trim().length > 0;
  if (result === null || typeof result !== 'object') return false;
  const r = result as { content?: unknown; structuredContent?: unknown; resultType?: unknown };
  // An input request is not a result yet.
  if (r.resultType !== undefined && r.resultType !== 'complete') return true;
  if (Array.isArray(r.content))
    return r.content.some((block: { type?: unknown; text?: unknown }) =>
      block?.type === 'text' ? typeof block.text === 'string' && block.text.trim() !== '' : block != null,
    );
  // Structured content alone: the engine adds its JSON as the text block.
  return r.structuredContent !== undefined;
}

/**
 * The Apps extension of one server. `apps(server)` installs it; register views with `resource()` and tools
 * with `tool()`.
 */
export class McpApps implements ServerExtension {
  readonly id = APPS_EXTENSION;
  private readonly tools = new Map<string, AppToolUi>();
  private readonly resources = new Set<string>();

  constructor(private readonly server: McpServer) {}

  capabilities(): { extensions: Record<string, JsonObject> } | undefined {
    return this.tools.size + this.resources.size > 0 ? { extensions: { [APPS_EXTENSION]: {} } } : undefined;
  }

  readonly gates = {
    toolsListMeta: (tool: { name: string }, call: { ctx: { client: Caller['client'] } }) => {
      const ui = this.tools.get(tool.name);
      if (!ui || !callerSupportsApps(call.ctx)) return undefined;
      const meta: JsonObject = { [UI_META_KEY]: { ...ui } as JsonObject };
      if (ui.resourceUri !== undefined) meta[LEGACY_RESOURCE_URI_META_KEY] = ui.resourceUri;
      return meta;
    },
  };

  /** Registers a view: a `ui://` resource of MIME type `text/html;profile=mcp-app`. */
  resource(config: AppResourceConfig): FeatureHandle<AppResourceConfig> {
    const uri = config?.uri;
    const prepared = prepareResource(config);
    if (this.resources.has(uri))
      throw new TypeError(`App resource ${JSON.stringify(uri)} is already registered`);
    const handle = this.server.addResource(prepared);
    this.resources.add(uri);
    return {
      get enabled() {
        return handle.enabled;
      },
      enable: () => handle.enable(),
      disable: () => handle.disable(),
      update: (next) => {
        if (next?.uri !== uri) throw new TypeError(`App resource ${uri}: update() cannot change the URI`);
        handle.update(prepareResource(next));
      },
      remove: () => {
        handle.remove();
        this.resources.delete(uri);
      },
    };
  }

  /**
   * Registers a tool linked to a view. Its `_meta.ui` (and the flat `ui/resourceUri`) is listed only to clients
   * that support Apps; app-only tools are listed only to them. Every result must carry text for the model and
   * for clients without Apps (the spec's text fallback): a result without any is turned into a tool error.
   */
  tool<Args = JsonObject>(config: AppToolConfig<Args>): FeatureHandle<AppToolConfig<Args>> {
    const name = config?.name;
    const prepared = this.prepareTool(config);
    const handle = this.server.addTool(prepared.tool);
    this.tools.set(name, prepared.ui);
    return {
      get enabled() {
        return handle.enabled;
      },
      enable: () => handle.enable(),
      disable: () => handle.disable(),
      update: (next) => {
        if (next?.name !== name) throw new TypeError(`App tool ${name}: update() cannot change the name`);
        const again = this.prepareTool(next);
        handle.update(again.tool);
        this.tools.set(name, again.ui);
      },
      remove: () => {
        handle.remove();
        this.tools.delete(name);
      },
    };
  }

  private prepareTool<Args>(config: AppToolConfig<Args>): { tool: ToolConfig<Args>; ui: AppToolUi } {
    const where = `App tool ${JSON.stringify(config?.name)}`;
    const ui = config?.ui;
    if (ui === null || typeof ui !== 'object') throw new TypeError(`${where}: ui is required`);
    if (ui.resourceUri !== undefined) {
      if (typeof ui.resourceUri !== 'string' || !ui.resourceUri.startsWith(APP_URI_SCHEME))
        throw new TypeError(`${where}: ui.resourceUri must start with ui://`);
      if (!this.resources.has(ui.resourceUri))
        throw new TypeError(
          `${where}: ui.resourceUri ${ui.resourceUri} is not registered (apps.resource() first)`,
        );
    }
    if (ui.visibility !== undefined) {
      if (
        !Array.isArray(ui.visibility) ||
        ui.visibility.length === 0 ||
        ui.visibility.some((v) => !VISIBILITIES.includes(v))
      )
        throw new TypeError(`${where}: ui.visibility must list "model" and/or "app"`);
    }
    if (ui.resourceUri === undefined && ui.visibility === undefined)
      throw new TypeError(`${where}: ui needs a resourceUri or a visibility`);
    const { ui: _ui, ...rest } = config;
    const { visible, handler, name } = rest;
    const tool: ToolConfig<Args> = {
      ...rest,
      handler: async (args, ctx) => {
        const result = await handler(args, ctx);
        if (!hasText(result))
          throw new Error(`${name} returned no text content; app tools must return a text fallback`);
        return result;
      },
    };
    if (ui.visibility !== undefined && !ui.visibility.includes('model'))
      tool.visible = (caller) => callerSupportsApps(caller) && (visible ? visible(caller) : true);
    const entry: AppToolUi = {};
    if (ui.resourceUri !== undefined) entry.resourceUri = ui.resourceUri;
    if (ui.visibility !== undefined) entry.visibility = [...ui.visibility];
    return { tool, ui: entry };
  }
}

function prepareResource(config: AppResourceConfig): ResourceConfig {
  const where = `App resource ${JSON.stringify(config?.uri)}`;
  if (typeof config?.uri !== 'string' || !config.uri.startsWith(APP_URI_SCHEME) || config.uri.length <= 5)
    throw new TypeError(`${where}: the URI must start with ui://`);
  if (typeof config.html === 'string') assertHtmlDocument(config.html, where);
  else if (typeof config.html !== 'function')
    throw new TypeError(`${where}: html must be a string or function`);
  checkCsp(config.csp, where);
  if (config.domain !== undefined && (typeof config.domain !== 'string' || /[\s;'"]/.test(config.domain)))
    throw new TypeError(`${where}: domain must be a host name`);
  const ui = resourceMeta(config);
  const _meta: MetaObject = { ...config._meta };
  if (Object.keys(ui).length > 0) _meta[UI_META_KEY] = ui as JsonObject;
  const hasMeta = Object.keys(_meta).length > 0;
  const source = config.html;
  return {
    uri: config.uri,
    name: config.name,
    ...(config.title !== undefined && { title: config.title }),
    ...(config.description !== undefined && { description: config.description }),
    mimeType: APP_MIME_TYPE,
    ...(hasMeta && { _meta }),
    read: async (uri, ctx) => {
      const html = typeof source === 'string' ? source : await source(ctx);
      assertHtmlDocument(html, where);
      return { contents: [{ uri, mimeType: APP_MIME_TYPE, text: html, ...(hasMeta && { _meta }) }] };
    },
  };
}

/** Installs MCP Apps on a server (once; later calls return the same instance). */
export function apps(server: McpServer): McpApps {
  const installed = server.extension(APPS_EXTENSION);
  if (installed instanceof McpApps) return installed;
  if (installed) throw new TypeError(`${APPS_EXTENSION} is already installed by another extension`);
  const extension = new McpApps(server);
  server.extend(extension);
  return extension;
}
