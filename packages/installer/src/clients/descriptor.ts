/**
 * A client descriptor: everything the installer knows about one MCP client's configuration file, as data and
 * two small functions — where the file is (per platform and scope, after probes), its format and the key that
 * holds the servers, how a stdio and a remote entry are spelled, how the client refers to environment variables,
 * and how an entry reads back (for `list` and `--verify`). Sources name the documentation it follows.
 */
import type { ConfigDocument, ConfigFormat, KeyPath } from '../documents/document.js';
import {
  RefusalError,
  type Platform,
  type RemoteServerSpec,
  type Scope,
  type ServerSpec,
  type StdioServerSpec,
  type TransportKind,
} from '../model.js';
import type { PathContext } from '../platform.js';
import { isLiteral, showTemplate, writeTemplate, type ReferenceSyntax, type Template } from '../template.js';

/** The fields of an entry that may hold references to environment variables. */
export type ReferenceField = 'args' | 'env' | 'url' | 'headers';

export interface RenderContext {
  readonly platform: Platform;
  /** The server's name (VS Code input descriptions mention it). */
  readonly name: string;
}

export interface RenderedEntry {
  readonly entry: Record<string, unknown>;
  /** Said to the user after writing (what the client will do, what was written in plain text...). */
  readonly notes: readonly string[];
}

export interface ClientDescriptor {
  readonly id: string;
  /** The product's name, for messages. */
  readonly name: string;
  readonly format: ConfigFormat;
  /** Documentation this descriptor follows (client docs first, then the issues behind pitfalls). */
  readonly sources: readonly string[];
  /** The file per scope; a scope the client does not have is absent. */
  readonly scopes: Partial<Record<Scope, (ctx: PathContext) => string>>;
  /** Where the servers are in the file. */
  readonly serversKey: KeyPath;
  readonly transports: readonly TransportKind[];
  /** How the client spells a reference to an environment variable, in prose for the docs' table. */
  readonly secrets: string;
  /** The environment a stdio server inherits from the client: all of it, these variables, or those that pass. */
  readonly inheritEnv: true | readonly string[] | ((name: string, value: string) => boolean);
  /** Said after writing to a scope (approval prompts, trust, files the client rewrites). */
  readonly scopeNotes?: Partial<Record<Scope, string>>;
  /** For a URL, the client tries Streamable HTTP and falls back to HTTP+SSE (the spec's compatibility procedure). */
  readonly sseFallback?: boolean;
  render(spec: ServerSpec, ctx: RenderContext): RenderedEntry;
  /** The entry as the client reads it, references included; throws an InstallerError when it is not one. */
  read(entry: unknown): ServerSpec;
  /** Whether an entry under the servers key is an MCP server at all (Goose keeps built-in extensions there too). */
  isServerEntry?(entry: unknown): boolean;
  /** Extra changes to the document around an entry being set or removed (VS Code `inputs`). */
  afterSet?(document: ConfigDocument, name: string, entry: Record<string, unknown>): void;
  afterDelete?(document: ConfigDocument, name: string, removed: unknown): void;
}

/** How a client refers to variables: its syntax and the fields it expands them in; none at all when absent. */
export interface ReferencePolicy {
  readonly syntax: ReferenceSyntax;
  readonly fields: ReadonlySet<ReferenceField>;
}

export const ALL_FIELDS: ReadonlySet<ReferenceField> = new Set(['args', 'env', 'url', 'headers']);

/** Commands that are `.cmd` shims on Windows, which a client can start only through `cmd /c`. */
const WINDOWS_SHIMS = new Set(['npx', 'npm', 'pnpm', 'pnpx', 'yarn', 'yarnpkg', 'corepack', 'bunx']);

/**
 * The command line as the client must start it: on Windows, `npx` and friends are batch-file shims that a
 * client spawning without a shell cannot run ("spawn npx ENOENT"), so they are wrapped as `cmd /c npx ...`.
 */
export function launchLine(
  spec: StdioServerSpec,
  platform: Platform,
): { command: string; args: readonly Template[] } {
  const base = spec.command.replace(/^.*[\\/]/, '').toLowerCase();
  const shim = WINDOWS_SHIMS.has(base) || /\.(cmd|bat)$/.test(base);
  if (platform === 'win32' && shim) return { command: 'cmd', args: [['/c'], [spec.command], ...spec.args] };
  return { command: spec.command, args: spec.args };
}

