/**
 * The arguments of `mcpengine inspect`, parsed to match the official Inspector's command line so that scripts
 * migrate unchanged:
 *
 *   mcpengine inspect --cli node server.js arg1 --method tools/list           (official positional form)
 *   mcpengine inspect --cli -e KEY=VAL -- node server.js --server-flag --method …   (`--` before the command:
 *                                                                            everything after it is the server's)
 *   mcpengine inspect --cli node server.js --server-flag -- --method tools/list     (`--` after the command:
 *                                                                            everything after it is ours)
 *   mcpengine inspect --cli https://host/mcp --transport http --method tools/list
 *   mcpengine inspect --cli --stdio "node server.js" --method tools/list      (MCPEngine's form, as in `test`)
 *   mcpengine inspect --cli --url http://127.0.0.1:3000/mcp --method tools/list
 *
 * Once the server command has started, an option the inspector knows is still the inspector's (as in the
 * official CLI); an unknown one belongs to the server.
 */
import { resolve } from 'node:path';
import { splitCommandLine } from '@mcpengine/wire';
import { ConfigFileError, loadConfigTargets, type NamedTarget } from '../core/config-file.js';
import type { Target } from '../core/target.js';

export class UsageError extends Error {
  override readonly name = 'UsageError';
}

interface FlagSpec {
  readonly takesValue: boolean;
  readonly multiple?: boolean;
  /** Stored under this name (aliases). */
  readonly as?: string;
}

const FLAGS: Readonly<Record<string, FlagSpec>> = {
  '--cli': { takesValue: false },
  '--help': { takesValue: false },
  '-h': { takesValue: false, as: '--help' },
  '--open': { takesValue: false },
  '--task': { takesValue: false },
  '--method': { takesValue: true },
  '--tool-name': { takesValue: true },
  '--tool-arg': { takesValue: true, multiple: true },
  '--tool-args-json': { takesValue: true },
  '--uri': { takesValue: true },
  '--prompt-name': { takesValue: true },
  '--prompt-args': { takesValue: true, multiple: true },
  '--prompt-arg': { takesValue: true, multiple: true, as: '--prompt-args' },
  '--log-level': { takesValue: true },
  '--format': { takesValue: true },
  '--task-id': { takesValue: true },
  '--cursor': { takesValue: true },
  '--stdio': { takesValue: true },
  '--url': { takesValue: true },
  '--server-url': { takesValue: true, as: '--url' },
  '--transport': { takesValue: true },
  '-e': { takesValue: true, multiple: true },
  '--env': { takesValue: true, multiple: true, as: '-e' },
  '--header': { takesValue: true, multiple: true },
  '--cwd': { takesValue: true },
  '--revision': { takesValue: true },
  '--record': { takesValue: true },
  '--connect-timeout': { takesValue: true },
  '--timeout': { takesValue: true },
  '--port': { takesValue: true },
  '--host': { takesValue: true },
  '--diff': { takesValue: true, multiple: true },
  '--config': { takesValue: true },
  '--server': { takesValue: true },
};

export interface RawArguments {
  readonly flags: ReadonlyMap<string, string[] | true>;
  /** The server command line given positionally (or the URL, in the official `--cli <url>` form). */
  readonly command: readonly string[];
}

export function parseInspectArguments(argv: readonly string[]): RawArguments {
  const flags = new Map<string, string[] | true>();
  const command: string[] = [];
  let ownAfterDash = false;
  for (let index = 0; index < argv.length; index++) {
    const token = argv[index]!;
    if (token === '--' && !ownAfterDash) {
      if (command.length === 0) {
        command.push(...argv.slice(index + 1));
        break;
      }
      ownAfterDash = true;
      continue;
    }
    const [name, inline] =
      token.startsWith('--') && token.includes('=') ? splitOnce(token) : [token, undefined];
    const spec = FLAGS[name];
    if (spec === undefined) {
      if (token.startsWith('-') && (command.length === 0 || ownAfterDash))
        throw new UsageError(`unknown option ${name}`);
      if (ownAfterDash) throw new UsageError(`unexpected argument ${JSON.stringify(token)} after --`);
      command.push(token);
      continue;
    }
    const key = spec.as ?? name;
    if (!spec.takesValue) {
      if (inline !== undefined) throw new UsageError(`${name} takes no value`);
      flags.set(key, true);
      continue;
    }
    let value = inline;
    if (value === undefined) {
      value = argv[index + 1];
      if (value === undefined) throw new UsageError(`${name} needs a value`);
      index++;
    }
    const previous = flags.get(key);
    if (!spec.multiple && previous !== undefined) throw new UsageError(`${name} was given twice`);
    flags.set(key, [...(Array.isArray(previous) ? previous : []), value]);
  }
  return { flags, command };
}

function splitOnce(token: string): [string, string] {
  const at = token.indexOf('=');
  return [token.slice(0, at), token.slice(at + 1)];
}

export function flagValue(args: RawArguments, name: string): string | undefined {
  const value = args.flags.get(name);
  return Array.isArray(value) ? value[value.length - 1] : undefined;
}

export function flagValues(args: RawArguments, name: string): string[] {
  const value = args.flags.get(name);
  return Array.isArray(value) ? value : [];
}

export function hasFlag(args: RawArguments, name: string): boolean {
  return args.flags.has(name);
}

/**
 * `--tool-arg k=v`: the value is JSON when it parses as JSON (`n=3` is the number 3, `tags=["a"]` an array,
 * `zip=10001` a number — quote it, `zip='"10001"'`, to keep a string), a string otherwise. As in the official CLI.
 */
