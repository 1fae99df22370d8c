/** `mcpengine remove`: delete a server from an MCP client's configuration file. */
import { UsageError, defineCommand } from '../command.js';

const options = {
  client: { type: 'string', value: '<id>', description: 'the client (see mcpengine add --help)' },
  scope: {
    type: 'string',
    value: 'user|project',
    description: 'where to look (default: every scope the client has)',
  },
  platform: {
    type: 'string',
    value: 'darwin|win32|linux',
    description: "the layout of this OS (default: this machine's)",
  },
  'dry-run': { type: 'boolean', description: 'print the change as a unified diff; write nothing' },
} as const;

export const remove = defineCommand({
  name: 'remove',
  summary: 'remove an MCP server from an MCP client',
  synopsis: ['<name> --client <id> [--scope user|project] [--dry-run] [--platform darwin|win32|linux]'],
  description:
    "Deletes the server's entry from the client's configuration file, keeping everything else byte for byte " +
    '(VS Code inputs that only this server used go with it). The previous file is kept as <file>.mcpengine.bak.',
  options,
  positionals: { min: 1, max: 1 },
  exitCodes: [
    '0  removed (or, with --dry-run, shown)',
    '2  usage error, no such server, unparseable configuration file',
  ],
  examples: [
    'mcpengine remove everything --client cursor',
    'mcpengine remove docs --client codex --scope project --dry-run',
  ],
  async run({ values, positionals }, io) {
    const { parsePlatform, runRemove } = await import('@mcpengine/installer');
    if (values.client === undefined) throw new UsageError('--client is required');
    const scope = values.scope;
    if (scope !== undefined && scope !== 'user' && scope !== 'project')
      throw new UsageError(`--scope must be user or project, got ${scope}`);
    let platform;
    try {
      platform = parsePlatform(values.platform);
    } catch (error) {
      throw new UsageError((error as Error).message);
    }
    return runRemove(
      {
        name: positionals[0]!,
        client: values.client,
        ...(scope === undefined ? {} : { scope }),
        platform,
        dryRun: values['dry-run'] ?? false,
      },
      io,
    );
  },
});
