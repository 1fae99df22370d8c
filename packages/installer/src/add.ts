/**
 * `mcpengine add`: builds the server from its source, renders it for the client, edits the client's file
 * (or prints the diff with --dry-run), and with --verify starts or connects the entry as the client would.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { isAbsolute, resolve } from 'node:path';
import type { ClientDescriptor } from './clients/descriptor.js';
import { CLIENT_IDS, findClient } from './clients/index.js';
import { openDocument } from './documents/open.js';
import { planAdd, readConfig } from './edit.js';
import { checkServerName, InstallerError, type Platform, type Scope, type ServerSpec } from './model.js';
import { hostPlatform, templateOf, templates } from './options.js';
import { homeDir, pathContext } from './platform.js';
import { findFleetServer, fleetNames } from './sources/fleet.js';
import type { Prompter } from './sources/inputs.js';
import { fromServerJson, parseServerJson } from './sources/server-json.js';
import { resolveTarget, type Target } from './target.js';
import { isLiteral, looksSecret, type Template } from './template.js';
import type { Handshake } from './verify/engine-client.js';
import type { Verified } from './verify/verify.js';
import { writeEdit } from './write.js';

export type AddSource =
  | { readonly kind: 'command'; readonly argv: readonly string[] }
  | { readonly kind: 'url'; readonly url: string }
  | { readonly kind: 'server-json'; readonly file: string }
  | { readonly kind: 'fleet' };

export interface AddRequest {
  readonly name: string;
  readonly client: string;
  readonly scope: Scope;
  readonly platform: Platform;
  readonly source: AddSource;
  /** `--env` values as given (`KEY` alone already turned into `${KEY}`). */
  readonly env: Readonly<Record<string, string>>;
  readonly headers: Readonly<Record<string, string>>;
  readonly vars: Readonly<Record<string, string>>;
  readonly transport?: 'http' | 'sse';
  readonly yes: boolean;
  readonly dryRun: boolean;
  readonly verify: boolean;
  readonly timeoutMs: number;
}

export interface InstallerIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly cwd: string;
  readonly signal: AbortSignal;
  /** Present only when a person can answer (a terminal). */
  readonly prompt?: Prompter;
  /** Tests wrap the verification transport with a wire tap. */
  readonly wrapTransport?: <T extends object>(transport: T) => T;
  /** Handshakes of launches verified before in this session, reused for an identical launch (see verifyEntry). */
  readonly handshakes?: Map<string, Promise<Handshake>>;
}

export const INSTALLER_VERSION = '0.1.0';

export function clientOrThrow(id: string): ClientDescriptor {
  const client = findClient(id);
  if (client === undefined)
    throw new InstallerError(`unknown client ${JSON.stringify(id)}; one of: ${CLIENT_IDS.join(', ')}`);
  return client;
}

/** Runs `add`; returns the exit code. Installer errors are printed here; anything else is a bug. */
export async function runAdd(request: AddRequest, io: InstallerIo): Promise<number> {
  try {
    return await add(request, io);
  } catch (error) {
    if (!(error instanceof InstallerError)) throw error;
    io.stderr(`mcpengine add: ${error.message}\n`);
    return error.exitCode;
  }
}

async function add(request: AddRequest, io: InstallerIo): Promise<number> {
  const client = clientOrThrow(request.client);
  checkServerName(request.name);
  if (request.verify && request.platform !== hostPlatform())
    throw new InstallerError(
      `--verify starts the server here, so it needs this machine's layout (--platform ${hostPlatform()}); a ${request.platform} configuration can only be verified on ${request.platform}`,
    );
  const target = resolveTarget(client, request.scope, pathContext(request.platform, io.env, io.cwd));
  const { spec, description, notes: sourceNotes } = await serverOf(request, io);
  const plan = await planAdd(target, request.name, spec, request.platform);
  const notes = [
    ...sourceNotes,
    ...plan.notes,
    ...plainTextNotes(spec),
    ...relativePathNotes(spec, client, io.cwd),
  ];
  const scopeNote = client.scopeNotes?.[request.scope];
  if (scopeNote !== undefined && plan.changed) notes.push(scopeNote);
  const where = `${client.name} (${request.scope} scope): ${target.file}`;
  if (description !== undefined) io.stdout(`Source: ${description}\n`);
  if (request.dryRun) {
    io.stdout(plan.changed ? plan.diff : `No change: "${request.name}" is already in ${where}\n`);
    io.stdout(plan.changed ? `(dry run: nothing written to ${target.file})\n` : '');
  } else if (plan.changed) {
    const written = await writeEdit(plan);
    const verb = (await existed(plan)) ? 'Updated' : 'Added';
    io.stdout(`${verb} "${request.name}" in ${where}\n`);
    if (written.backup !== undefined) io.stdout(`  backup of the previous file: ${written.backup}\n`);
  } else {
    io.stdout(`Up to date: "${request.name}" is already in ${where}\n`);
  }
  for (const note of notes) io.stdout(`  note: ${note}\n`);
  if (!request.verify) return 0;
  const entry = request.dryRun
    ? await entryIn(target, plan.after, request.name)
    : await writtenEntry(target, request.name);
  // The engine's client is loaded only to verify.
  const { verifyEntry } = await import('./verify/verify.js');
  const verified = await verifyEntry(client, entry, {
    env: io.env,
    // Project servers start in the project; user-scope servers from a directory that is not this one.
    cwd: request.scope === 'project' ? io.cwd : homeDir(pathContext(hostPlatform(), io.env, io.cwd)),
    timeoutMs: request.timeoutMs,
    signal: io.signal,
    clientVersion: INSTALLER_VERSION,
    ...(io.wrapTransport === undefined ? {} : { wrapTransport: io.wrapTransport }),
    ...(io.handshakes === undefined ? {} : { handshakes: io.handshakes }),
  });
  io.stdout(`${describeVerified(verified)}\n`);
  return 0;
}