export function toolArguments(args: RawArguments): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const json = flagValue(args, '--tool-args-json');
  if (json !== undefined) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(json);
    } catch (error) {
      throw new UsageError(`--tool-args-json is not valid JSON: ${(error as Error).message}`);
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
      throw new UsageError('--tool-args-json must be a JSON object');
    Object.assign(out, parsed);
  }
  for (const pair of flagValues(args, '--tool-arg')) {
    const [key, raw] = keyValue(pair, '--tool-arg');
    out[key] = parseLoose(raw);
  }
  return out;
}

/** `--prompt-args k=v`: prompt arguments are strings by the spec, so values stay strings. */
export function promptArguments(args: RawArguments): Record<string, string> {
  const out: Record<string, string> = {};
  for (const pair of flagValues(args, '--prompt-args')) {
    const [key, value] = keyValue(pair, '--prompt-args');
    out[key] = value;
  }
  return out;
}

function parseLoose(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}

function keyValue(pair: string, flag: string): [string, string] {
  const at = pair.indexOf('=');
  if (at <= 0) throw new UsageError(`${flag} needs key=value, got ${JSON.stringify(pair)}`);
  return [pair.slice(0, at), pair.slice(at + 1)];
}

/**
 * The servers of `--config <file>` (none without it). With `--server <name>`, that one must be there.
 */
export function configTargetsOf(args: RawArguments, cwd: string): NamedTarget[] {
  const file = flagValue(args, '--config');
  const server = flagValue(args, '--server');
  if (file === undefined) {
    if (server !== undefined) throw new UsageError('--server names a server of --config <file>');
    return [];
  }
  let targets: NamedTarget[];
  try {
    targets = loadConfigTargets(file, cwd);
  } catch (error) {
    if (error instanceof ConfigFileError) throw new UsageError(error.message);
    throw error;
  }
  if (server !== undefined && !targets.some((named) => named.name === server))
    throw new UsageError(
      `--server ${server} is not in ${file} (it has ${targets.map((named) => named.name).join(', ') || 'none'})`,
    );
  return targets;
}

/**
 * The one target of the command-line mode: the command line's, else `--server` of `--config`, else the
 * config's only server.
 */
export function singleTargetOf(args: RawArguments, cwd: string): Target | undefined {
  const direct = targetOf(args, cwd);
  const configured = configTargetsOf(args, cwd);
  if (direct !== undefined) {
    if (configured.length > 0)
      throw new UsageError('give a server on the command line or with --config, not both');
    return direct;
  }
  if (configured.length === 0) return undefined;
  const server = flagValue(args, '--server');
  if (server !== undefined) return configured.find((named) => named.name === server)!.target;
  if (configured.length === 1) return configured[0]!.target;
  throw new UsageError(
    `--config has ${configured.length} servers: pick one with --server (${configured.map((named) => named.name).join(', ')})`,
  );
}

/** The target the arguments name: exactly one of a positional command or URL, `--stdio`, `--url`. */
export function targetOf(args: RawArguments, cwd: string): Target | undefined {
  const stdio = flagValue(args, '--stdio');
  let url = flagValue(args, '--url');
  let command = [...args.command];
  if (command.length === 1 && /^https?:\/\//i.test(command[0]!) && url === undefined) {
    url = command[0];
    command = [];
  }
  const given = [stdio !== undefined, url !== undefined, command.length > 0].filter(Boolean).length;
  if (given > 1)
    throw new UsageError('give one server: a command, --stdio "<command line>" or --url <endpoint>');
  const transport = flagValue(args, '--transport');
  const env = pairs(flagValues(args, '-e'), '=', '-e', 'KEY=VALUE');
  const headers = pairs(flagValues(args, '--header'), ':', '--header', '"Name: value"');
  if (given === 0) return undefined;
  if (url !== undefined) {
    if (!/^https?:\/\//i.test(url)) throw new UsageError(`--url must be an http(s) URL, got ${url}`);
    try {
      new URL(url);
    } catch {
      throw new UsageError(`--url is not a valid URL: ${url}`);
    }
    if (transport === 'stdio') throw new UsageError('--transport stdio needs a command, not a URL');
    if (flagValues(args, '-e').length > 0) throw new UsageError('-e applies to a stdio server only');
    const choice =
      transport === undefined
        ? 'auto'
        : transport === 'http' || transport === 'streamable-http'
          ? 'streamable-http'
          : transport === 'sse'
            ? 'sse'
            : undefined;
    if (choice === undefined)
      throw new UsageError(`--transport must be stdio, http (streamable-http) or sse, got ${transport}`);
    return {
      kind: 'http',
      url,
      transport: choice,
      ...(Object.keys(headers).length === 0 ? {} : { headers }),
    };
  }
  if (transport !== undefined && transport !== 'stdio')
    throw new UsageError(`--transport ${transport} needs a URL (--url or --server-url)`);
  if (flagValues(args, '--header').length > 0)
    throw new UsageError('--header applies to an HTTP server only');
  if (stdio !== undefined) {
    try {
      command = splitCommandLine(stdio);
    } catch (error) {
      throw new UsageError(`--stdio: ${(error as Error).message}`);
    }
    if (command.length === 0) throw new UsageError('--stdio needs a command');
  }
  const dir = flagValue(args, '--cwd');
  return {
    kind: 'stdio',
    command: command[0]!,
    args: command.slice(1),
    ...(Object.keys(env).length === 0 ? {} : { env }),
    cwd: dir === undefined ? cwd : resolve(cwd, dir),
  };
}

function pairs(
  list: readonly string[],
  separator: string,
  name: string,
  shape: string,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const item of list) {
    const at = item.indexOf(separator);
    if (at <= 0) throw new UsageError(`${name} needs ${shape}, got ${JSON.stringify(item)}`);
    out[item.slice(0, at).trim()] = item.slice(at + 1).trim();
  }
  return out;
}
