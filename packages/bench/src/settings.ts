/**
 * Command-line options and the run settings derived from them.
 */
import type { CpuPlan } from './driver/cpus.js';
import type { HttpClientKind } from './driver/http-load.js';

export interface Settings {
  quick: boolean;
  /** Runs per scenario and implementation (the median is reported). */
  runs: number;
  warmupMs: number;
  durationMs: number;
  httpClient: HttpClientKind;
  /** Leak check: total calls, and the early checkpoint the growth is measured from. */
  leakCalls: number;
  leakBaseline: number;
  /** Idle sessions opened for the per-session heap figure. */
  sessions: number;
  coldStartRuns: number;
  /** Scenario ids to run (all when empty). */
  only: string[];
  json: string | undefined;
  /** Pin the driver and the servers to a core each, where the machine allows (`--no-pin` turns it off). */
  pin: boolean;
  /** The cores in use when pinned; set by the suite once it has looked at the machine. */
  cpus?: CpuPlan | undefined;
}

export const USAGE = `Usage: npm run bench -- [options]

  --quick            a short smoke run (one run per scenario, short windows)
  --json <file>      also write the results as JSON (input of the docs renderer)
  --runs <n>         runs per scenario and implementation (default 5; quick 1)
  --duration <ms>    measured window per run (default 3000; quick 400)
  --warmup <ms>      warm-up before each window (default 2000; quick 200)
  --only <ids>       comma-separated scenario ids (see --list)
  --http-client <c>  raw (default: raw sockets) or agent (node:http keep-alive Agent)
  --no-pin           do not pin the load driver and the server to a core each (Linux taskset)
  --list             list the scenarios and exit
  --help             this text
`;

function positive(name: string, value: string | undefined): number {
  const n = Number(value);
  if (value === undefined || !Number.isInteger(n) || n <= 0)
    throw new Error(`${name} needs a positive integer, got ${value ?? 'nothing'}`);
  return n;
}

export type ParsedArgs = { kind: 'run'; settings: Settings } | { kind: 'help' } | { kind: 'list' };

export function parseArgs(argv: readonly string[]): ParsedArgs {
  const quick = argv.includes('--quick');
  const settings: Settings = {
    quick,
    runs: quick ? 1 : 5,
    // Long enough for the optimizing compiler to finish with the biggest server under test on a busy machine.
    warmupMs: quick ? 200 : 2000,
    durationMs: quick ? 400 : 3000,
    httpClient: 'raw',
    leakCalls: quick ? 20_000 : 100_000,
    leakBaseline: 1_000,
    sessions: quick ? 200 : 1_000,
    coldStartRuns: quick ? 3 : 10,
    only: [],
    json: undefined,
    pin: true,
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const value = () => {
      const next = argv[++i];
      if (next === undefined) throw new Error(`${arg} needs a value`);
      return next;
    };
    switch (arg) {
      case '--quick':
        break;
      case '--no-pin':
        settings.pin = false;
        break;
      case '--help':
      case '-h':
        return { kind: 'help' };
      case '--list':
        return { kind: 'list' };
      case '--json':
        settings.json = value();
        break;
      case '--runs':
        settings.runs = positive(arg, value());
        break;
      case '--duration':
        settings.durationMs = positive(arg, value());
        break;
      case '--warmup':
        settings.warmupMs = positive(arg, value());
        break;
      case '--only':
        settings.only = value()
          .split(',')
          .map((s) => s.trim())
          .filter((s) => s !== '');
        break;
      case '--http-client': {
        const client = value();
        if (client !== 'raw' && client !== 'agent')
          throw new Error(`--http-client must be raw or agent, got ${client}`);
        settings.httpClient = client;
        break;
      }
      default:
        throw new Error(`unknown option ${arg}\n\n${USAGE}`);
    }
  }
  return { kind: 'run', settings };
}
