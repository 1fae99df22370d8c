/**
 * Zed: `settings.json` (JSONC) under `~/.config/zed` on macOS and Linux (`$XDG_CONFIG_HOME/zed` on Linux) or
 * `%APPDATA%\Zed` on Windows; project `.zed/settings.json`. Servers are `context_servers` entries with
 * `source: "custom"`; remote ones are `{ url, headers }` over Streamable HTTP (Zed has no HTTP+SSE client).
 * No variable syntax: values are literal.
 */
import { appData, homeDir, joinPath, xdgConfigHome, type PathContext } from '../platform.js';
import {
  optional,
  readStandard,
  refuseTransport,
  remoteParts,
  stdioParts,
  type ClientDescriptor,
} from './descriptor.js';

const NAME = 'Zed';

function userPath(ctx: PathContext): string {
  switch (ctx.platform) {
    case 'win32':
      return joinPath(appData(ctx), 'Zed', 'settings.json');
    case 'darwin':
      return joinPath(homeDir(ctx), '.config', 'zed', 'settings.json');
    case 'linux':
      return joinPath(xdgConfigHome(ctx), 'zed', 'settings.json');
  }
}

export const zed: ClientDescriptor = {
  id: 'zed',
  name: NAME,
  format: 'jsonc',
  sources: ['https://zed.dev/docs/ai/mcp', 'https://zed.dev/docs/configuring-zed'],
  scopes: { user: userPath, project: (ctx) => joinPath(ctx.cwd, '.zed', 'settings.json') },
  serversKey: ['context_servers'],
  transports: ['stdio', 'http'],
  secrets: 'none (values are literal; a reference is refused)',
  inheritEnv: true,
  render(spec, ctx) {
    if (spec.transport === 'sse')
      refuseTransport(NAME, 'sse', 'Zed connects to remote servers over Streamable HTTP only');
    if (spec.transport === 'stdio') {
      const { command, args, env } = stdioParts(spec, ctx, undefined, NAME);
      return { entry: { source: 'custom', command, args, ...optional('env', env) }, notes: [] };
    }
    const { url, headers } = remoteParts(spec, undefined, NAME);
    return { entry: { source: 'custom', url, ...optional('headers', headers) }, notes: [] };
  },
  read: (entry) =>
    readStandard(entry, NAME, undefined, (object) =>
      typeof object['url'] === 'string' ? { url: object['url'], transport: 'http' } : undefined,
    ),
};
