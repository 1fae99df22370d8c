/**
 * `mcpengine add`: install an MCP server into an MCP client's configuration file. The options are checked here
 * and turned into an `AddRequest`; `@mcpengine/installer` does the rest.
 */
import type { AddRequest, AddSource, Prompter } from '@mcpengine/installer';
import { UsageError, defineCommand, type OptionValues } from '../command.js';

const SOURCE = 'Source';
const TARGET = 'Target';
const RUN = 'Run';

const options = {
  client: {
    type: 'string',
    value: '<id>',
    group: TARGET,
    description: 'the client to install into (see Clients below)',
  },
  scope: {
    type: 'string',
    value: 'user|project',
    group: TARGET,
    description: 'user (default) or project (files under the current directory)',
  },
  platform: {
    type: 'string',
    value: 'darwin|win32|linux',
    group: TARGET,
    description: "write the layout of this OS (paths, cmd /c for npx on Windows); default: this machine's",
  },
  url: {
    type: 'string',
    value: '<url>',
    group: SOURCE,
    description: 'a remote server (Streamable HTTP, or HTTP+SSE with --transport sse)',
  },
  transport: {
    type: 'string',
    value: 'http|sse',
    group: SOURCE,
    description: 'the remote transport (default http)',
  },
  header: {
    type: 'string',
    multiple: true,
    value: '"Name: value"',
    group: SOURCE,
    description: 'HTTP header for a remote server; ${VAR} refers to a variable',
  },
  env: {
    type: 'string',
    multiple: true,
    value: 'KEY=VALUE',
    group: SOURCE,
    description:
      "variable for a stdio server; KEY alone forwards the client's KEY, ${VAR} in a value refers to VAR",
  },
  from: {
    type: 'string',
    value: '<server.json>',
    group: SOURCE,
    description: 'an MCP Registry server.json (its package, or its remote with --transport)',
  },
  var: {
    type: 'string',
    multiple: true,
    value: 'NAME=VALUE',
    group: SOURCE,
    description: 'a server.json argument or URL variable',
  },
  yes: {
    type: 'boolean',
    short: 'y',
    group: RUN,
    description: 'take the defaults of server.json values instead of asking',
  },
  'dry-run': {
    type: 'boolean',
    group: RUN,
    description: 'print the change as a unified diff; write nothing',
  },
  verify: {
    type: 'boolean',
    group: RUN,
    description: 'then start or connect the entry as the client would and complete the handshake',
  },
  timeout: {
    type: 'string',
    value: '<ms>',
    group: RUN,
    description: 'time limit for --verify (default 60000)',
  },
} as const;

type Values = OptionValues<typeof options>;

