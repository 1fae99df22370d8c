/**
 * `mcpengine test`: run declarative test files, mcp-jest configs, or tests generated from a server's tool
 * schemas. The options become a run request; `@mcpengine/test-runner` does the work.
 */
import { UsageError, defineCommand, type OptionValues, serverTargetOptions } from '../command.js';

const SOURCES = 'Sources';
const TARGET = 'Target (--generate)';
const RUN = 'Running';
const REPORTS = 'Reports';

const options = {
  config: {
    type: 'string',
    multiple: true,
    value: '<mcp-jest.json>',
    group: SOURCES,
    description: 'run an mcp-jest config file unchanged (isError results fail unless shouldThrow)',
  },
  generate: {
    type: 'boolean',
    group: SOURCES,
    description: "generate tests from the server's tool schemas and run them",
  },
  ...serverTargetOptions(TARGET),
  transport: {
    type: 'string',
    value: '<t>',
    group: TARGET,
    description: 'auto | streamable-http | sse (default auto)',
  },
  env: {
    type: 'string',
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
  revision: {
    type: 'string',
    multiple: true,
    value: '<rev>',
    group: TARGET,
    description: 'run the generated tests at this revision (default: negotiated)',
  },
  write: {
    type: 'string',
    value: '<file>',
    group: TARGET,
    description: 'save the generated tests as a YAML test file to edit',
  },
  'exclude-tool': {
    type: 'string',
    multiple: true,
    value: '<tool>',
    group: TARGET,
    description: 'never call this tool',
  },
  timeout: {
    type: 'string',
    value: '<ms>',
    group: RUN,
    description: 'time limit per generated case (default 10000)',
  },
  update: { type: 'boolean', short: 'u', group: RUN, description: 'rewrite snapshots that differ' },
  jobs: {
    type: 'string',
    value: '<n>',
    group: RUN,
    description: 'test files run at the same time (default: up to 4)',
  },
  watch: { type: 'boolean', group: RUN, description: 'run again when a test file or a --watch-path changes' },
  'watch-path': {
    type: 'string',
    multiple: true,
    value: '<path>',
    group: RUN,
    description: 'also watch this file or directory (e.g. the server build)',
  },
  json: { type: 'string', value: '<file>', group: REPORTS, description: 'write the results as JSON' },
  junit: { type: 'string', value: '<file>', group: REPORTS, description: 'write the results as JUnit XML' },
  verbose: { type: 'boolean', group: REPORTS, description: 'list passing tests too' },
  color: { type: 'boolean', group: REPORTS, description: 'colour the output (default: when a terminal)' },
  'no-color': { type: 'boolean', group: REPORTS, description: 'never colour the output' },
} as const;

function positiveInt(name: string, value: string): number {
  if (!/^\d+$/.test(value) || Number(value) <= 0)
    throw new UsageError(`${name} needs a positive whole number, got ${JSON.stringify(value)}`);
  return Number(value);
}

type Values = OptionValues<typeof options>;

function pairs(
  list: readonly string[] | undefined,
  separator: string,
  name: string,
  shape: string,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const item of list ?? []) {
    const at = item.indexOf(separator);
    if (at <= 0) throw new UsageError(`${name} needs ${shape}, got ${JSON.stringify(item)}`);
    out[item.slice(0, at).trim()] = item.slice(at + 1).trim();
  }
  return out;
}

function checkCombinations(values: Values, positionals: readonly string[]): void {
  const generateOnly = (
    ['stdio', 'url', 'transport', 'env', 'header', 'revision', 'write', 'exclude-tool', 'timeout'] as const
  ).filter((k) => values[k] !== undefined);
  if (values.generate) {
    if ((values.stdio === undefined) === (values.url === undefined))
      throw new UsageError('--generate needs exactly one of --stdio and --url');
    if (positionals.length > 0 || values.config !== undefined)
      throw new UsageError('--generate runs generated tests only: give no test files or --config with it');
    if (values.stdio !== undefined && (values.transport !== undefined || values.header !== undefined))
      throw new UsageError('--transport and --header apply to --url only');
    if (values.url !== undefined && values.env !== undefined)
      throw new UsageError('--env applies to --stdio only');
    if (values.watch) throw new UsageError('--watch runs test files; it does not combine with --generate');
  } else if (generateOnly.length > 0) throw new UsageError(`--${generateOnly[0]} goes with --generate`);
  if (values['watch-path'] !== undefined && !values.watch)
    throw new UsageError('--watch-path goes with --watch');
}

