/**
 * `mcpengine inspect`: the inspector. `--cli` runs one method and prints JSON, with the official Inspector
 * CLI's flags and exit codes; without it, a local web UI. The command parses its own arguments (`rawArgs`)
 * because, like the official CLI, it takes the server's command line positionally, mixed with its own options;
 * `@mcpengine/inspector` does the work.
 */
import { defineCommand, serverTargetOptions } from '../command.js';

const TARGET = 'Server';
const CLI = 'Command-line mode (--cli)';
const WEB = 'Web UI';
const SESSION = 'Session';

const options = {
  cli: { type: 'boolean', group: CLI, description: 'run one --method and print its result as JSON' },
  ...serverTargetOptions(TARGET),
  'server-url': {
    type: 'string',
    value: '<endpoint>',
    group: TARGET,
    description: 'the same as --url (official)',
  },
  transport: {
    type: 'string',
    value: '<t>',
    group: TARGET,
    description:
      'stdio | http | sse (default: a command is stdio; a URL tries Streamable HTTP, then HTTP+SSE)',
  },
  env: {
    type: 'string',
    short: 'e',
    multiple: true,
    value: 'KEY=VALUE',
    group: TARGET,
    description: 'environment variable for the stdio server',
  },
  header: {
    type: 'string',
    multiple: true,
    value: '"Name: value"',
    group: TARGET,
    description: 'HTTP header sent on every request',
  },
  cwd: {
    type: 'string',
    value: '<dir>',
    group: TARGET,
    description: 'working directory of the stdio server',
  },
  revision: {
    type: 'string',
    value: '<rev>',
    group: TARGET,
    description: 'speak this revision only (2024-11-05 … 2026-07-28; default auto: modern, else legacy)',
  },
  config: {
    type: 'string',
    value: '<file>',
    group: TARGET,
    description:
      'saved servers: a JSON file with "mcpServers" (the official Inspector\'s shape); the UI offers each',
  },
  server: {
    type: 'string',
    value: '<name>',
    group: TARGET,
    description: 'the server of --config to use (needed with --cli when it has several)',
  },
  'connect-timeout': {
    type: 'string',
    value: '<ms>',
    group: TARGET,
    description: 'how long to wait for the server to answer the handshake (default 15000)',
  },
  method: {
    type: 'string',
    value: '<method>',
    group: CLI,
    description:
      'initialize | tools/list | tools/call | resources/list | resources/read | resources/templates/list | ' +
      'prompts/list | prompts/get | logging/setLevel | tasks/list | tasks/get | tasks/result | tasks/cancel',
  },
  'tool-name': { type: 'string', value: '<name>', group: CLI, description: 'the tool of tools/call' },
  'tool-arg': {
    type: 'string',
    multiple: true,
    value: 'key=value',
    group: CLI,
    description: 'a tool argument; the value is JSON when it parses as JSON (n=3 is a number), else a string',
  },
  'tool-args-json': {
    type: 'string',
    value: "'{…}'",
    group: CLI,
    description: 'all tool arguments as a JSON object',
  },
  task: {
    type: 'boolean',
    group: CLI,
    description: 'tools/call: ask for a task and print it instead of waiting',
  },
  'task-id': {
    type: 'string',
    value: '<id>',
    group: CLI,
    description: 'the task of tasks/get, tasks/result, tasks/cancel',
  },
  uri: { type: 'string', value: '<uri>', group: CLI, description: 'the resource of resources/read' },
  'prompt-name': { type: 'string', value: '<name>', group: CLI, description: 'the prompt of prompts/get' },
  'prompt-args': {
    type: 'string',
    multiple: true,
    value: 'key=value',
    group: CLI,
    description: 'a prompt argument',
  },
  'log-level': { type: 'string', value: '<level>', group: CLI, description: 'the level of logging/setLevel' },
  cursor: {
    type: 'string',
    value: '<cursor>',
    group: CLI,
    description: 'one page of a list (default: every page)',
  },
  timeout: { type: 'string', value: '<ms>', group: CLI, description: 'request timeout (default 60000)' },
  format: {
    type: 'string',
    value: 'json',
    group: CLI,
    description: 'json: print the envelope {result[, schemaFindings]} (default: the result alone)',
  },
  record: {
    type: 'string',
    value: '<file>',
    group: SESSION,
    description: 'save the session timeline (every message, schema verdicts, HTTP details) as JSON Lines',
  },
  diff: {
    type: 'string',
    multiple: true,
    value: '<session>',
    group: SESSION,
    description: 'give twice: the tools added, removed and changed between two recorded sessions',
  },
  port: {
    type: 'string',
    value: '<n>',
    group: WEB,
    description: 'port of the local UI (default: a free one)',
  },
  open: { type: 'boolean', group: WEB, description: 'open the UI in a browser' },
} as const;

export const inspect = defineCommand({
  name: 'inspect',
  summary: 'inspect any MCP server: a web UI, or one method from the command line (--cli)',
  synopsis: [
    '--cli <command> [args…] --method <method> [options]',
    '--cli (--stdio "<command line>" | --url <endpoint>) --method <method> [options]',
    '--diff <before.jsonl> --diff <after.jsonl>',
    '--cli --config <file> [--server <name>] --method <method> [options]',
    '[--stdio "<command line>" | --url <endpoint>] [--config <file> [--server <name>]] [--port N] [--open]',
  ],
  description:
    'Connects to a server over stdio, Streamable HTTP or HTTP+SSE, in either era or a pinned revision, and ' +
    'checks every message against the official schema of the negotiated revision. --cli takes the official ' +
    "Inspector CLI's flags and exit codes: the server command may follow --cli positionally, with its own " +
    'flags; put -- before it when its flags clash with ours.',
  options,
  rawArgs: true,
  exitCodes: [
    '0  ok',
    '1  usage error, or the server answered the request with an error',
    '3  the server requires authorization (HTTP 401/403)',
    '4  the server could not be reached or stopped answering',
    '5  tool error: isError: true, an unknown tool, or a JSON-RPC error answering tools/call',
  ],
  examples: [
    'mcpengine inspect --cli node dist/server.js --method tools/list',
    'mcpengine inspect --cli node dist/server.js --method tools/call --tool-name add --tool-arg a=1 --tool-arg b=2',
    'mcpengine inspect --cli --url http://127.0.0.1:3000/mcp --method resources/read --uri test://static-text',
    'mcpengine inspect --cli https://example.com/sse --transport sse --method prompts/list --format json',
    'mcpengine inspect --cli --stdio "node dist/server.js" --method tools/list --record before.jsonl',
    'mcpengine inspect --diff before.jsonl --diff after.jsonl',
    'mcpengine inspect --stdio "node dist/server.js" --open',
  ],
  async run({ positionals }, io) {
    const inspector = await import('@mcpengine/inspector');
    let args;
    try {
      args = inspector.parseInspectArguments(positionals);
    } catch (error) {
      if (!(error instanceof inspector.UsageError)) throw error;
      io.stderr(`mcpengine inspect: ${error.message}\n(see mcpengine inspect --help)\n`);
      return inspector.EXIT.usage;
    }
    if (args.flags.has('--cli') || args.flags.has('--diff')) return inspector.runInspectCli(args, io);
    return inspector.runInspectWeb(args, io);
  },
});
