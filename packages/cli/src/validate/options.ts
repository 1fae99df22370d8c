/**
 * `mcpengine validate` arguments. Errors are `UsageError`s (exit code 2).
 */
import { isRevision, REVISIONS, type Revision } from '../catalog/model.js';
import { splitCommandLine } from './shell-words.js';

export class UsageError extends Error {
  override readonly name = 'UsageError';
}

export interface ValidateOptions {
  readonly stdio?: readonly string[];
  readonly url?: string;
  readonly transport: 'auto' | 'streamable-http' | 'sse';
  readonly env: Readonly<Record<string, string>>;
  readonly headers: Readonly<Record<string, string>>;
  readonly bearerEnv?: string;
  readonly cwd?: string;
  readonly timeoutMs: number;
  readonly totalTimeoutMs: number;
  readonly revisions?: readonly Revision[];
  readonly json?: string;
  readonly junit?: string;
  readonly html?: string;
  readonly baseline?: string;
  readonly callTools: readonly string[];
  readonly callAll: boolean;
  readonly verbose: boolean;
  readonly color: boolean;
}

export const VALIDATE_USAGE = `Usage: mcpengine validate (--stdio "<command line>" | --url <endpoint>) [options]

Checks an MCP server against the specification, revision by revision. Every verdict names the requirement it
tests (catalog id, level, spec link) and shows the exact exchange as evidence.

Target:
  --stdio "<command line>"   start the server with this command (split like a shell, never run by one)
  --url <endpoint>           a Streamable HTTP endpoint (HTTP+SSE is detected, or forced with --transport sse)
  --transport <t>            auto | streamable-http | sse (default auto)
  --env KEY=VALUE            environment variable for the stdio server (repeatable)
  --cwd <dir>                working directory of the stdio server
  --header "Name: value"     HTTP header sent on every request (repeatable)
  --bearer-env VAR           send "Authorization: Bearer $VAR" (the token is never printed)

Scope:
  --revision <rev>|all       validate this revision (repeatable), or every revision the server accepts
                             (all, the default)
  --call <tool>              also call this tool (repeatable); by default only tools annotated
                             readOnlyHint: true are called
  --call-all                 call every tool
  --baseline <file>          record tool definition hashes, or compare with those recorded

Limits:
  --timeout <ms>             time limit per request (default 10000)
  --total-timeout <ms>       time limit for the whole run (default 300000)

Reports:
  --json <file>  --junit <file>  --html <file>
  --verbose                  list every requirement in the terminal, not only failures and warnings
  --no-color

Exit codes: 0 every applicable MUST passed, 1 a MUST failed, 2 usage or connection error.
`;

function positiveInt(name: string, value: string): number {
  if (!/^\d+$/.test(value) || Number(value) <= 0)
    throw new UsageError(`${name} needs a positive number of milliseconds, got ${JSON.stringify(value)}`);
  return Number(value);
}

