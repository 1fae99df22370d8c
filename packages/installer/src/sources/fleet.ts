/**
 * The fleet: servers of this repository, each a folder `servers/<name>/` with a registry `server.json`. A server
 * is found by name in `$MCPENGINE_FLEET_DIR` (a folder of such folders), else in the `servers/` folder of the
 * repository the installer runs from, so a new fleet server is installable as soon as its `server.json` exists.
 */
import { existsSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const FLEET_DIR_ENV = 'MCPENGINE_FLEET_DIR';

/** The repository's `servers/` folder, found by walking up from this file (source or dist). */
function repositoryServersDir(): string | undefined {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    if (existsSync(join(dir, 'servers')) && existsSync(join(dir, 'packages', 'installer')))
      return join(dir, 'servers');
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  return undefined;
}

export function fleetDirs(env: Readonly<Record<string, string | undefined>>): string[] {
  const configured = env[FLEET_DIR_ENV];
  if (configured !== undefined && configured !== '') return [configured];
  const repository = repositoryServersDir();
  return repository === undefined ? [] : [repository];
}

/** The `server.json` of fleet server `name`, or undefined. */
export function findFleetServer(
  name: string,
  env: Readonly<Record<string, string | undefined>>,
): string | undefined {
  for (const dir of fleetDirs(env)) {
    const file = join(dir, name, 'server.json');
    if (existsSync(file)) return file;
  }
  return undefined;
}

/** Names of every fleet server (for messages). */
export function fleetNames(env: Readonly<Record<string, string | undefined>>): string[] {
  const names: string[] = [];
  for (const dir of fleetDirs(env)) {
    try {
      for (const entry of readdirSync(dir, { withFileTypes: true }))
        if (entry.isDirectory() && existsSync(join(dir, entry.name, 'server.json'))) names.push(entry.name);
    } catch {
      // an unreadable fleet folder lists nothing
    }
  }
  return names.sort();
}
