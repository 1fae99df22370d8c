/**
 * How a managed server is started: its manifest's command line, run in its folder with its mock environment.
 * `node` is the Node running the center, so a server runs the same whichever `node` is first on PATH.
 */
import { createServer } from 'node:net';
import { splitCommandLine } from '@mcpengine/validator';
import type { ServerEntry } from './fleet.js';

export interface StdioLaunch {
  readonly command: string;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  readonly cwd: string;
}

export function commandLaunch(entry: ServerEntry, line: string): StdioLaunch {
  const [command = '', ...args] = splitCommandLine(line);
  return {
    command: command === 'node' ? process.execPath : command,
    args,
    env: { ...(entry.manifest.env ?? {}) },
    cwd: entry.dir,
  };
}

export function stdioLaunch(entry: ServerEntry): StdioLaunch | undefined {
  return entry.manifest.stdio === undefined ? undefined : commandLaunch(entry, entry.manifest.stdio);
}

/** A port free on the loopback interface now (a server started next binds it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address !== null ? address.port : 0));
    });
  });
}