export function parseValidateArgs(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>> = process.env,
): ValidateOptions {
  let stdio: string[] | undefined;
  let url: string | undefined;
  let transport: ValidateOptions['transport'] = 'auto';
  const envVars: Record<string, string> = {};
  const headers: Record<string, string> = {};
  let bearerEnv: string | undefined;
  let cwd: string | undefined;
  let timeoutMs = 10_000;
  let totalTimeoutMs = 300_000;
  const revisions: Revision[] = [];
  let all = false;
  let json: string | undefined;
  let junit: string | undefined;
  let html: string | undefined;
  let baseline: string | undefined;
  const callTools: string[] = [];
  let callAll = false;
  let verbose = false;
  let color = env['NO_COLOR'] === undefined && process.stdout.isTTY === true;

  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const [flag, inline] =
      arg.startsWith('--') && arg.includes('=') && !arg.startsWith('--env=')
        ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)]
        : [arg, undefined];
    const value = (): string => {
      if (inline !== undefined) return inline;
      const next = argv[++i];
      if (next === undefined) throw new UsageError(`${flag} needs a value`);
      return next;
    };
    switch (flag.startsWith('--env=') ? '--env=' : flag) {
      case '--stdio': {
        const line = value();
        try {
          stdio = splitCommandLine(line);
        } catch (error) {
          throw new UsageError(`--stdio: ${(error as Error).message}`);
        }
        if (stdio.length === 0) throw new UsageError('--stdio needs a command');
        break;
      }
      case '--url': {
        url = value();
        let parsed: URL;
        try {
          parsed = new URL(url);
        } catch {
          throw new UsageError(`--url: not a URL: ${url}`);
        }
        if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
          throw new UsageError(`--url must be http or https, got ${parsed.protocol}`);
        break;
      }
      case '--transport': {
        const t = value();
        if (t !== 'auto' && t !== 'streamable-http' && t !== 'sse')
          throw new UsageError(`--transport must be auto, streamable-http or sse, got ${t}`);
        transport = t;
        break;
      }
      case '--env':
      case '--env=': {
        const pair = arg.startsWith('--env=') ? arg.slice(6) : value();
        const eq = pair.indexOf('=');
        if (eq <= 0) throw new UsageError(`--env needs KEY=VALUE, got ${JSON.stringify(pair)}`);
        envVars[pair.slice(0, eq)] = pair.slice(eq + 1);
        break;
      }
      case '--header': {
        const line = value();
        const colon = line.indexOf(':');
        if (colon <= 0) throw new UsageError(`--header needs "Name: value", got ${JSON.stringify(line)}`);
        headers[line.slice(0, colon).trim()] = line.slice(colon + 1).trim();
        break;
      }
      case '--bearer-env':
        bearerEnv = value();
        break;
      case '--cwd':
        cwd = value();
        break;
      case '--timeout':
        timeoutMs = positiveInt(flag, value());
        break;
      case '--total-timeout':
        totalTimeoutMs = positiveInt(flag, value());
        break;
      case '--revision': {
        const rev = value();
        if (rev === 'all') all = true;
        else if (isRevision(rev)) revisions.push(rev);
        else throw new UsageError(`--revision must be one of ${REVISIONS.join(', ')} or all, got ${rev}`);
        break;
      }
      case '--json':
        json = value();
        break;
      case '--junit':
        junit = value();
        break;
      case '--html':
        html = value();
        break;
      case '--baseline':
        baseline = value();
        break;
      case '--call':
        callTools.push(value());
        break;
      case '--call-all':
        callAll = true;
        break;
      case '--verbose':
        verbose = true;
        break;
      case '--no-color':
        color = false;
        break;
      case '--color':
        color = true;
        break;
      default:
        throw new UsageError(`unknown option ${arg}`);
    }
  }
  if ((stdio === undefined) === (url === undefined))
    throw new UsageError('give exactly one of --stdio and --url');
  if (
    stdio !== undefined &&
    (transport !== 'auto' || Object.keys(headers).length > 0 || bearerEnv !== undefined)
  ) {
    throw new UsageError('--transport, --header and --bearer-env apply to --url only');
  }
  if (url !== undefined && (Object.keys(envVars).length > 0 || cwd !== undefined))
    throw new UsageError('--env and --cwd apply to --stdio only');
  if (bearerEnv !== undefined) {
    const token = env[bearerEnv];
    if (token === undefined || token === '')
      throw new UsageError(`--bearer-env ${bearerEnv}: the variable is not set`);
  }
  return {
    ...(stdio === undefined ? {} : { stdio }),
    ...(url === undefined ? {} : { url }),
    transport,
    env: envVars,
    headers,
    ...(bearerEnv === undefined ? {} : { bearerEnv }),
    ...(cwd === undefined ? {} : { cwd }),
    timeoutMs,
    totalTimeoutMs,
    // `all` is every revision the server accepts: the default.
    ...(all || revisions.length === 0 ? {} : { revisions: [...new Set(revisions)] }),
    ...(json === undefined ? {} : { json }),
    ...(junit === undefined ? {} : { junit }),
    ...(html === undefined ? {} : { html }),
    ...(baseline === undefined ? {} : { baseline }),
    callTools,
    callAll,
    verbose,
    color,
  };
}
