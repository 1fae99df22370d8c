/**
 * An MCP Registry `server.json` (schema 2025-12-11) turned into a server: the first runnable package (npm → npx,
 * pypi → uvx, oci → docker run, nuget → dnx) or, when asked for with `--transport` or when there is no package,
 * a remote. Its environment variables, headers, arguments and URL variables become questions (see inputs.ts):
 * `--env NAME=VALUE`, `--header "Name: value"` and `--var NAME=VALUE` answer them.
 */
import { InstallerError, type ServerSpec } from '../model.js';
import { literal, type Template } from '../template.js';
import { Answers, type AnswerSource, type Question } from './inputs.js';

export const SERVER_SCHEMA_PREFIX = 'https://static.modelcontextprotocol.io/schemas/';

interface Input {
  readonly description?: string;
  readonly isRequired?: boolean;
  readonly isSecret?: boolean;
  readonly default?: string;
  readonly placeholder?: string;
  readonly choices?: string[];
  readonly format?: string;
  readonly value?: string;
  readonly variables?: Record<string, Input>;
}

interface KeyValueInput extends Input {
  readonly name: string;
}

interface Argument extends Input {
  readonly type: 'positional' | 'named';
  readonly name?: string;
  readonly valueHint?: string;
}

interface Transport {
  readonly type: string;
  readonly url?: string;
  readonly headers?: KeyValueInput[];
  readonly variables?: Record<string, Input>;
}

interface Package {
  readonly registryType: string;
  readonly identifier: string;
  readonly version?: string;
  readonly runtimeHint?: string;
  readonly runtimeArguments?: Argument[];
  readonly packageArguments?: Argument[];
  readonly environmentVariables?: KeyValueInput[];
  readonly transport: Transport;
}

export interface ServerJson {
  readonly name: string;
  readonly description?: string;
  readonly version?: string;
  readonly packages?: Package[];
  readonly remotes?: Transport[];
}

/** What the user gave on the command line, keyed by env name, header name and variable name. */
export interface ProvidedValues {
  readonly env: Readonly<Record<string, string>>;
  readonly headers: Readonly<Record<string, string>>;
  readonly vars: Readonly<Record<string, string>>;
}

export interface RegistryChoice {
  readonly spec: ServerSpec;
  /** What was chosen, e.g. "npm package @x/y@1.2.3" or "remote https://...". */
  readonly description: string;
  readonly notes: readonly string[];
}

/** Checks the fields the installer relies on, with the JSON path of the first wrong one. */
export function parseServerJson(text: string, file: string): ServerJson {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new InstallerError(`${file}: not valid JSON (${(error as Error).message})`);
  }
  const fail = (path: string, what: string): never => {
    throw new InstallerError(`${file}: ${path} ${what} (MCP Registry server.json, schema 2025-12-11)`);
  };
  const object = (v: unknown): v is Record<string, unknown> =>
    typeof v === 'object' && v !== null && !Array.isArray(v);
  if (!object(value)) return fail('the top level', 'must be an object');
  if (typeof value['name'] !== 'string') fail('name', 'must be a string');
  const schema = value['$schema'];
  if (schema !== undefined && (typeof schema !== 'string' || !schema.startsWith(SERVER_SCHEMA_PREFIX)))
    fail('$schema', `must be a ${SERVER_SCHEMA_PREFIX}… URL`);
  const checkInputs = (list: unknown, path: string, named: boolean) => {
    if (list === undefined) return;
    if (!Array.isArray(list)) fail(path, 'must be an array');
    (list as unknown[]).forEach((item, i) => {
      if (!object(item)) fail(`${path}[${i}]`, 'must be an object');
      const input = item as Record<string, unknown>;
      if (named && typeof input['name'] !== 'string') fail(`${path}[${i}].name`, 'must be a string');
      for (const key of ['value', 'default', 'description'] as const)
        if (input[key] !== undefined && typeof input[key] !== 'string')
          fail(`${path}[${i}].${key}`, 'must be a string');
    });
  };
  const checkTransport = (transport: unknown, path: string) => {
    if (!object(transport) || typeof transport['type'] !== 'string')
      return fail(path, 'must be an object with a type');
    if (transport['type'] !== 'stdio' && typeof transport['url'] !== 'string')
      fail(`${path}.url`, 'must be a string');
    checkInputs(transport['headers'], `${path}.headers`, true);
  };
  const packages = value['packages'];
  if (packages !== undefined) {
    if (!Array.isArray(packages)) fail('packages', 'must be an array');
    (packages as unknown[]).forEach((pkg, i) => {
      if (!object(pkg)) return fail(`packages[${i}]`, 'must be an object');
      for (const key of ['registryType', 'identifier'] as const)
        if (typeof pkg[key] !== 'string') fail(`packages[${i}].${key}`, 'must be a string');
      if (pkg['version'] === 'latest')
        fail(`packages[${i}].version`, 'must be an exact version, not "latest"');
      checkTransport(pkg['transport'], `packages[${i}].transport`);
      checkInputs(pkg['environmentVariables'], `packages[${i}].environmentVariables`, true);
      checkInputs(pkg['runtimeArguments'], `packages[${i}].runtimeArguments`, false);
      checkInputs(pkg['packageArguments'], `packages[${i}].packageArguments`, false);
    });
  }
  const remotes = value['remotes'];
  if (remotes !== undefined) {
    if (!Array.isArray(remotes)) fail('remotes', 'must be an array');
    (remotes as unknown[]).forEach((remote, i) => checkTransport(remote, `remotes[${i}]`));
  }
  if (
    (packages === undefined || (packages as unknown[]).length === 0) &&
    (remotes === undefined || (remotes as unknown[]).length === 0)
  )
    fail('packages and remotes', 'are both empty: there is nothing to install');
  return value as unknown as ServerJson;
}

