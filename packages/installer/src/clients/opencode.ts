/**
 * OpenCode: `opencode.json` (or an existing `opencode.jsonc`) under `$XDG_CONFIG_HOME/opencode` (`~/.config`
 * on every platform), project `opencode.json[c]` at the root; servers are `mcp` entries. A local server's
 * `command` is one array, program and arguments together, and its variables are `environment`; a remote
 * server is `{ type: "remote", url, headers }` (Streamable HTTP, falling back to SSE). `{env:NAME}` is
 * substituted anywhere in the file.
 */
import { joinPath, xdgConfigHome, type PathContext } from '../platform.js';
import { RefusalError, type ServerSpec } from '../model.js';
import {
  ALL_FIELDS,
  asObject,
  mapRecord,
  optional,
  readRecord,
  readStrings,
  reader,
  remoteParts,
  stdioParts,
  type ClientDescriptor,
  type ReferencePolicy,
} from './descriptor.js';
import { BRACE_ENV } from './syntaxes.js';

const NAME = 'OpenCode';
const POLICY: ReferencePolicy = { syntax: BRACE_ENV, fields: ALL_FIELDS };

function existingOf(ctx: PathContext, dir: string): string {
  const jsonc = joinPath(dir, 'opencode.jsonc');
  return ctx.exists(jsonc) ? jsonc : joinPath(dir, 'opencode.json');
}

export const opencode: ClientDescriptor = {
  id: 'opencode',
  name: NAME,
  format: 'jsonc',
  sources: ['https://opencode.ai/docs/mcp-servers', 'https://opencode.ai/docs/config'],
  scopes: {
    user: (ctx) => existingOf(ctx, joinPath(xdgConfigHome(ctx), 'opencode')),
    project: (ctx) => existingOf(ctx, ctx.cwd),
  },
  serversKey: ['mcp'],
  transports: ['stdio', 'http', 'sse'],
  secrets: '`{env:NAME}` anywhere in the file',
  inheritEnv: true,
  sseFallback: true,
  render(spec, ctx) {
    if (spec.transport === 'stdio') {
      const { command, args, env } = stdioParts(spec, ctx, POLICY, NAME);
      return {
        entry: { type: 'local', command: [command, ...args], ...optional('environment', env), enabled: true },
        notes: [],
      };
    }
    const { url, headers } = remoteParts(spec, POLICY, NAME);
    return {
      entry: { type: 'remote', url, ...optional('headers', headers), enabled: true },
      notes: spec.transport === 'sse' ? ['OpenCode tries Streamable HTTP first and falls back to SSE'] : [],
    };
  },
  read(entry): ServerSpec {
    const object = asObject(entry, NAME);
    if (object['type'] === 'local') {
      const [command, ...args] = readStrings(object['command'], 'command');
      if (command === undefined) throw new RefusalError('this OpenCode entry has an empty command');
      return {
        transport: 'stdio',
        command,
        args: args.map(reader(POLICY, 'args')),
        env: mapRecord(readRecord(object['environment'], 'environment'), reader(POLICY, 'env')),
      };
    }
    if (object['type'] !== 'remote' || typeof object['url'] !== 'string')
      throw new RefusalError('this OpenCode entry is neither {type: "local"} nor {type: "remote", url}');
    return {
      transport: 'http',
      url: reader(POLICY, 'url')(object['url']),
      headers: mapRecord(readRecord(object['headers'], 'headers'), reader(POLICY, 'headers')),
    };
  },
};
