/**
 * Kiro (IDE and CLI): `~/.kiro/settings/mcp.json`, project `.kiro/settings/mcp.json`, `mcpServers`; remote
 * entries are `{ url, headers }`. `${NAME}` references are expanded in env and headers.
 */
import { homeDir, joinPath } from '../platform.js';
import {
  optional,
  readStandard,
  remoteParts,
  stdioParts,
  type ClientDescriptor,
  type ReferencePolicy,
} from './descriptor.js';
import { DOLLAR_BRACE } from './syntaxes.js';

const NAME = 'Kiro';
const POLICY: ReferencePolicy = { syntax: DOLLAR_BRACE, fields: new Set(['env', 'headers']) };

export const kiro: ClientDescriptor = {
  id: 'kiro',
  name: NAME,
  format: 'json',
  sources: ['https://kiro.dev/docs/mcp/configuration', 'https://kiro.dev/docs/cli/mcp'],
  scopes: {
    user: (ctx) => joinPath(homeDir(ctx), '.kiro', 'settings', 'mcp.json'),
    project: (ctx) => joinPath(ctx.cwd, '.kiro', 'settings', 'mcp.json'),
  },
  serversKey: ['mcpServers'],
  transports: ['stdio', 'http', 'sse'],
  secrets: '`${NAME}` in env and headers',
  inheritEnv: true,
  render(spec, ctx) {
    if (spec.transport === 'stdio') {
      const { command, args, env } = stdioParts(spec, ctx, POLICY, NAME);
      return { entry: { command, args, ...optional('env', env), disabled: false }, notes: [] };
    }
    const { url, headers } = remoteParts(spec, POLICY, NAME);
    return { entry: { url, ...optional('headers', headers), disabled: false }, notes: [] };
  },
  read: (entry) =>
    readStandard(entry, NAME, POLICY, (object) =>
      typeof object['url'] === 'string'
        ? { url: object['url'], transport: object['type'] === 'sse' ? 'sse' : 'http' }
        : undefined,
    ),
};
