/**
 * The command line's frame: finds the command in the registry, parses its arguments with `node:util`
 * `parseArgs` against the options it declares, renders help from the same declarations, and maps failures to
 * exit codes (2 for usage; the command decides the rest).
 */
import { parseArgs } from 'node:util';
import {
  UsageError,
  type CommandIo,
  type CommandSpec,
  type OptionSpecs,
  type ParsedArgs,
} from './command.js';
import { COMMANDS } from './registry.js';

const HELP_WIDTH = 112;

export function parseCommandArgs<O extends OptionSpecs>(
  spec: CommandSpec<O>,
  argv: readonly string[],
): ParsedArgs<O> {
  const end = spec.passthrough ? argv.indexOf('--') : -1;
  const own = end === -1 ? [...argv] : argv.slice(0, end);
  const rest = end === -1 ? [] : argv.slice(end + 1);
  const options: Record<string, { type: 'string' | 'boolean'; multiple?: boolean; short?: string }> = {};
  for (const [name, option] of Object.entries(spec.options)) {
    options[name] = {
      type: option.type,
      ...(option.multiple ? { multiple: true } : {}),
      ...(option.short === undefined ? {} : { short: option.short }),
    };
  }
  let parsed: { values: Record<string, unknown>; positionals: string[] };
  try {
    parsed = parseArgs({ args: own, options, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError(parseArgsMessage(error));
  }
  const max = spec.positionals?.max ?? (spec.positionals === undefined ? 0 : Infinity);
  const min = spec.positionals?.min ?? 0;
  if (parsed.positionals.length > max) {
    const extra = parsed.positionals[max]!;
    throw new UsageError(
      max === 0
        ? `unexpected argument ${JSON.stringify(extra)}`
        : `too many arguments (from ${JSON.stringify(extra)})`,
    );
  }
  if (parsed.positionals.length < min)
    throw new UsageError(`missing argument: see mcpengine ${spec.name} --help`);
  return {
    values: parsed.values as ParsedArgs<O>['values'],
    positionals: parsed.positionals,
    rest,
    terminated: end !== -1,
  };
}

/** `parseArgs` messages carry advice about `--` that confuses more than helps; say what is wrong in one line. */
function parseArgsMessage(error: unknown): string {
  const code = (error as { code?: string }).code;
  const message = error instanceof Error ? error.message : String(error);
  const option = /'(-[^' ]+)/.exec(message)?.[1];
  switch (code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION':
      return `unknown option ${option ?? message}`;
    case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE':
      if (/argument missing/.test(message)) return `${option ?? 'an option'} needs a value`;
      if (/does not take an argument/.test(message)) return `${option ?? 'an option'} takes no value`;
      if (/ambiguous/.test(message))
        return `${option ?? 'an option'}: a value starting with "-" must be written ${option ?? '--option'}=<value>`;
      return message;
    default:
      return message;
  }
}

function wrap(text: string, indent: number, width = HELP_WIDTH): string {
  const lines: string[] = [];
  for (const paragraph of text.split('\n')) {
    let line = '';
    for (const word of paragraph.split(' ')) {
      if (line !== '' && indent + line.length + 1 + word.length > width) {
        lines.push(line);
        line = word;
      } else line = line === '' ? word : `${line} ${word}`;
    }
    lines.push(line);
  }
  return lines.join(`\n${' '.repeat(indent)}`);
}

export function renderCommandHelp(spec: CommandSpec): string {
  const out: string[] = [];
  spec.synopsis.forEach((line, i) =>
    out.push(`${i === 0 ? 'Usage: ' : '       '}mcpengine ${spec.name} ${line}`),
  );
  out.push('', wrap(spec.description ?? spec.summary, 0));
  const groups = new Map<string, [string, string][]>();
  for (const [name, option] of Object.entries(spec.options)) {
    const flag = `${option.short === undefined ? '' : `-${option.short}, `}--${name}${
      option.type === 'string' ? ` ${option.value ?? '<value>'}` : ''
    }`;
    const description = option.multiple ? `${option.description} (repeatable)` : option.description;
    const group = option.group ?? 'Options';
    groups.set(group, [...(groups.get(group) ?? []), [flag, description]]);
  }
  groups.set('Options', [...(groups.get('Options') ?? []), ['-h, --help', 'show this help']]);
  const column = Math.min(32, Math.max(...[...groups.values()].flat().map(([flag]) => flag.length)) + 4);
  for (const [group, rows] of groups) {
    out.push('', `${group}:`);
    for (const [flag, description] of rows) {
      const head = `  ${flag}`;
      const pad = head.length + 1 >= column ? `\n${' '.repeat(column)}` : ' '.repeat(column - head.length);
      out.push(`${head}${pad}${wrap(description, column)}`);
    }
  }
  if (spec.exitCodes !== undefined) out.push('', 'Exit codes:', ...spec.exitCodes.map((line) => `  ${line}`));
  if (spec.examples !== undefined) out.push('', 'Examples:', ...spec.examples.map((line) => `  ${line}`));
  return `${out.join('\n')}\n`;
}

export function renderOverview(): string {
  const width = Math.max(...COMMANDS.map((command) => command.name.length)) + 3;
  return [
    'Usage: mcpengine <command> [options]',
    '',
    'The MCPEngine factory: validate, test, inspect, install and generate MCP servers.',
    '',
    'Commands:',
    ...COMMANDS.map((command) => `  ${command.name.padEnd(width)}${command.summary}`),
    '',
    'Run mcpengine <command> --help for a command’s options.',
    '',
  ].join('\n');
}

function wantsHelp(spec: CommandSpec, argv: readonly string[]): boolean {
  const own = spec.passthrough && argv.includes('--') ? argv.slice(0, argv.indexOf('--')) : argv;
  return own.includes('--help') || own.includes('-h');
}

/** Runs one invocation of `mcpengine`; returns the exit code. */
export async function runCli(argv: readonly string[], io: CommandIo): Promise<number> {
  const [name, ...args] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    const topic = name === 'help' ? COMMANDS.find((command) => command.name === args[0]) : undefined;
    io.stdout(topic === undefined ? renderOverview() : renderCommandHelp(topic));
    return 0;
  }
  if (name === '--version' || name === '-v') {
    io.stdout(`${await cliVersion()}\n`);
    return 0;
  }
  const spec = COMMANDS.find((command) => command.name === name);
  if (spec === undefined) {
    const near = COMMANDS.filter((command) => command.name.startsWith(name.slice(0, 2)));
    io.stderr(
      `mcpengine: unknown command ${JSON.stringify(name)}${near.length > 0 ? ` (did you mean ${near.map((c) => c.name).join(' or ')}?)` : ''}\n\n${renderOverview()}`,
    );
    return 2;
  }
  if (wantsHelp(spec, args)) {
    io.stdout(renderCommandHelp(spec));
    return 0;
  }
  try {
    const parsed = spec.rawArgs ? { values: {}, positionals: args, rest: [] } : parseCommandArgs(spec, args);
    return await spec.run(parsed, io);
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr(`mcpengine ${spec.name}: ${error.message}\n(see mcpengine ${spec.name} --help)\n`);
      return 2;
    }
    io.stderr(
      `mcpengine ${spec.name}: internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    return 2;
  }
}

async function cliVersion(): Promise<string> {
  const { readFile } = await import('node:fs/promises');
  const manifest = JSON.parse(await readFile(new URL('../package.json', import.meta.url), 'utf8')) as {
    version: string;
  };
  return manifest.version;
}
