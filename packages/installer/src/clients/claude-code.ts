/**
 * Claude Code: user scope is the top-level `mcpServers` of `~/.claude.json` (`$CLAUDE_CONFIG_DIR/.claude.json`
 * when set), project scope `.mcp.json` at the project root. `${VAR}` and `${VAR:-default}` are expanded in
 * command, args, env, url and headers.
 */
import { envVar, homeDir, joinPath, type PathContext } from '../platform.js';
import {
  ALL_FIELDS,
  optional,
  readStandard,
  remoteParts,
  stdioParts,
  type ClientDescriptor,
  type ReferencePolicy,
} from './descriptor.js';
import { DOLLAR_BRACE } from './syntaxes.js';

const NAME = 'Claude Code';
const POLICY: ReferencePolicy = { syntax: DOLLAR_BRACE, fields: ALL_FIELDS };

function userPath(ctx: PathContext): string {
  const dir = envVar(ctx, 'CLAUDE_CONFIG_DIR');
  return dir === undefined ? joinPath(homeDir(ctx), '.claude.json') : joinPath(dir, '.claude.json');
}

export const claudeCode: ClientDescriptor = {
  id: 'claude-code',
  name: NAME,
  format: 'json',
  sources: ['https://code.claude.com/docs/en/mcp', 'https://code.claude.com/docs/en/settings'],
  scopes: { user: userPath, project: (ctx) => joinPath(ctx.cwd, '.mcp.json') },
  serversKey: ['mcpServers'],
  transports: ['stdio', 'http', 'sse'],
  secrets: '`${VAR}`, `${VAR:-default}` in command, args, env, url, headers',
  scopeNotes: {
    user: 'Claude Code rewrites ~/.claude.json while it runs: quit it before adding, or the change may be lost',
    project: 'Claude Code asks each user to approve project servers from .mcp.json on first use',
  },
  inheritEnv: true,
  render(spec, ctx) {
    if (spec.transport === 'stdio') {
      const { command, args, env } = stdioParts(spec, ctx, POLICY, NAME);
      return { entry: { type: 'stdio', command, args, ...optional('env', env) }, notes: [] };
    }
    const { url, headers } = remoteParts(spec, POLICY, NAME);
    return { entry: { type: spec.transport, url, ...optional('headers', headers) }, notes: [] };
  },
  read: (entry) =>
    readStandard(entry, NAME, POLICY, (object) =>
      typeof object['url'] === 'string'
        ? { url: object['url'], transport: object['type'] === 'sse' ? 'sse' : 'http' }
        : undefined,
    ),
};
