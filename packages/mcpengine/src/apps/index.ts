/**
 * `mcpengine/apps`: MCP Apps (`io.modelcontextprotocol/ui`) on the server — protocol constants and types, app
 * resources and tools as a server extension, HTML escaping, and shipping a view as one HTML document.
 * See docs/apps.md.
 */
export * from './protocol.js';
export {
  apps,
  appsCapability,
  assertHtmlDocument,
  callerSupportsApps,
  McpApps,
  type AppResourceConfig,
  type AppToolConfig,
  type AppToolUi,
} from './server.js';
export { escapeHtml, html, jsonForScript, SafeHtml, trustedHtml } from './html.js';
export { inlineHtmlAssets, readSingleFileView } from './bundle.js';
