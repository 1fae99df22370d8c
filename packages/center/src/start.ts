/**
 * Starting the command center: open the store (SQLite file in the project, or PostgreSQL from DATABASE_URL),
 * mark runs a dead process left `running` as interrupted, serve the dashboard and the API on the loopback
 * interface, start the monitor, and (unless told not to) run the pipeline in the background — serving never waits
 * for it. The URL with its token is printed on stdout; progress goes to stderr.
 */
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describeStore, openStore, type Store } from '@mcpengine/store';
import { Center } from './center.js';
import { startSandbox } from '@mcpengine/inspector';
import { AppsPreviews } from './apps.js';
import { allowedHosts, createCenterServer } from './http.js';
import { startMonitor } from './monitor.js';
import { markInterrupted, type RunEvent } from './runner.js';

export const DEFAULT_PORT = 4280;

export interface StartOptions {
  /** The project: its `servers/*\/fleet.json` are the fleet, its `.mcpengine/center.db` the default store. */
  readonly root: string;
  readonly port: number;
  readonly databaseUrl?: string | undefined;
  /** Run the whole pipeline in the background once serving. */
  readonly run: boolean;
  readonly parallelism?: number;
  readonly timeoutMs?: number;
  readonly monitorIntervalMs?: number;
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  /** Fixed token (tests); random otherwise. */
  readonly token?: string;
  /** How long a page may be gone before its App previews are closed (default PAGE_GONE_GRACE_MS; tests: less). */
  readonly previewGraceMs?: number;
}

export interface RunningCenter {
  readonly url: string;
  readonly port: number;
  readonly token: string;
  readonly center: Center;
  readonly store: Store;
  readonly previews: AppsPreviews;
  /** Cancels runs, stops the monitor and the server, closes the store. */
  stop(): Promise<void>;
}

/** The built dashboard: `dist/ui` of this package (from `src/` or `dist/` alike). */
export const ASSETS_DIR = fileURLToPath(new URL('../dist/ui/', import.meta.url));

function progressLine(event: RunEvent): string | undefined {
  switch (event.type) {
    case 'run-start':
      return `run ${event.run.id}: ${event.run.servers.length} server(s), ${event.run.stages.length} stages\n`;
    case 'stage-end': {
      const r = event.result;
      return `  ${r.server.padEnd(24)} ${r.stage.padEnd(12)} ${r.verdict.padEnd(4)} ${(r.durationMs / 1000).toFixed(1).padStart(6)} s  ${r.summary.slice(0, 100)}\n`;
    }
    case 'run-end':
      return `run ${event.run.id}: ${event.run.status}\n`;
    default:
      return undefined;
  }
}

export async function startCenter(options: StartOptions): Promise<RunningCenter> {
  const storeOptions = {
    databaseUrl: options.databaseUrl,
    sqlitePath: join(options.root, '.mcpengine', 'center.db'),
  };
  const store = await openStore(storeOptions);
  const center = new Center(store, options.root, {
    parallelism: options.parallelism ?? 2,
    timeoutMs: options.timeoutMs ?? 30_000,
  });
  const interrupted = await markInterrupted(store, []);
  const token = options.token ?? randomBytes(24).toString('base64url');
  // The MCP Apps sandbox: the inspector's proxy listener on another loopback port, framable by this page only.
  let port = options.port;
  // The page is served on 127.0.0.1 (reachable as localhost too); `[::1]` is left out: the center does not listen
  // there, and Chromium refuses an IPv6 literal in `frame-ancestors`.
  const sandbox = await startSandbox('127.0.0.1', () =>
    [...allowedHosts(port)].filter((host) => !host.startsWith('[')).map((host) => `http://${host}`),
  );
  const previews = new AppsPreviews(sandbox, options.timeoutMs ?? 30_000, options.previewGraceMs);
  const server = createCenterServer(center, { token, assetsDir: ASSETS_DIR, previews });
  server.listen(options.port, '127.0.0.1');
  try {
    await Promise.race([
      once(server, 'listening'),
      once(server, 'error').then(([error]) => Promise.reject(error as Error)),
    ]);
  } catch (error) {
    await sandbox.close();
    await store.close();
    throw error;
  }
  const address = server.address();
  port = typeof address === 'object' && address !== null ? address.port : options.port;
  const url = `http://127.0.0.1:${port}/?token=${token}`;
  options.stdout(`${url}\n`);
  const servers = await center.servers();
  options.stderr(`mcpengine center: store ${describeStore(storeOptions)}; ${servers.length} server(s)\n`);
  if (interrupted.length > 0)
    options.stderr(
      `mcpengine center: interrupted run(s) ${interrupted.join(', ')} can be resumed from the dashboard\n`,
    );

  const onEvent = (event: RunEvent): void => {
    const line = progressLine(event);
    if (line !== undefined) options.stderr(line);
  };
  center.runner.on('event', onEvent);
  const stopMonitor = startMonitor(store, () => center.servers(), {
    intervalMs: options.monitorIntervalMs ?? 10 * 60_000,
    timeoutMs: options.timeoutMs ?? 30_000,
  });
  if (options.run && servers.length === 0)
    options.stderr(
      'mcpengine center: no servers/*/fleet.json and no external server here: nothing to run yet\n',
    );
  else if (options.run)
    center
      .startRun()
      .catch((error: unknown) => options.stderr(`mcpengine center: ${(error as Error).message}\n`));

  let stopped: Promise<void> | undefined;
  return {
    url,
    port,
    token,
    center,
    store,
    previews,
    stop() {
      stopped ??= (async () => {
        stopMonitor();
        await center.runner.cancelAll();
        center.runner.off('event', onEvent);
        await new Promise<void>((resolve) => server.close(() => resolve()));
        await previews.stop();
        await store.close();
      })();
      return stopped;
    },
  };
}
