/**
 * Cursor: `~/.cursor/mcp.json` (every platform), project `.cursor/mcp.json`, `mcpServers`. Remote servers are
 * `{ url, headers }`; Cursor detects Streamable HTTP or SSE itself. `${env:NAME}` is interpolated in command,
 * args, env, url and headers.
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

const NAME = 'Cursor';
const POLICY: ReferencePolicy = { syntax: ENV_COLON, fields: ALL_FIELDS };

export const cursor: ClientDescriptor = {
  id: 'cursor',
  name: NAME,
  format: 'jsonc',
  sources: ['https://cursor.com/docs/context/mcp'],
  scopes: {
    user: (ctx) => joinPath(homeDir(ctx), '.cursor', 'mcp.json'),
    project: (ctx) => joinPath(ctx.cwd, '.cursor', 'mcp.json'),
  },
  serversKey: ['mcpServers'],
  transports: ['stdio', 'http', 'sse'],
  secrets: '`${env:NAME}` in command, args, env, url, headers',
  inheritEnv: true,
  sseFallback: true,
  render(spec, ctx) {
    if (spec.transport === 'stdio') {
      const { command, args, env } = stdioParts(spec, ctx, POLICY, NAME);
      return { entry: { command, args, ...optional('env', env) }, notes: [] };
    }
    const { url, headers } = remoteParts(spec, POLICY, NAME);
    return { entry: { url, ...optional('headers', headers) }, notes: [] };
  },
  read: (entry) =>
    readStandard(entry, NAME, POLICY, (object) =>
      typeof object['url'] === 'string'
        ? { url: object['url'], transport: object['type'] === 'sse' ? 'sse' : 'http' }
        : undefined,
    ),
};
