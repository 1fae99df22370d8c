/**
 * Claude Desktop: `claude_desktop_config.json`, strict JSON, `mcpServers`. On Windows the Microsoft Store (MSIX)
 * build — the default installer since February 2026 — reads a virtualised copy under
 * `%LOCALAPPDATA%\Packages\Claude_pzs8sxrjxfjjc\LocalCache\Roaming\Claude`; writing `%APPDATA%\Claude` there is
 * silently ignored, so the package directory is probed first. The file holds local (stdio) servers only:
 * remote servers are added in Settings → Connectors, so a URL is refused with that advice. No variable syntax.
 */
import { joinPath, localAppData, appConfigDir, xdgConfigHome, type PathContext } from '../platform.js';
import { RefusalError } from '../model.js';
import { optional, readStandard, stdioParts, type ClientDescriptor } from './descriptor.js';

const NAME = 'Claude Desktop';
const FILE = 'claude_desktop_config.json';
const MSIX_PACKAGE = 'Claude_pzs8sxrjxfjjc';

function userPath(ctx: PathContext): string {
  switch (ctx.platform) {
    case 'win32': {
      const msix = joinPath(localAppData(ctx), 'Packages', MSIX_PACKAGE);
      if (ctx.exists(msix)) return joinPath(msix, 'LocalCache', 'Roaming', 'Claude', FILE);
      return joinPath(appConfigDir(ctx, 'Claude'), FILE);
    }
    case 'darwin':
      return joinPath(appConfigDir(ctx, 'Claude'), FILE);
    case 'linux':
      // No official Linux build; community builds read the XDG location.
      return joinPath(xdgConfigHome(ctx), 'Claude', FILE);
  }
}

export const claudeDesktop: ClientDescriptor = {
  id: 'claude-desktop',
  name: NAME,
  format: 'json',
  sources: [
    'https://modelcontextprotocol.io/docs/develop/connect-local-servers',
    'https://support.claude.com/en/articles/10949351-getting-started-with-local-mcp-servers-on-claude-desktop',
    'https://github.com/anthropics/claude-code/issues/26073 (MSIX path)',
  ],
  scopes: { user: userPath },
  serversKey: ['mcpServers'],
  transports: ['stdio'],
  secrets: 'none (values are literal; a reference is refused)',
  inheritEnv: true,
  render(spec, ctx) {
    if (spec.transport !== 'stdio')
      throw new RefusalError(
        `${NAME} does not read remote servers from ${FILE}: add ${showUrl(spec)} in Claude Desktop under Settings → Connectors → Add custom connector. ` +
          `If you need it in the file, bridge it over stdio yourself, e.g. mcpengine add ${ctx.name} --client claude-desktop -- npx -y mcp-remote <url>`,
      );
    const { command, args, env } = stdioParts(spec, ctx, undefined, NAME);
    return { entry: { command, args, ...optional('env', env) }, notes: [] };
  },
  read: (entry) => readStandard(entry, NAME, undefined, () => undefined),
};

function showUrl(spec: { url: readonly unknown[] }): string {
  return spec.url.every((part) => typeof part === 'string') ? spec.url.join('') : 'the URL';
}
