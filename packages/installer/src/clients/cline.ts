/**
 * Cline (the VS Code extension): `cline_mcp_settings.json` in the extension's global storage under VS Code's
 * user directory; the Cline CLI keeps the same file under `~/.cline/data/settings/` (`$CLINE_DIR`), used when
 * that is the one present. `mcpServers`; remote entries carry `type: "streamableHttp"` or `"sse"`. No variable
 * syntax: values are literal.
 */
import { appConfigDir, envVar, homeDir, joinPath, type PathContext } from '../platform.js';
import { optional, readStandard, remoteParts, stdioParts, type ClientDescriptor } from './descriptor.js';

const NAME = 'Cline';
const FILE = 'cline_mcp_settings.json';

function userPath(ctx: PathContext): string {
  const extension = joinPath(
    appConfigDir(ctx, 'Code'),
    'User',
    'globalStorage',
    'saoudrizwan.claude-dev',
    'settings',
  );
  const cliDir = envVar(ctx, 'CLINE_DIR') ?? joinPath(homeDir(ctx), '.cline');
  const cli = joinPath(cliDir, 'data', 'settings');
  if (!ctx.exists(extension) && ctx.exists(cli)) return joinPath(cli, FILE);
  return joinPath(extension, FILE);
}

export const cline: ClientDescriptor = {
  id: 'cline',
  name: NAME,
  format: 'json',
  sources: [
    'https://docs.cline.bot/mcp/configuring-mcp-servers',
    'https://docs.cline.bot/mcp/connecting-to-a-remote-server',
  ],
  scopes: { user: userPath },
  serversKey: ['mcpServers'],
  transports: ['stdio', 'http', 'sse'],
  secrets: 'none (values are literal; a reference is refused)',
  inheritEnv: true,
  render(spec, ctx) {
    if (spec.transport === 'stdio') {
      const { command, args, env } = stdioParts(spec, ctx, undefined, NAME);
      return { entry: { command, args, ...optional('env', env), disabled: false }, notes: [] };
    }
    const { url, headers } = remoteParts(spec, undefined, NAME);
    return {
      entry: {
        type: spec.transport === 'sse' ? 'sse' : 'streamableHttp',
        url,
        ...optional('headers', headers),
        disabled: false,
      },
      notes: [],
    };
  },
  read: (entry) =>
    readStandard(entry, NAME, undefined, (object) =>
      typeof object['url'] === 'string'
        ? { url: object['url'], transport: object['type'] === 'sse' ? 'sse' : 'http' }
        : undefined,
    ),
};
