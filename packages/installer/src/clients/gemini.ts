/**
 * Gemini CLI: `~/.gemini/settings.json`, project `.gemini/settings.json`, `mcpServers`. Streamable HTTP is
 * `httpUrl` (every release reads it; newer ones also accept `url` + `type`), SSE is `url`. Values may refer to
 * variables as `$NAME` or `${NAME}`; we write `${NAME}`.
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
import { SHELL_STYLE } from './syntaxes.js';

const NAME = 'Gemini CLI';
const POLICY: ReferencePolicy = { syntax: SHELL_STYLE, fields: ALL_FIELDS };

export const gemini: ClientDescriptor = {
  id: 'gemini',
  name: NAME,
  format: 'jsonc',
  sources: ['https://geminicli.com/docs/tools/mcp-server', 'https://geminicli.com/docs/cli/configuration'],
  scopes: {
    user: (ctx) => joinPath(homeDir(ctx), '.gemini', 'settings.json'),
    project: (ctx) => joinPath(ctx.cwd, '.gemini', 'settings.json'),
  },
  serversKey: ['mcpServers'],
  transports: ['stdio', 'http', 'sse'],
  secrets: '`$NAME` or `${NAME}` (settings values)',
  inheritEnv: true,
  render(spec, ctx) {
    if (spec.transport === 'stdio') {
      const { command, args, env } = stdioParts(spec, ctx, POLICY, NAME);
      return {
        entry: {
          command,
          args,
          ...optional('env', env),
          ...(spec.cwd === undefined ? {} : { cwd: spec.cwd }),
        },
        notes: [],
      };
    }
    const { url, headers } = remoteParts(spec, POLICY, NAME);
    return {
      entry: { [spec.transport === 'sse' ? 'url' : 'httpUrl']: url, ...optional('headers', headers) },
      notes: [],
    };
  },
  read: (entry) =>
    readStandard(entry, NAME, POLICY, (object) => {
      if (typeof object['httpUrl'] === 'string') return { url: object['httpUrl'], transport: 'http' };
      if (typeof object['url'] === 'string')
        return { url: object['url'], transport: object['type'] === 'http' ? 'http' : 'sse' };
      return undefined;
    }),
};
