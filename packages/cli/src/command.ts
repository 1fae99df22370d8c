/**
 * The shape of a `mcpengine` command. Each command is one file in `commands/` that declares its options as data
 * (so help is rendered from them and parsing is `node:util` `parseArgs`) and delegates the work to a package.
 */

/** What a command may touch of the process: output, environment, working directory, interruption. */
export interface CommandIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** The directory relative paths in arguments resolve from. */
  readonly cwd: string;
  /** Whether stdout is a terminal (progress display, colour). */
  readonly isTTY: boolean;
  /** Aborted when the user interrupts (Ctrl-C); long-running commands stop their work and children. */
  readonly signal: AbortSignal;
}

/** A wrong argument: the command prints the message and a pointer to `--help`, and exits 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

export interface OptionSpec {
  readonly type: 'string' | 'boolean';
  /** The option may be given several times; its value is an array. */
  readonly multiple?: boolean;
  /** A one-letter alias (`-y`). */
  readonly short?: string;
  /** The value's placeholder in help, e.g. `<file>` (string options). */
  readonly value?: string;
  readonly description: string;
  /** The help section the option is listed under (default "Options"). */
  readonly group?: string;
}

export type OptionSpecs = Readonly<Record<string, OptionSpec>>;

/** `--stdio` and `--url`: how every command that talks to a server names it, with one wording in every help. */
export function serverTargetOptions(group: string) {
  return {
    stdio: {
      type: 'string',
      value: '"<command line>"',
      group,
      description: 'start the server with this command (split like a shell, never run by one)',
    },
    url: {
      type: 'string',
      value: '<endpoint>',
      group,
      description: 'a Streamable HTTP or HTTP+SSE endpoint',
    },
  } as const;
}

type ValueOf<S extends OptionSpec> = S['type'] extends 'boolean'
  ? S['multiple'] extends true
    ? boolean[]
    : boolean
  : S['multiple'] extends true
    ? string[]
    : string;

/** Parsed option values, keyed by option name; an option not given is absent. */
export type OptionValues<O extends OptionSpecs> = { readonly [K in keyof O]?: ValueOf<O[K]> };

export interface ParsedArgs<O extends OptionSpecs> {
  readonly values: OptionValues<O>;
  readonly positionals: readonly string[];
  /** Arguments after a `--` terminator, verbatim (commands with `passthrough`). */
  readonly rest: readonly string[];
  /** Whether a `--` terminator was given (commands with `passthrough`), even with nothing after it. */
  readonly terminated?: boolean;
}

export interface CommandSpec<O extends OptionSpecs = OptionSpecs> {
  readonly name: string;
  /** One line for the command list. */
  readonly summary: string;
  /** Usage lines, each following `mcpengine <name> `. */
  readonly synopsis: readonly string[];
  /** Paragraphs shown under the usage lines. */
  readonly description?: string;
  readonly options: O;
  /** Positional arguments accepted before any `--`; none when absent. */
  readonly positionals?: { readonly min?: number; readonly max?: number };
  /** Arguments after `--` are handed to the command verbatim instead of being parsed. */
  readonly passthrough?: boolean;
  /**
   * Every argument is handed to the command verbatim as positionals (the command parses them itself, e.g. to
   * follow another tool's command line); `options` then only documents them for help.
   */
  readonly rawArgs?: boolean;
  /** Lines explaining the exit codes. */
  readonly exitCodes?: readonly string[];
  readonly examples?: readonly string[];
  run(args: ParsedArgs<O>, io: CommandIo): Promise<number>;
}

/** Identity with inference, so a command's `run` sees typed option values. */
export function defineCommand<const O extends OptionSpecs>(spec: CommandSpec<O>): CommandSpec<O> {
  return spec;
}
