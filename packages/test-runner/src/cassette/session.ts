/**
 * The runner's side of a cassette for one suite: decides the mode (auto = replay when the file exists, record
 * otherwise), gives the server process the environment that loads the hook, reads the hook's journal after each
 * test (misses fail that test), and in record mode writes the cassette when the suite ends.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { CassetteConfig } from '../model.js';
import {
  CASSETTE_VERSION,
  describeRequest,
  ENV,
  type CassetteFile,
  type Interaction,
  type JournalEntry,
} from './format.js';

/** The built hook (spawned servers cannot load TypeScript, so sources point at dist). */
export function hookPath(): string {
  const here = fileURLToPath(import.meta.url);
  if (here.endsWith('.js')) return join(dirname(here), 'hook.js');
  return join(dirname(here), '..', '..', 'dist', 'cassette', 'hook.js');
}

export class CassetteSession {
  readonly config: CassetteConfig;
  readonly mode: 'record' | 'replay';
  readonly #dir: string;
  readonly #journal: string;
  #read = 0;
  readonly #recorded: Interaction[] = [];

  constructor(config: CassetteConfig) {
    this.config = config;
    this.mode = config.mode === 'auto' ? (existsSync(config.path) ? 'replay' : 'record') : config.mode;
    this.#dir = mkdtempSync(join(tmpdir(), 'mcpengine-cassette-'));
    this.#journal = join(this.#dir, 'journal.jsonl');
    writeFileSync(this.#journal, '');
  }

  /** Variables for the server process (merged over the target's own). */
  environment(base: Readonly<Record<string, string | undefined>>): Record<string, string> {
    const hook = pathToFileURL(hookPath()).href;
    // Replay needs no credentials: a secret that is not set gets a stand-in, which is redacted to the same
    // {{NAME}} the recording holds.
    const standIns =
      this.mode === 'replay'
        ? Object.fromEntries(
            this.config.secrets
              .filter((name) => !base[name])
              .map((name) => [name, `mcpengine-replay-${name}`]),
          )
        : {};
    return {
      ...standIns,
      NODE_OPTIONS: `${base['NODE_OPTIONS'] ?? ''} --import "${hook}"`.trim(),
      [ENV.mode]: this.mode,
      [ENV.file]: this.config.path,
      [ENV.journal]: this.#journal,
      [ENV.secrets]: this.config.secrets.join(','),
    };
  }

  /** What the hook wrote since the last call; recorded interactions are kept for `finish`. */
  take(): { misses: string[] } {
    let text: string;
    try {
      text = readFileSync(this.#journal, 'utf8');
    } catch {
      return { misses: [] };
    }
    const lines = text.split('\n').slice(this.#read);
    const complete = text.endsWith('\n') ? lines.slice(0, -1) : lines.slice(0, -1);
    this.#read += complete.length;
    const misses: string[] = [];
    for (const line of complete) {
      if (line.trim() === '') continue;
      const entry = JSON.parse(line) as JournalEntry;
      if ('miss' in entry)
        misses.push(`the cassette has no response for ${describeRequest(entry.miss)} (${this.config.path})`);
      else this.#recorded.push(entry.recorded);
    }
    return { misses };
  }

  /** Record mode: writes the cassette. Always removes the journal. */
  finish(): void {
    this.take();
    if (this.mode === 'record') {
      const cassette: CassetteFile = { version: CASSETTE_VERSION, interactions: this.#recorded };
      mkdirSync(dirname(this.config.path), { recursive: true });
      writeFileSync(this.config.path, `${JSON.stringify(cassette, null, 2)}\n`);
    }
    rmSync(this.#dir, { recursive: true, force: true });
  }
}