export const test = defineCommand({
  name: 'test',
  summary: 'run tests against an MCP server: YAML files, mcp-jest configs, or generated from tool schemas',
  synopsis: [
    '[files…] [options]',
    '--config <mcp-jest.json> [options]',
    '--generate (--stdio "<command line>" | --url <endpoint>) [--write <file>]',
  ],
  description:
    'Runs declarative test files (*.mcp.yaml; a directory means every such file below it), mcp-jest configs, or ' +
    "robustness tests generated from the server's tool schemas. Every message of every run is checked against the " +
    'official schema of the negotiated revision; a tool result with isError: true fails unless the test expects it.',
  options,
  positionals: {},
  exitCodes: [
    '0  every test passed (warnings allowed)',
    '1  a test failed',
    '2  usage error, malformed test file, or a server that could not be reached',
  ],
  examples: [
    'mcpengine test',
    'mcpengine test servers/everything/test --junit reports/junit.xml',
    'mcpengine test --config mcp-jest.json',
    'mcpengine test --generate --stdio "node dist/server.js" --write tests/generated.mcp.yaml',
  ],
  async run({ values, positionals }, io) {
    checkCombinations(values, positionals);
    const color = values['no-color']
      ? false
      : (values.color ?? (io.env['NO_COLOR'] === undefined && io.isTTY));
    const jobs = values.jobs === undefined ? undefined : positiveInt('--jobs', values.jobs);
    const runner = await import('@mcpengine/test-runner');
    if (values.generate) {
      let stdio: string[] | undefined;
      if (values.stdio !== undefined) {
        try {
          stdio = runner.splitCommandLine(values.stdio) as string[];
        } catch (error) {
          throw new UsageError(`--stdio: ${(error as Error).message}`);
        }
        if (stdio.length === 0) throw new UsageError('--stdio needs a command');
      }
      if (values.url !== undefined && !/^https?:\/\//.test(values.url))
        throw new UsageError(`--url must be an http(s) URL, got ${values.url}`);
      const transport = values.transport ?? 'auto';
      if (!['auto', 'streamable-http', 'sse'].includes(transport))
        throw new UsageError(`--transport must be auto, streamable-http or sse, got ${transport}`);
      const revisions = values.revision ?? ['auto'];
      for (const revision of revisions)
        if (revision !== 'auto' && !runner.isRevision(revision))
          throw new UsageError(
            `--revision must be one of ${runner.REVISIONS.join(', ')} or auto, got ${revision}`,
          );
      const env = pairs(values.env, '=', '--env', 'KEY=VALUE');
      const headers = pairs(values.header, ':', '--header', '"Name: value"');
      const timeoutMs =
        values.timeout === undefined
          ? runner.DEFAULT_GENERATE_TIMEOUT_MS
          : positiveInt('--timeout', values.timeout);
      const server =
        stdio !== undefined
          ? { kind: 'stdio' as const, command: stdio[0]!, args: stdio.slice(1), env, cwd: io.cwd }
          : { kind: 'http' as const, url: values.url!, transport: transport as 'auto', headers };
      const reporter = new runner.TerminalReporter({
        write: io.stdout,
        isTTY: io.isTTY,
        color,
        verbose: values.verbose ?? false,
        cwd: io.cwd,
      });
      reporter.start(1);
      const started = Date.now();
      const generated = await runner
        .runGenerated(
          {
            server,
            serverSpec:
              stdio !== undefined
                ? { stdio: values.stdio, ...(values.env ? { env } : {}) }
                : { url: values.url, ...(values.transport ? { transport } : {}) },
            revisions: revisions as never,
            timeoutMs,
            ...(values['exclude-tool'] ? { excludeTools: values['exclude-tool'] } : {}),
            ...(values.write === undefined ? {} : { write: values.write }),
            cwd: io.cwd,
          },
          { signal: io.signal, onEvent: reporter.onEvent },
        )
        .catch((error: unknown) => {
          // A server that cannot be started or reached is exit 2 with one line, like a test file's server.
          if (error instanceof runner.ConnectionError) return error;
          throw error;
        });
      if (generated instanceof runner.ConnectionError) {
        io.stderr(`mcpengine test: ${generated.message}\n`);
        return 2;
      }
      const { result } = generated;
      const summary = runner.summarize([result], Date.now() - started);
      io.stdout(reporter.summary(summary));
      if (values.write !== undefined && result.connectionError === undefined)
        io.stdout(`Generated tests written to ${values.write}\n`);
      return runner.writeReports(summary, values, io) ? summary.exitCode : 2;
    }
    if (positionals.length === 0 && values.config === undefined) {
      const found = runner.findTestFiles([io.cwd], io.cwd);
      if (found.length === 0)
        throw new UsageError(
          'no test files: name them, or put *.mcp.yaml files under this directory, or use --config / --generate',
        );
    }
    const request = {
      files: positionals.length === 0 && values.config === undefined ? [io.cwd] : positionals,
      configs: values.config ?? [],
      ...(values.json === undefined ? {} : { json: values.json }),
      ...(values.junit === undefined ? {} : { junit: values.junit }),
      update: values.update ?? false,
      ...(jobs === undefined ? {} : { jobs }),
      verbose: values.verbose ?? false,
      color,
    };
    const runnerIo = {
      stdout: io.stdout,
      stderr: io.stderr,
      cwd: io.cwd,
      isTTY: io.isTTY,
      signal: io.signal,
    };
    if (values.watch) return runner.watchRuns(request, runnerIo, values['watch-path'] ?? []);
    return (await runner.runOnce(request, runnerIo)).exitCode;
  },
});
