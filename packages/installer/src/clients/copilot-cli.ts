/**
 * GitHub Copilot CLI: `~/.copilot/mcp-config.json` (`$XDG_CONFIG_HOME/.copilot/` when XDG_CONFIG_HOME is
 * set), `mcpServers`; every entry lists the tools to enable (`tools: ["*"]`). Project scope: `.mcp.json`, or
 * `.github/mcp.json` when the project already has one. It does not read `.vscode/mcp.json`. `${NAME}` references
 * are expanded in env and headers.
 */
import { envVar, homeDir, joinPath, type PathContext } from '../platform.js';
import {
  optional,
  readStandard,
  remoteParts,
  stdioParts,
  type ClientDescriptor,
  type ReferencePolicy,
} from './descriptor.js';
import { DOLLAR_BRACE } from './syntaxes.js';

const NAME = 'GitHub Copilot CLI';
const POLICY: ReferencePolicy = { syntax: DOLLAR_BRACE, fields: new Set(['env', 'headers']) };

function userPath(ctx: PathContext): string {
  const base = envVar(ctx, 'XDG_CONFIG_HOME') ?? homeDir(ctx);
  return joinPath(base, '.copilot', 'mcp-config.json');
}

function projectPath(ctx: PathContext): string {
  const github = joinPath(ctx.cwd, '.github', 'mcp.json');
  return ctx.exists(github) ? github : joinPath(ctx.cwd, '.mcp.json');
}

export const copilotCli: ClientDescriptor = {
  id: 'copilot-cli',
  name: NAME,
  format: 'json',
  sources: [
    'https://docs.github.com/en/copilot/how-tos/use-copilot-agents/use-copilot-cli',
    'https://docs.github.com/en/copilot/reference/cli-command-reference',
  ],
  scopes: { user: userPath, project: projectPath },
  serversKey: ['mcpServers'],
  transports: ['stdio', 'http', 'sse'],
  secrets: '`${NAME}` in env and headers',
  scopeNotes: { project: 'GitHub Copilot CLI loads project servers only after you trust the folder' },
  inheritEnv: true,
  render(spec, ctx) {
    if (spec.transport === 'stdio') {
      const { command, args, env } = stdioParts(spec, ctx, POLICY, NAME);
      return { entry: { type: 'local', command, args, ...optional('env', env), tools: ['*'] }, notes: [] };
    }
    const { url, headers } = remoteParts(spec, POLICY, NAME);
    return { entry: { type: spec.transport, url, ...optional('headers', headers), tools: ['*'] }, notes: [] };
  },
  read: (entry) =>
    readStandard(entry, NAME, POLICY, (object) =>
      typeof object['url'] === 'string'
        ? { url: object['url'], transport: object['type'] === 'sse' ? 'sse' : 'http' }
        : undefined,
    ),
};
