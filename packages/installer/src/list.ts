/**
 * `mcpengine list`: every server in every client's files (or one client's), per scope, read the way the client
 * reads it. Values are never printed — only variable and header names — since they may be credentials.
 */
import type { ClientDescriptor } from './clients/descriptor.js';
import { CLIENTS } from './clients/index.js';
import { isObject } from './documents/document.js';
import { openDocument } from './documents/open.js';
import { readConfig } from './edit.js';
import { clientOrThrow, type InstallerIo } from './add.js';
import { InstallerError, SCOPES, type Platform, type Scope } from './model.js';
import { pathContext } from './platform.js';
import { resolveTarget } from './target.js';
import { showTemplate } from './template.js';

export interface ListRequest {
  readonly client?: string;
  readonly platform: Platform;
  readonly json: boolean;
}

export interface ListedServer {
  readonly client: string;
  readonly scope: Scope;
  readonly file: string;
  readonly name: string;
  readonly transport?: 'stdio' | 'http' | 'sse';
  readonly command?: string;
  readonly args?: readonly string[];
  readonly url?: string;
  /** Names only. */
  readonly env?: readonly string[];
  readonly headers?: readonly string[];
  /** Why the client would not read this entry. */
  readonly problem?: string;
}

export interface ListProblem {
  readonly client: string;
  readonly scope: Scope;
  readonly file: string;
  readonly error: string;
}

export interface Listing {
  readonly servers: ListedServer[];
  readonly problems: ListProblem[];
  /** Files looked at that exist. */
  readonly files: string[];
}

export async function listServers(
  clients: readonly ClientDescriptor[],
  platform: Platform,
  env: Readonly<Record<string, string | undefined>>,
  cwd: string,
): Promise<Listing> {
  const listing: Listing = { servers: [], problems: [], files: [] };
  const ctx = pathContext(platform, env, cwd);
  for (const client of clients) {
    for (const scope of SCOPES) {
      if (client.scopes[scope] === undefined) continue;
      let file = '';
      try {
        file = resolveTarget(client, scope, ctx).file;
        const text = await readConfig(file);
        if (text === undefined) continue;
        listing.files.push(file);
        const servers = (await openDocument(file, text, client.format)).get(client.serversKey);
        if (servers === undefined) continue;
        if (!isObject(servers)) throw new InstallerError(`"${client.serversKey.join('.')}" is not an object`);
        for (const [name, entry] of Object.entries(servers)) {
          if (client.isServerEntry !== undefined && !client.isServerEntry(entry)) continue;
          listing.servers.push(describe(client, scope, file, name, entry));
        }
      } catch (error) {
        if (!(error instanceof InstallerError)) throw error;
        listing.problems.push({ client: client.id, scope, file, error: error.message });
      }
    }
  }
  return listing;
}

function describe(
  client: ClientDescriptor,
  scope: Scope,
  file: string,
  name: string,
  entry: unknown,
): ListedServer {
  const base = { client: client.id, scope, file, name };
  try {
    const spec = client.read(entry);
    if (spec.transport === 'stdio')
      return {
        ...base,
        transport: 'stdio',
        command: spec.command,
        args: spec.args.map(showTemplate),
        env: Object.keys(spec.env),
      };
    return {
      ...base,
      transport: spec.transport,
      url: showTemplate(spec.url),
      headers: Object.keys(spec.headers),
    };
  } catch (error) {
    if (!(error instanceof InstallerError)) throw error;
    return { ...base, problem: error.message };
  }
}

export async function runList(request: ListRequest, io: InstallerIo): Promise<number> {
  let clients: readonly ClientDescriptor[];
  try {
    clients = request.client === undefined ? CLIENTS : [clientOrThrow(request.client)];
  } catch (error) {
    if (!(error instanceof InstallerError)) throw error;
    io.stderr(`mcpengine list: ${error.message}\n`);
    return 2;
  }
  const listing = await listServers(clients, request.platform, io.env, io.cwd);
  if (request.json) {
    io.stdout(`${JSON.stringify({ servers: listing.servers, problems: listing.problems }, null, 2)}\n`);
  } else {
    io.stdout(renderTable(listing));
    for (const problem of listing.problems)
      io.stderr(`mcpengine list: ${problem.client} (${problem.scope}): ${problem.error}\n`);
  }
  return listing.problems.length === 0 ? 0 : 2;
}

function renderTable(listing: Listing): string {
  if (listing.servers.length === 0)
    return listing.files.length === 0
      ? 'No client configuration files found.\n'
      : `No servers in ${listing.files.length} configuration file(s).\n`;
  const rows = listing.servers.map((server) => [
    server.client,
    server.scope,
    server.name,
    server.problem === undefined ? (server.transport ?? '') : 'invalid',
    server.problem ??
      (server.transport === 'stdio'
        ? [server.command ?? '', ...(server.args ?? [])].join(' ')
        : (server.url ?? '')),
    server.file,
  ]);
  const header = ['CLIENT', 'SCOPE', 'NAME', 'TRANSPORT', 'COMMAND / URL', 'FILE'];
  const widths = header.map((title, i) =>
    Math.min(60, Math.max(title.length, ...rows.map((row) => row[i]!.length))),
  );
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => (i === cells.length - 1 ? cell : clip(cell, widths[i]!).padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  return `${[line(header), ...rows.map(line)].join('\n')}\n`;
}

function clip(text: string, width: number): string {
  return text.length <= width ? text : `${text.slice(0, width - 1)}…`;
}