function usage<T>(action: () => T): T {
  try {
    return action();
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

/** Checks the options against each other and builds the request. */
export async function addRequestOf(
  values: Values,
  positionals: readonly string[],
  rest: readonly string[],
  hasCommand: boolean,
): Promise<AddRequest> {
  const { parseEnvPairs, parseHeaders, parsePlatform, parseVarPairs } = await import('@mcpengine/installer');
  const name = positionals[0];
  if (name === undefined)
    throw new UsageError('missing the server name: mcpengine add <name> --client <id> ...');
  if (values.client === undefined) throw new UsageError('--client is required');
  const scope = values.scope ?? 'user';
  if (scope !== 'user' && scope !== 'project')
    throw new UsageError(`--scope must be user or project, got ${scope}`);
  const transport = values.transport;
  if (transport !== undefined && transport !== 'http' && transport !== 'sse')
    throw new UsageError(`--transport must be http or sse, got ${transport}`);
  const sources = [hasCommand, values.url !== undefined, values.from !== undefined].filter(Boolean).length;
  if (sources > 1) throw new UsageError('give one source: a command after --, --url, or --from');
  if (hasCommand && rest.length === 0) throw new UsageError('the command after -- is empty');
  let source: AddSource;
  if (hasCommand) source = { kind: 'command', argv: rest };
  else if (values.url !== undefined) source = { kind: 'url', url: values.url };
  else if (values.from !== undefined) source = { kind: 'server-json', file: values.from };
  else source = { kind: 'fleet' };
  if (transport !== undefined && source.kind === 'command')
    throw new UsageError('--transport applies to --url and --from');
  if ((values.var ?? []).length > 0 && (source.kind === 'command' || source.kind === 'url'))
    throw new UsageError('--var applies to --from and fleet servers');
  let timeoutMs = 60_000;
  if (values.timeout !== undefined) {
    if (!/^\d+$/.test(values.timeout) || Number(values.timeout) <= 0)
      throw new UsageError(`--timeout needs a positive number of milliseconds, got ${values.timeout}`);
    timeoutMs = Number(values.timeout);
  }
  return {
    name,
    client: values.client,
    scope,
    platform: usage(() => parsePlatform(values.platform)),
    source,
    env: usage(() => parseEnvPairs(values.env ?? [])),
    headers: usage(() => parseHeaders(values.header ?? [])),
    vars: usage(() => parseVarPairs(values.var ?? [])),
    ...(transport === undefined ? {} : { transport }),
    yes: values.yes ?? false,
    dryRun: values['dry-run'] ?? false,
    verify: values.verify ?? false,
    timeoutMs,
  };
}

/**
 * Asks on the terminal (stderr, so that stdout stays clean). One readline interface for the whole run, so that
 * answers typed ahead are not lost between questions.
 */
async function terminalPrompter(): Promise<{ prompt: Prompter; close: () => void }> {
  const { createInterface } = await import('node:readline/promises');
  let rl: ReturnType<typeof createInterface> | undefined;
  return {
    prompt: async (question) => {
      rl ??= createInterface({ input: process.stdin, output: process.stderr });
      const hint = [question.description, question.choices?.join('|')].filter(Boolean).join('; ');
      const answer = await rl.question(
        `${question.label}${hint === '' ? '' : ` (${hint})`}${question.default === undefined ? '' : ` [${question.default}]`}: `,
      );
      return answer.trim();
    },
    close: () => rl?.close(),
  };
}

export const add = defineCommand({
  name: 'add',
  summary: 'install an MCP server into an MCP client (Claude, Cursor, VS Code, Codex...)',
  synopsis: [
    '<name> --client <id> [--scope user|project] [--env KEY=VALUE]... [options] -- <command> [args...]',
    '<name> --client <id> --url <url> [--header "Name: value"]... [--transport http|sse] [options]',
    '<name> --client <id> --from <server.json> [--env ...] [--header ...] [--var NAME=VALUE]... [--yes]',
    "<name> --client <id> [options]    (a server of this repository's fleet, by name)",
  ],
  description:
    "Writes the server into the client's own configuration file in that client's format, keeping everything " +
    'else in the file (other servers, settings, comments, order); an unparseable file is never touched. ' +
    'Secrets stay references (${VAR}, VS Code inputs, Codex bearer_token_env_var) unless you pass a value. ' +
    '--verify then starts the entry exactly as the client would and reports the server and its tools.\n' +
    'Clients: claude-desktop, claude-code, cursor, vscode, windsurf, cline, codex, gemini, zed, goose, ' +
    'opencode, copilot-cli, kiro.',
  options,
  positionals: { min: 1, max: 1 },
  passthrough: true,
  exitCodes: [
    '0  written (or already up to date), and verified when asked',
    '1  --verify failed: the server did not start or did not complete the handshake',
    '2  usage error, unparseable configuration file, refused (the client cannot hold this), missing values',
  ],
  examples: [
    'mcpengine add everything --client cursor -- node servers/everything/dist/main.js --verify',
    'mcpengine add github --client vscode --env GITHUB_TOKEN -- npx -y @modelcontextprotocol/server-github',
    'mcpengine add docs --client codex --url https://example.com/mcp --header "Authorization: Bearer ${DOCS_TOKEN}"',
    'mcpengine add weather --client claude-desktop --platform win32 --dry-run -- npx -y weather-mcp',
  ],
  async run({ values, positionals, rest, terminated }, io) {
    const request = await addRequestOf(values, positionals, rest, terminated === true);
    const { runAdd } = await import('@mcpengine/installer');
    if (!io.isTTY || process.stdin.isTTY !== true) return runAdd(request, io);
    const terminal = await terminalPrompter();
    try {
      return await runAdd(request, { ...io, prompt: terminal.prompt });
    } finally {
      terminal.close();
    }
  },
});