const RUNNABLE = new Set(['npm', 'pypi', 'oci', 'nuget']);

/** Picks a package or a remote and asks for what it needs. */
export async function fromServerJson(
  server: ServerJson,
  provided: ProvidedValues,
  source: AnswerSource,
  transport: 'http' | 'sse' | undefined,
): Promise<RegistryChoice> {
  const answers = new Answers(source);
  const packages = server.packages ?? [];
  const remotes = server.remotes ?? [];
  const wantRemote = transport !== undefined || !packages.some((pkg) => pkg.transport.type === 'stdio');
  let result: { spec: ServerSpec; description: string };
  if (wantRemote) {
    const wanted = transport === 'sse' ? 'sse' : 'streamable-http';
    const remote =
      remotes.find((candidate) => candidate.type === wanted) ??
      (transport === undefined ? remotes[0] : undefined);
    if (remote === undefined) {
      const has = remotes.map((candidate) => candidate.type).join(', ') || 'none';
      const why = packages.length > 0 ? `; its packages: ${packages.map(describePackage).join(', ')}` : '';
      throw new InstallerError(
        `${server.name} has no ${transport ?? 'remote'} endpoint (remotes: ${has}${why})`,
      );
    }
    result = await remoteSpec(remote, provided, answers);
  } else {
    const pkg = packages.find(
      (candidate) => candidate.transport.type === 'stdio' && RUNNABLE.has(candidate.registryType),
    );
    if (pkg === undefined) {
      const kinds = packages.map((candidate) => candidate.registryType).join(', ');
      throw new InstallerError(
        `${server.name} has no package the installer can run (${kinds}): npm, pypi, oci and nuget are supported; an MCPB bundle is installed by the client itself`,
      );
    }
    result = await packageSpec(pkg, provided, answers);
  }
  answers.check();
  return { ...result, notes: answers.notes };
}

function describePackage(pkg: Package): string {
  return `${pkg.registryType} ${pkg.identifier}${pkg.version === undefined ? '' : `@${pkg.version}`} (${pkg.transport.type})`;
}

function question(input: Input, label: string, flag: string, reference?: string): Question {
  return {
    flag,
    label,
    required: input.isRequired === true,
    secret: input.isSecret === true,
    ...(input.description === undefined ? {} : { description: input.description }),
    ...(input.default === undefined ? {} : { default: input.default }),
    ...(input.choices === undefined ? {} : { choices: input.choices }),
    ...(input.format === undefined ? {} : { format: input.format }),
    ...(reference === undefined ? {} : { reference }),
  };
}

/** An upper-snake variable name for a secret that has no name of its own (a header, a variable). */
function variableName(text: string): string {
  return (
    text
      .replace(/[^A-Za-z0-9]+/g, '_')
      .replace(/^_|_$/g, '')
      .toUpperCase() || 'SECRET'
  );
}

/** Fills `{var}` placeholders of a fixed value from its variables (each answered like an input). */
async function substitute(
  text: string,
  variables: Record<string, Input> | undefined,
  provided: ProvidedValues,
  answers: Answers,
): Promise<Template> {
  const parts: Template[number][] = [];
  let last = 0;
  for (const match of text.matchAll(/\{([A-Za-z_][A-Za-z0-9_]*)\}/g)) {
    const variable = variables?.[match[1]!];
    if (variable === undefined) continue; // unknown placeholders stay as written (schema: "should remain unchanged")
    parts.push(text.slice(last, match.index));
    const name = match[1]!;
    const value =
      variable.value ??
      (await answers.answer(
        question(variable, name, `--var ${name}=<value>`, variableName(name)),
        provided.vars[name],
      ));
    if (typeof value === 'string') parts.push(value);
    else if (value !== undefined) parts.push(...value);
    last = match.index + match[0].length;
  }
  parts.push(text.slice(last));
  return parts.filter((part) => part !== '');
}

async function inputValue(
  input: Input,
  q: Question,
  given: string | undefined,
  provided: ProvidedValues,
  answers: Answers,
): Promise<Template | undefined> {
  if (given !== undefined) return answers.answer(q, given);
  if (input.value !== undefined) return substitute(input.value, input.variables, provided, answers);
  return answers.answer(q, undefined);
}

