/**
 * `mcpengine inspect [--stdio "<cmd>" | --url <endpoint>] [--config <file> [--server <name>]] [--port N] [--open]`:
 * starts the local backend, prints the UI's address with its token, opens a browser only when asked, and runs
 * until interrupted.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { REVISIONS, type Revision } from '@mcpengine/oracle';
import {
  configTargetsOf,
  flagValue,
  hasFlag,
  targetOf,
  UsageError,
  type RawArguments,
} from '../cli/arguments.js';
import type { CliIo } from '../cli/run-cli.js';
import { startBackend } from './backend.js';

/** The built UI: `dist/ui`, next to the compiled backend (or beside `src/` when run from sources in tests). */
export const UI_ASSETS_DIR =
  [new URL('../ui/', import.meta.url), new URL('../../dist/ui/', import.meta.url)]
    .map((url) => fileURLToPath(url))
    .find((dir) => existsSync(`${dir}/index.html`)) ?? fileURLToPath(new URL('../ui/', import.meta.url));

export async function runInspectWeb(args: RawArguments, io: CliIo): Promise<number> {
  let options;
  try {
    const port = flagValue(args, '--port');
    if (port !== undefined && (!/^\d+$/.test(port) || Number(port) > 65_535))
      throw new UsageError(`--port needs a port number, got ${JSON.stringify(port)}`);
    const revision = flagValue(args, '--revision') ?? 'auto';
    if (revision !== 'auto' && !(REVISIONS as readonly string[]).includes(revision))
      throw new UsageError(`--revision must be auto or one of ${REVISIONS.join(', ')}, got ${revision}`);
    const target = targetOf(args, io.cwd);
    const targets = configTargetsOf(args, io.cwd);
    const server = flagValue(args, '--server');
    const configFile = flagValue(args, '--config');
    options = {
      ...(configFile === undefined ? {} : { configFile: { path: configFile, cwd: io.cwd } }),
      ...(target === undefined ? {} : { target }),
      ...(targets.length === 0 ? {} : { targets }),
      ...(server === undefined ? {} : { initial: server }),
      revision: revision as Revision | 'auto',
      host: flagValue(args, '--host') ?? '127.0.0.1',
      ...(port === undefined ? {} : { port: Number(port) }),
      assetsDir: UI_ASSETS_DIR,
    };
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.stderr(`mcpengine inspect: ${error.message}\n(see mcpengine inspect --help)\n`);
    return 1;
  }
  if (!existsSync(`${UI_ASSETS_DIR}/index.html`)) {
    io.stderr('mcpengine inspect: the web UI is not built (run npm run build)\n');
    return 1;
  }
  let backend;
  try {
    backend = await startBackend(options);
  } catch (error) {
    io.stderr(`mcpengine inspect: ${(error as Error).message}\n`);
    return 1;
  }
  io.stdout(`MCPEngine Inspector: ${backend.url}\n`);
  io.stdout('The address carries a token for this launch only; keep it to yourself. Ctrl-C to stop.\n');
  if (hasFlag(args, '--open')) openBrowser(backend.url);
  await new Promise<void>((stop) => {
    if (io.signal.aborted) stop();
    io.signal.addEventListener('abort', () => stop(), { once: true });
  });
  await backend.close();
  return 0;
}

function openBrowser(url: string): void {
  const [command, ...args] =
    process.platform === 'darwin'
      ? ['open', url]
      : process.platform === 'win32'
        ? ['cmd', '/c', 'start', '', url]
        : ['xdg-open', url];
  const child = spawn(command!, args, { stdio: 'ignore', detached: true });
  child.on('error', () => {});
  child.unref();
}
