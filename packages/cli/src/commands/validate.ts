/**
 * `mcpengine validate`: check an MCP server against the specification, revision by revision. The options are
 * turned into `ValidateOptions`; `@mcpengine/validator` does the rest.
 */
import type { Revision, ValidateOptions } from '@mcpengine/validator';
import { UsageError, defineCommand, type OptionValues, serverTargetOptions } from '../command.js';

const TARGET = 'Target';
const SCOPE = 'Scope';
const LIMITS = 'Limits';
const REPORTS = 'Reports';

const options = {
  ...serverTargetOptions(TARGET),
  transport: {
    type: 'string',
    value: '<t>',
    group: TARGET,
    description: 'auto | streamable-http | sse (default auto: detected)',
  },
  env: {
    type: 'string',
    multiple: true,
    value: 'KEY=VALUE',
    group: TARGET,
    description: 'environment variable for the stdio server',
  },
  cwd: {
    type: 'string',
    value: '<dir>',
    group: TARGET,
    description: 'working directory of the stdio server',
  },
  header: {
    type: 'string',
    multiple: true,
    value: '"Name: value"',
    group: TARGET,
    description: 'HTTP header sent on every request',
  },
  'bearer-env': {
    type: 'string',
    value: 'VAR',
    group: TARGET,
    description: 'send "Authorization: Bearer $VAR" (the token is never printed)',
  },
  revision: {
    type: 'string',
    multiple: true,
    value: '<rev>|all',
    group: SCOPE,
    description: 'validate this revision, or every revision the server accepts (all, the default)',
  },
  call: {
    type: 'string',
    multiple: true,
    value: '<tool>',
    group: SCOPE,
    description: 'also call this tool; by default only tools annotated readOnlyHint: true are called',
  },
  'call-all': { type: 'boolean', group: SCOPE, description: 'call every tool' },
  apps: {
    type: 'boolean',
    group: SCOPE,
    description:
      'check MCP Apps instead (ui:// resources, tool links, CSP, HTML, text fallback, negotiation)',
  },
  baseline: {
    type: 'string',
    value: '<file>',
    group: SCOPE,
    description: 'record tool definition hashes, or compare with those recorded',
  },
  timeout: {
    type: 'string',
    value: '<ms>',
    group: LIMITS,
    description: 'time limit per request (default 10000)',
  },
  'total-timeout': {
    type: 'string',
    value: '<ms>',
    group: LIMITS,
    description: 'time limit for the whole run (default 300000)',
  },
  'ping-bound': {
    type: 'string',
    value: '<ms>',
    group: LIMITS,
    description:
      'a ping answered within this is prompt (default 2000); a slower one is compared with the server’s other answers',
  },
  json: { type: 'string', value: '<file>', group: REPORTS, description: 'write the report as JSON' },
  junit: { type: 'string', value: '<file>', group: REPORTS, description: 'write the report as JUnit XML' },
  html: { type: 'string', value: '<file>', group: REPORTS, description: 'write the report as HTML' },
  strict: {
    type: 'boolean',
    group: REPORTS,
    description: 'fail the run on robustness findings too (replies to garbage input)',
  },
  timings: {
    type: 'boolean',
    group: REPORTS,
    description:
      'write where the time went to stderr (phases, probes per revision and lane, processes started)',
  },
  verbose: {
    type: 'boolean',
    group: REPORTS,
    description: 'list every requirement in the terminal, not only failures and warnings',
  },
  color: {
    type: 'boolean',
    group: REPORTS,
    description: 'colour the terminal output (default: when a terminal)',
  },
  'no-color': { type: 'boolean', group: REPORTS, description: 'never colour the terminal output' },
} as const;

function positiveInt(name: string, value: string): number {
  if (!/^\d+$/.test(value) || Number(value) <= 0)
    throw new UsageError(`${name} needs a positive number of milliseconds, got ${JSON.stringify(value)}`);
  return Number(value);
}

