/**
 * Windsurf: `~/.codeium/windsurf/mcp_config.json` on every platform, `mcpServers`. A remote server's URL is
 * `serverUrl` (a Cursor-style `url` does not connect). `${env:NAME}` is interpolated in command, args, env,
 * serverUrl and headers.
 */
import { homeDir, joinPath } from '../platform.js';
import {
  ALL_FIELDS,
  optional,
  readStandard,
  remoteParts,
  stdioParts,
  type ClientDescriptor,
  type ReferencePolicy,
} from './descriptor.js';
import { ENV_COLON } from './syntaxes.js';

const NAME = 'Windsurf';
const POLICY: ReferencePolicy = { syntax: ENV_COLON, fields: ALL_FIELDS };

export const windsurf: ClientDescriptor = {
  id: 'windsurf',
  name: NAME,
  format: 'json',
  sources: ['https://docs.windsurf.com/windsurf/cascade/mcp'],
  scopes: { user: (ctx) => joinPath(homeDir(ctx), '.codeium', 'windsurf', 'mcp_config.json') },
  serversKey: ['mcpServers'],
  transports: ['stdio', 'http', 'sse'],
  secrets: '`${env:NAME}` in command, args, env, serverUrl, headers',
  inheritEnv: true,
  sseFallback: true,
  render(spec, ctx) {
    if (spec.transport === 'stdio') {
      const { command, args, env } = stdioParts(spec, ctx, POLICY, NAME);
      return { entry: { command, args, ...optional('env', env) }, notes: [] };
    }
    const { url, headers } = remoteParts(spec, POLICY, NAME);
    return { entry: { serverUrl: url, ...optional('headers', headers) }, notes: [] };
  },
  read: (entry) =>
    readStandard(entry, NAME, POLICY, (object) => {
      const url = object['serverUrl'] ?? object['url'];
      return typeof url === 'string' ? { url, transport: 'http' } : undefined;
    }),
};