async function existed(plan: {
  readonly before: string | undefined;
  readonly target: Target;
  readonly name: string;
}): Promise<boolean> {
  if (plan.before === undefined) return false;
  const document = await openDocument(plan.target.file, plan.before, plan.target.client.format);
  return document.get([...plan.target.client.serversKey, plan.name]) !== undefined;
}

export function describeVerified(verified: Verified): string {
  const version = verified.serverVersion === '' ? '' : ` ${verified.serverVersion}`;
  return `Verified: ${verified.serverName}${version} answered over ${verified.transport === 'stdio' ? 'stdio' : verified.transport === 'sse' ? 'HTTP+SSE' : 'Streamable HTTP'} at revision ${verified.revision} (${verified.era} era) with ${verified.toolCount} tool${verified.toolCount === 1 ? '' : 's'} (${verified.launched})${verified.reused === true ? '; the same launch as one verified earlier, so its handshake was not repeated' : ''}`;
}

async function entryIn(target: Target, text: string, name: string): Promise<unknown> {
  return (await openDocument(target.file, text, target.client.format)).get([
    ...target.client.serversKey,
    name,
  ]);
}

async function writtenEntry(target: Target, name: string): Promise<unknown> {
  const text = await readConfig(target.file);
  if (text === undefined) throw new InstallerError(`verify: ${target.file} is gone`, 1);
  return entryIn(target, text, name);
}

async function serverOf(
  request: AddRequest,
  io: InstallerIo,
): Promise<{ spec: ServerSpec; description?: string; notes: readonly string[] }> {
  const source = request.source;
  const env = templates(request.env, '--env');
  const headers = templates(request.headers, '--header');
  switch (source.kind) {
    case 'command': {
      const [command, ...args] = source.argv;
      if (command === undefined || command === '') throw new InstallerError('the command after -- is empty');
      if (Object.keys(headers).length > 0) throw new InstallerError('--header applies to --url servers only');
      return {
        spec: {
          transport: 'stdio',
          command,
          args: args.map((arg, i) => templateOf(`${i + 1}`, arg, 'argument')),
          env,
        },
        notes: [],
      };
    }
    case 'url': {
      if (Object.keys(env).length > 0)
        throw new InstallerError('--env applies to stdio servers only (use --header for a URL)');
      const url = templateOf('url', source.url, '--url');
      checkUrl(source.url);
      return { spec: { transport: request.transport ?? 'http', url, headers }, notes: [] };
    }
    case 'server-json':
    case 'fleet': {
      let file: string;
      if (source.kind === 'fleet') {
        const found = findFleetServer(request.name, io.env);
        if (found === undefined) {
          const known = fleetNames(io.env);
          throw new InstallerError(
            `no command, --url or --from given, and "${request.name}" is not a fleet server${known.length === 0 ? '' : ` (the fleet has: ${known.join(', ')})`}. ` +
              `Give the command after --, e.g. mcpengine add ${request.name} --client ${request.client} -- npx -y <package>`,
          );
        }
        file = found;
      } else {
        file = isAbsolute(source.file) ? source.file : resolve(io.cwd, source.file);
      }
      let text: string;
      try {
        text = await readFile(file, 'utf8');
      } catch (error) {
        throw new InstallerError(`cannot read ${file}: ${(error as Error).message}`);
      }
      const server = parseServerJson(text, file);
      const choice = await fromServerJson(
        server,
        { env: request.env, headers: request.headers, vars: request.vars },
        { yes: request.yes, ...(io.prompt === undefined ? {} : { prompt: io.prompt }) },
        request.transport,
      );
      return {
        spec: choice.spec,
        description: `${server.name} ${server.version ?? ''} (${choice.description})`.replace('  ', ' '),
        notes: choice.notes,
      };
    }
  }
}

function checkUrl(text: string): void {
  if (text.includes('${')) return; // a URL built from variables is checked when the client resolves it
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new InstallerError(`--url: not a URL: ${text}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new InstallerError(`--url must be http or https, got ${url.protocol}`);
}

/** Values that look like credentials and were given literally: the user is told they are in the file as is. */
function plainTextNotes(spec: ServerSpec): string[] {
  const notes: string[] = [];
  const check = (kind: string, values: Readonly<Record<string, Template>>) => {
    for (const [key, value] of Object.entries(values))
      if (isLiteral(value) && value.length > 0 && looksSecret(key))
        notes.push(
          `${kind} ${key} is written in plain text, as you passed it (use ${kind === 'env' ? `--env ${key}` : `--header "${key}: \${VARIABLE}"`} to refer to a variable instead)`,
        );
  };
  if (spec.transport === 'stdio') check('env', spec.env);
  else check('header', spec.headers);
  return notes;
}

/** Relative paths that exist here: the client will not start the server from this directory. */
function relativePathNotes(spec: ServerSpec, client: ClientDescriptor, cwd: string): string[] {
  if (spec.transport !== 'stdio') return [];
  const words = [spec.command, ...spec.args.map((arg) => (isLiteral(arg) ? arg.join('') : ''))];
  return words
    .filter(
      (word) =>
        /[\\/]/.test(word) &&
        !isAbsolute(word) &&
        !/^[a-z]+:\/\//i.test(word) &&
        existsSync(resolve(cwd, word)),
    )
    .map(
      (word) =>
        `${word} is a relative path: ${client.name} starts servers from its own working directory, not this one; give ${resolve(cwd, word)} instead`,
    );
}