async function argumentsOf(
  list: readonly Argument[] | undefined,
  provided: ProvidedValues,
  answers: Answers,
): Promise<Template[]> {
  const out: Template[] = [];
  for (const argument of list ?? []) {
    if (argument.type === 'named') {
      const flag = argument.name ?? '';
      const id = flag.replace(/^-+/, '');
      const value = await inputValue(
        argument,
        question(argument, flag, `--var ${id}=<value>`, variableName(id)),
        provided.vars[id],
        provided,
        answers,
      );
      if (value === undefined && argument.value === undefined && !argument.isRequired) continue;
      out.push(literal(flag));
      if (value !== undefined && value.length > 0) out.push(value);
    } else {
      const id = argument.valueHint ?? 'argument';
      const value = await inputValue(
        argument,
        question(argument, id, `--var ${id}=<value>`, variableName(id)),
        provided.vars[id],
        provided,
        answers,
      );
      if (value !== undefined) out.push(value);
    }
  }
  return out;
}

async function envOf(
  list: readonly KeyValueInput[] | undefined,
  provided: ProvidedValues,
  answers: Answers,
): Promise<Record<string, Template>> {
  const env: Record<string, Template> = {};
  for (const variable of list ?? []) {
    const value = await inputValue(
      variable,
      question(variable, variable.name, `--env ${variable.name}=<value>`, variable.name),
      provided.env[variable.name],
      provided,
      answers,
    );
    if (value !== undefined) env[variable.name] = value;
  }
  return env;
}

async function headersOf(
  list: readonly KeyValueInput[] | undefined,
  provided: ProvidedValues,
  answers: Answers,
): Promise<Record<string, Template>> {
  const headers: Record<string, Template> = {};
  for (const header of list ?? []) {
    const given = Object.entries(provided.headers).find(
      ([name]) => name.toLowerCase() === header.name.toLowerCase(),
    )?.[1];
    const value = await inputValue(
      header,
      question(header, header.name, `--header "${header.name}: <value>"`, variableName(header.name)),
      given,
      provided,
      answers,
    );
    if (value !== undefined) headers[header.name] = value;
  }
  return headers;
}

async function packageSpec(
  pkg: Package,
  provided: ProvidedValues,
  answers: Answers,
): Promise<{ spec: ServerSpec; description: string }> {
  const runtimeArgs = await argumentsOf(pkg.runtimeArguments, provided, answers);
  const packageArgs = await argumentsOf(pkg.packageArguments, provided, answers);
  const env = await envOf(pkg.environmentVariables, provided, answers);
  const has = (flag: string) => runtimeArgs.some((arg) => arg.length === 1 && arg[0] === flag);
  const version = pkg.version;
  let command: string;
  let args: Template[];
  switch (pkg.registryType) {
    case 'npm':
      command = pkg.runtimeHint ?? 'npx';
      args = [
        ...(command === 'npx' && !has('-y') && !has('--yes') ? [literal('-y')] : []),
        ...runtimeArgs,
        literal(version === undefined ? pkg.identifier : `${pkg.identifier}@${version}`),
        ...packageArgs,
      ];
      break;
    case 'pypi':
      command = pkg.runtimeHint ?? 'uvx';
      args = [
        ...runtimeArgs,
        literal(version === undefined ? pkg.identifier : `${pkg.identifier}==${version}`),
        ...packageArgs,
      ];
      break;
    case 'oci': {
      command = pkg.runtimeHint ?? 'docker';
      const tagged =
        version === undefined || /[:@][^/]*$/.test(pkg.identifier)
          ? pkg.identifier
          : `${pkg.identifier}:${version}`;
      // The container sees only the variables passed with -e; their values come from the client's env.
      const passEnv = Object.keys(env).flatMap((name) => [literal('-e'), literal(name)]);
      args = [
        literal('run'),
        literal('-i'),
        literal('--rm'),
        ...runtimeArgs,
        ...passEnv,
        literal(tagged),
        ...packageArgs,
      ];
      break;
    }
    case 'nuget':
      command = pkg.runtimeHint ?? 'dnx';
      args = [
        ...runtimeArgs,
        literal(version === undefined ? pkg.identifier : `${pkg.identifier}@${version}`),
        literal('--yes'),
        ...packageArgs,
      ];
      break;
    default:
      throw new InstallerError(`unsupported package registry ${pkg.registryType}`);
  }
  return {
    spec: { transport: 'stdio', command, args, env },
    description: `${pkg.registryType} package ${pkg.identifier}${version === undefined ? '' : `@${version}`}`,
  };
}

async function remoteSpec(
  remote: Transport,
  provided: ProvidedValues,
  answers: Answers,
): Promise<{ spec: ServerSpec; description: string }> {
  const url = await substitute(remote.url ?? '', remote.variables, provided, answers);
  const headers = await headersOf(remote.headers, provided, answers);
  const transport = remote.type === 'sse' ? 'sse' : 'http';
  return { spec: { transport, url, headers }, description: `${remote.type} endpoint ${remote.url ?? ''}` };
}