/** Writes one template for a field, or refuses when the client cannot refer to variables there. */
export function writeField(
  template: Template,
  policy: ReferencePolicy | undefined,
  field: ReferenceField,
  client: string,
  what: string,
): string {
  if (isLiteral(template)) return (template as string[]).join('');
  if (policy === undefined || !policy.fields.has(field))
    throw new RefusalError(
      `${client} cannot refer to environment variables in ${what} (${showTemplate(template)}): ` +
        (policy === undefined
          ? `its configuration has no variable syntax. Pass the value itself (it is then written in plain text).`
          : `it expands ${policy.syntax.example} only in ${[...policy.fields].join(', ')}.`),
    );
  return writeTemplate(template, policy.syntax);
}

export function writeRecord(
  record: Readonly<Record<string, Template>>,
  policy: ReferencePolicy | undefined,
  field: ReferenceField,
  client: string,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(record))
    out[key] = writeField(value, policy, field, client, `${field === 'env' ? 'env' : 'header'} ${key}`);
  return out;
}

/** The usual stdio parts in a client's spelling: command, args, env. */
export function stdioParts(
  spec: StdioServerSpec,
  ctx: RenderContext,
  policy: ReferencePolicy | undefined,
  client: string,
): { command: string; args: string[]; env: Record<string, string> } {
  const line = launchLine(spec, ctx.platform);
  return {
    command: line.command,
    args: line.args.map((arg, i) => writeField(arg, policy, 'args', client, `argument ${i + 1}`)),
    env: writeRecord(spec.env, policy, 'env', client),
  };
}

export function remoteParts(
  spec: RemoteServerSpec,
  policy: ReferencePolicy | undefined,
  client: string,
): { url: string; headers: Record<string, string> } {
  return {
    url: writeField(spec.url, policy, 'url', client, 'the URL'),
    headers: writeRecord(spec.headers, policy, 'headers', client),
  };
}

/** `{ key: value }` when the record has entries, else nothing (no empty `env: {}` noise). */
export function optional<T extends object>(key: string, value: T): Record<string, T> {
  return Object.keys(value).length === 0 ? {} : { [key]: value };
}

/** Reading back: a string, or a clear complaint about the entry. */
export function readString(entry: Record<string, unknown>, key: string, client: string): string {
  const value = entry[key];
  if (typeof value !== 'string') throw new RefusalError(`this ${client} entry has no "${key}" string`);
  return value;
}

export function readStrings(value: unknown, what: string): string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value) || !value.every((item) => typeof item === 'string'))
    throw new RefusalError(`${what} is not a list of strings`);
  return value;
}

export function readRecord(value: unknown, what: string): Record<string, string> {
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value))
    throw new RefusalError(`${what} is not an object of strings`);
  const out: Record<string, string> = {};
  for (const [key, item] of Object.entries(value)) {
    if (typeof item !== 'string') throw new RefusalError(`${what}.${key} is not a string`);
    out[key] = item;
  }
  return out;
}

/** A read function for a string field: through the client's syntax where it expands variables there. */
export function reader(
  policy: ReferencePolicy | undefined,
  field: ReferenceField,
): (text: string) => Template {
  return (text) => (policy !== undefined && policy.fields.has(field) ? policy.syntax.read(text) : [text]);
}

export function mapRecord(
  record: Record<string, string>,
  read: (text: string) => Template,
): Record<string, Template> {
  return Object.fromEntries(Object.entries(record).map(([key, value]) => [key, read(value)]));
}

export function asObject(entry: unknown, client: string): Record<string, unknown> {
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry))
    throw new RefusalError(`this ${client} entry is not an object`);
  return entry as Record<string, unknown>;
}

/** The common read side: `command`/`args`/`env` for stdio, or a URL field and `headers`. */
export function readStandard(
  entry: unknown,
  client: string,
  policy: ReferencePolicy | undefined,
  remote: (object: Record<string, unknown>) => { url: string; transport: 'http' | 'sse' } | undefined,
  keys: { env?: string; headers?: string } = {},
): ServerSpec {
  const object = asObject(entry, client);
  if (typeof object['command'] === 'string') {
    const args = readStrings(object['args'], 'args').map(reader(policy, 'args'));
    const env = mapRecord(readRecord(object[keys.env ?? 'env'], 'env'), reader(policy, 'env'));
    const cwd = object['cwd'];
    return {
      transport: 'stdio',
      command: object['command'],
      args,
      env,
      ...(typeof cwd === 'string' ? { cwd } : {}),
    };
  }
  const found = remote(object);
  if (found === undefined) throw new RefusalError(`this ${client} entry has neither a command nor a URL`);
  return {
    transport: found.transport,
    url: reader(policy, 'url')(found.url),
    headers: mapRecord(readRecord(object[keys.headers ?? 'headers'], 'headers'), reader(policy, 'headers')),
  };
}

export function refuseTransport(client: string, transport: TransportKind, reason: string): never {
  throw new RefusalError(
    `${client} cannot hold a ${transport === 'sse' ? 'HTTP+SSE' : transport} server in its configuration file: ${reason}`,
  );
}
