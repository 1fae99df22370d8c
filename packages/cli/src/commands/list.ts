/** `mcpengine list`: the MCP servers configured in every client (or one), per scope. */
import { UsageError, defineCommand } from '../command.js';

const options = {
  client: { type: 'string', value: '<id>', description: 'only this client (default: every client)' },
  platform: {
    type: 'string',
    value: 'darwin|win32|linux',
    description: "the layout of this OS (default: this machine's)",
  },
  json: { type: 'boolean', description: 'print JSON: { servers: [...], problems: [...] }' },
} as const;

export const list = defineCommand({
  name: 'list',
  summary: 'list the MCP servers configured in MCP clients',
  synopsis: ['[--client <id>] [--json] [--platform darwin|win32|linux]'],
  description:
    "Reads every client's user and project configuration files (project files under the current directory) and " +
    'lists their servers as each client reads them. Values are never printed, only variable and header names.',
  options,
  exitCodes: [
    '0  listed',
    '2  usage error, or a configuration file could not be read (the rest is still listed)',
  ],
  examples: ['mcpengine list', 'mcpengine list --client vscode --json'],
  async run({ values }, io) {
    const { parsePlatform, runList } = await import('@mcpengine/installer');
    let platform;
    try {
      platform = parsePlatform(values.platform);
    } catch (error) {
      throw new UsageError((error as Error).message);
    }
    return runList(
      {
        ...(values.client === undefined ? {} : { client: values.client }),
        platform,
        json: values.json ?? false,
      },
      io,
    );
  },
});
