/**
 * The servers the center manages. Fleet servers are found by globbing `servers/<name>/fleet.json` (the shared
 * manifest convention); external servers are added by command line or URL and kept in the store.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** `servers/<name>/fleet.json`, as the fleet writes it. */
export interface FleetManifest {
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly origin?: 'generated' | 'curated' | 'handwritten';
  readonly openapi?: string;
  /** Command line, run with cwd = the server folder. */
  readonly stdio?: string;
  /** Command line serving Streamable HTTP; `{port}` is replaced by a free port. */
  readonly http?: string;
  readonly env?: Readonly<Record<string, string>>;
  readonly tests?: string;
  readonly serverJson?: string;
  readonly apps?: boolean;
}

/** One server as the pipeline sees it. */
export interface ServerEntry {
  readonly name: string;
  readonly kind: 'fleet' | 'external';
  /** Fleet: the server folder (commands run there). External: the directory the command was added from. */
  readonly dir: string;
  readonly manifest: FleetManifest & { readonly url?: string };
  /** A manifest that could not be read: the `described` stage fails with this. */
  readonly manifestError?: string;
}

/** Every `servers/*\/fleet.json` under `root`, sorted by name; unreadable manifests are kept with their error. */
export function discoverFleet(root: string): ServerEntry[] {
  const serversDir = join(root, 'servers');
  if (!existsSync(serversDir)) return [];
  const entries: ServerEntry[] = [];
  for (const name of readdirSync(serversDir).sort()) {
    const file = join(serversDir, name, 'fleet.json');
    if (!existsSync(file)) continue;
    const dir = join(serversDir, name);
    try {
      const manifest = JSON.parse(readFileSync(file, 'utf8')) as FleetManifest;
      if (typeof manifest !== 'object' || manifest === null || Array.isArray(manifest))
        throw new Error('not a JSON object');
      entries.push({ name, kind: 'fleet', dir, manifest });
    } catch (error) {
      entries.push({
        name,
        kind: 'fleet',
        dir,
        manifest: { name },
        manifestError: `servers/${name}/fleet.json: ${(error as Error).message}`,
      });
    }
  }
  return entries;
}

/** An external server's name from its command line or URL: readable, and unique enough to key the store. */
export function externalName(source: { stdio?: string; url?: string }): string {
  const text = source.url ?? source.stdio ?? 'server';
  const slug = text
    .replace(/^[a-z]+:\/\//i, '')
    .replace(/[^a-zA-Z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .toLowerCase()
    .slice(0, 48);
  return `external-${slug === '' ? 'server' : slug}`;
}