/** Checks the parsed options against each other and the environment. */
export async function validateOptionsOf(
  values: OptionValues<typeof options>,
  env: Readonly<Record<string, string | undefined>>,
  isTTY: boolean,
): Promise<ValidateOptions> {
  const { REVISIONS, isRevision, splitCommandLine } = await import('@mcpengine/validator');
  let stdio: string[] | undefined;
  if (values.stdio !== undefined) {
    try {
      stdio = splitCommandLine(values.stdio);
    } catch (error) {
      throw new UsageError(`--stdio: ${(error as Error).message}`);
    }
    if (stdio.length === 0) throw new UsageError('--stdio needs a command');
  }
  const url = values.url;
  if (url !== undefined) {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new UsageError(`--url: not a URL: ${url}`);
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
      throw new UsageError(`--url must be http or https, got ${parsed.protocol}`);
  }
  const transport = values.transport ?? 'auto';
  if (transport !== 'auto' && transport !== 'streamable-http' && transport !== 'sse')
    throw new UsageError(`--transport must be auto, streamable-http or sse, got ${transport}`);
  const envVars: Record<string, string> = {};
  for (const pair of values.env ?? []) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new UsageError(`--env needs KEY=VALUE, got ${JSON.stringify(pair)}`);
    envVars[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
  const headers: Record<string, string> = {};
  for (const line of values.header ?? []) {
    const colon = line.indexOf(':');
    if (colon <= 0) throw new UsageError(`--header needs "Name: value", got ${JSON.stringify(line)}`);
    headers[line.slice(0, colon).trim()] = line.slice(colon + 1).trim();
  }
  let all = false;
  const revisions: Revision[] = [];
  for (const rev of values.revision ?? []) {
    if (rev === 'all') all = true;
    else if (isRevision(rev)) revisions.push(rev);
    else throw new UsageError(`--revision must be one of ${REVISIONS.join(', ')} or all, got ${rev}`);
  }
  const bearerEnv = values['bearer-env'];
  if ((stdio === undefined) === (url === undefined))
    throw new UsageError('give exactly one of --stdio and --url');
  if (
    stdio !== undefined &&
    (transport !== 'auto' || Object.keys(headers).length > 0 || bearerEnv !== undefined)
  )
    throw new UsageError('--transport, --header and --bearer-env apply to --url only');
  if (url !== undefined && (Object.keys(envVars).length > 0 || values.cwd !== undefined))
    throw new UsageError('--env and --cwd apply to --stdio only');
  if (bearerEnv !== undefined && (env[bearerEnv] === undefined || env[bearerEnv] === ''))
    throw new UsageError(`--bearer-env ${bearerEnv}: the variable is not set`);
  const color = values['no-color'] ? false : (values.color ?? (env['NO_COLOR'] === undefined && isTTY));
  return {
    ...(stdio === undefined ? {} : { stdio }),
    ...(url === undefined ? {} : { url }),
    transport,
    env: envVars,
    headers,
    ...(bearerEnv === undefined ? {} : { bearerEnv }),
    ...(values.cwd === undefined ? {} : { cwd: values.cwd }),
    timeoutMs: values.timeout === undefined ? 10_000 : positiveInt('--timeout', values.timeout),
    totalTimeoutMs:
      values['total-timeout'] === undefined
        ? 300_000
        : positiveInt('--total-timeout', values['total-timeout']),
    ...(values['ping-bound'] === undefined
      ? {}
      : { pingBoundMs: positiveInt('--ping-bound', values['ping-bound']) }),
    // `all` is every revision the server accepts: the default.
    ...(all || revisions.length === 0 ? {} : { revisions: [...new Set(revisions)] }),
    ...(values.json === undefined ? {} : { json: values.json }),
    ...(values.junit === undefined ? {} : { junit: values.junit }),
    ...(values.html === undefined ? {} : { html: values.html }),
    ...(values.baseline === undefined ? {} : { baseline: values.baseline }),
    callTools: values.call ?? [],
    callAll: values['call-all'] ?? false,
    verbose: values.verbose ?? false,
    strict: values.strict ?? false,
    ...(values.apps === true ? { apps: true } : {}),
    ...(values.timings === true ? { timings: true } : {}),
    color,
  };
}

export const validate = defineCommand({
  name: 'validate',
  summary: 'check an MCP server against the specification, revision by revision',
  synopsis: ['(--stdio "<command line>" | --url <endpoint>) [options]'],
  description:
    'Checks an MCP server against the specification, revision by revision. Every verdict names the requirement ' +
    'it tests (catalog id, level, spec link) and shows the exact exchange as evidence.',
  options,
  exitCodes: ['0  every applicable MUST passed', '1  a MUST failed', '2  usage or connection error'],
  examples: [
    'mcpengine validate --stdio "node server.js"',
    'mcpengine validate --url http://127.0.0.1:3000/mcp --revision 2025-11-25 --html report.html',
    'mcpengine validate --apps --stdio "node app-server.js"',
  ],
  async run({ values }, io) {
    const request = await validateOptionsOf(values, io.env, io.isTTY);
    const { validateServer } = await import('@mcpengine/validator');
    return validateServer(request, io);
  },
});
