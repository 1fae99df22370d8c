/** `mcpengine center`: the command center for the project in the current directory (fleet, store, dashboard). */
import { UsageError, defineCommand } from '../command.js';

const options = {
  port: { type: 'string', value: '<N>', description: 'port on 127.0.0.1 (default 4280; 0 picks a free one)' },
  'no-run': { type: 'boolean', description: 'do not run the pipeline at start (run it from the dashboard)' },
  jobs: { type: 'string', value: '<N>', description: 'servers processed at once (default 2)' },
  'timeout-ms': {
    type: 'string',
    value: '<ms>',
    description: 'time limit of one probe or request (default 30000)',
  },
  'monitor-interval': {
    type: 'string',
    value: '<s>',
    description: 'seconds between checks of external servers (default 600)',
  },
  stdio: { type: 'string', value: '<command line>', description: 'add an external stdio server, then start' },
  url: { type: 'string', value: '<url>', description: 'add an external Streamable HTTP server, then start' },
  name: { type: 'string', value: '<name>', description: 'name of the server added with --stdio or --url' },
} as const;

function count(name: string, text: string | undefined, fallback: number, min: number): number {
  if (text === undefined) return fallback;
  if (!/^\d+$/.test(text) || Number(text) < min)
    throw new UsageError(`--${name} must be an integer ≥ ${min}`);
  return Number(text);
}

export const center = defineCommand({
  name: 'center',
  summary: 'start the command center: the factory pipeline over the fleet, with a dashboard',
  synopsis: [
    '[--port <N>] [--no-run] [--jobs <N>]',
    'add --stdio "<command line>" | --url <url> [--name <name>]',
  ],
  description:
    'Serves the dashboard and its API on http://127.0.0.1:<port> (the URL, with its access token, is printed on ' +
    'stdout) and runs the pipeline over servers/*/fleet.json in the background: described, generated, builds, ' +
    'validates, tests, reviewed, packaged, installable. The store is .mcpengine/center.db (SQLite), or PostgreSQL ' +
    'when DATABASE_URL is set. `center add` records an external server (monitored for drift) and exits.',
  options,
  positionals: { max: 1 },
  exitCodes: [
    '0  stopped (Ctrl-C), or the server was added',
    '1  the store or the port could not be opened',
    '2  usage error',
  ],
  examples: [
    'mcpengine center',
    'mcpengine center --port 8080 --no-run',
    'mcpengine center add --stdio "npx -y @modelcontextprotocol/server-memory"',
    'DATABASE_URL=postgres://localhost/center mcpengine center',
  ],
  async run({ values, positionals }, io) {
    const { startCenter, DEFAULT_PORT, Center } = await import('@mcpengine/center');
    const port = count('port', values.port, DEFAULT_PORT, 0);
    if (port > 65_535) throw new UsageError('--port must be at most 65535');
    const databaseUrl = io.env['DATABASE_URL'];
    if (positionals[0] !== undefined && positionals[0] !== 'add')
      throw new UsageError(`unknown subcommand ${positionals[0]} (only "add")`);
    if ((values.stdio === undefined) === (values.url === undefined) && positionals[0] === 'add')
      throw new UsageError('center add needs --stdio "<command line>" or --url <url>');
    if (values.stdio !== undefined || values.url !== undefined) {
      const { openStore } = await import('@mcpengine/store');
      const { join } = await import('node:path');
      const store = await openStore({ databaseUrl, sqlitePath: join(io.cwd, '.mcpengine', 'center.db') });
      try {
        const added = await new Center(store, io.cwd, { parallelism: 1, timeoutMs: 30_000 }).addExternal({
          ...(values.stdio === undefined ? {} : { stdio: values.stdio }),
          ...(values.url === undefined ? {} : { url: values.url }),
          ...(values.name === undefined ? {} : { name: values.name }),
        });
        io.stderr(`mcpengine center: added ${added.name}\n`);
      } catch (error) {
        throw new UsageError((error as Error).message);
      } finally {
        await store.close();
      }
      if (positionals[0] === 'add') return 0;
    }
    let running;
    try {
      running = await startCenter({
        root: io.cwd,
        port,
        databaseUrl,
        run: values['no-run'] !== true,
        parallelism: count('jobs', values.jobs, 2, 1),
        timeoutMs: count('timeout-ms', values['timeout-ms'], 30_000, 100),
        monitorIntervalMs: count('monitor-interval', values['monitor-interval'], 600, 1) * 1000,
        stdout: io.stdout,
        stderr: io.stderr,
      });
    } catch (error) {
      io.stderr(`mcpengine center: ${(error as Error).message}\n`);
      return 1;
    }
    await new Promise<void>((resolve) => {
      if (io.signal.aborted) resolve();
      io.signal.addEventListener('abort', () => resolve(), { once: true });
    });
    await running.stop();
    return 0;
  },
});
