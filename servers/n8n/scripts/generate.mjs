#!/usr/bin/env node
/**
 * Generates the n8n server's generated files at build time (`npm run build` runs it before compiling).
 *
 * n8n's public API description (`dist/public-api/v1/openapi.yml` of the `n8n` npm package) is under n8n's
 * Sustainable Use License, so neither it nor code generated from it is committed to this Apache-2.0 repository.
 * This script fetches the pinned package with `npm pack` (the tarball only: nothing of n8n is installed or run),
 * through the OpenAPI corpus cache (`.cache/openapi/n8n/` at the repository root, ignored by git; fetched once),
 * runs `mcpengine generate` into a temporary folder and copies the generated sources into this server
 * (the paths of servers/n8n/.gitignore). The hand-written curation (src/custom/, test/, fleet.json, server.json,
 * README.md) is never touched.
 *
 * Also writes `openapi/prism.yaml`, the description with every path under `/api/v1` (where n8n serves it), for
 * the Prism mock `npm run fleet:record -- n8n` records the cassettes against.
 *
 * Nothing to do when the generated files are there and came from the pinned description; `--force` regenerates.
 * Exit 1 with one line on stderr when the package cannot be fetched (no registry) or the description is refused.
 */
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const MANIFEST = join(HERE, 'mcpengine.generated.json');
/** What generation writes into this server (the same list as servers/n8n/.gitignore). */
const GENERATED = ['openapi', 'src/api.ts', 'src/index.ts', 'src/server.ts', 'src/runtime', 'src/tools'];
const force = process.argv.includes('--force');

function fail(message) {
  process.stderr.write(`servers/n8n: ${message}\n`);
  process.exit(1);
}

/** The generated files are present and were generated from the description in the cache. */
function upToDate(description) {
  if (!existsSync(MANIFEST) || !GENERATED.every((path) => existsSync(join(HERE, path)))) return false;
  if (!existsSync(join(HERE, 'openapi/prism.yaml'))) return false;
  try {
    const manifest = JSON.parse(readFileSync(MANIFEST, 'utf8'));
    const sha = createHash('sha256').update(readFileSync(description)).digest('hex');
    return (
      manifest.source?.sha256 === sha &&
      Object.keys(manifest.files ?? {}).every((f) => existsSync(join(HERE, f))) &&
      runtimeCurrent()
    );
  } catch {
    return false;
  }
}

/**
 * The copied runtime is the generator's current one: a change of the generator's runtime (a new file, a fix)
 * regenerates, as it would for a committed generated server.
 */
function runtimeCurrent() {
  const generatorRoot = resolve(dirname(fileURLToPath(import.meta.resolve('@mcpengine/generator'))), '..');
  const sources = join(generatorRoot, 'src/runtime');
  return readdirSync(sources)
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'))
    .every((file) => {
      const copy = join(HERE, 'src/runtime', file);
      return (
        existsSync(copy) && readFileSync(copy, 'utf8').endsWith(readFileSync(join(sources, file), 'utf8'))
      );
    });
}

/** n8n serves its public API under /api/v1; Prism serves the paths as written. */
function prismCopy(text) {
  let inPaths = false;
  return text
    .split('\n')
    .map((line) => {
      if (/^[A-Za-z]/.test(line)) inPaths = line.startsWith('paths:');
      return inPaths && /^ {2}\/[^:]*:/.test(line) ? `  /api/v1${line.slice(2)}` : line;
    })
    .join('\n');
}

const { PACKAGES, ensurePackage } = await import('@mcpengine/generator/corpus');
const { generateProject } = await import('@mcpengine/generator');

let folder;
try {
  folder = ensurePackage('n8n', (line) => process.stderr.write(`servers/n8n: ${line}\n`));
} catch (error) {
  const reason = String(error?.stderr ?? error?.message ?? error)
    .split('\n')
    .find((line) => line.trim() !== '');
  fail(
    `cannot fetch ${PACKAGES.n8n.spec} with npm pack (is the npm registry reachable?)` +
      (reason === undefined ? '' : `: ${reason.trim()}`),
  );
}
const description = join(folder, 'package/dist/public-api/v1/openapi.yml');
if (!existsSync(description)) fail(`${description} is missing: delete ${folder} and build again`);
if (!force && upToDate(description)) process.exit(0);

const work = mkdtempSync(join(tmpdir(), 'mcpengine-n8n-'));
try {
  let result;
  try {
    result = await generateProject({ spec: description, out: join(work, 'n8n'), name: 'n8n' });
  } catch (error) {
    fail(`cannot generate from ${description}: ${error instanceof Error ? error.message : String(error)}`);
  }
  for (const path of GENERATED) {
    rmSync(join(HERE, path), { recursive: true, force: true });
    cpSync(join(result.out, path), join(HERE, path), { recursive: true });
  }
  // The manifest lists only what this server keeps of the generated project.
  const manifest = JSON.parse(readFileSync(join(result.out, 'mcpengine.generated.json'), 'utf8'));
  manifest.source.location = `${PACKAGES.n8n.spec}: package/dist/public-api/v1/openapi.yml`;
  manifest.files = Object.fromEntries(
    Object.entries(manifest.files).filter(([file]) =>
      GENERATED.some((path) => file === path || file.startsWith(`${path}/`)),
    ),
  );
  writeFileSync(MANIFEST, `${JSON.stringify(manifest, null, 2)}\n`);
  writeFileSync(join(HERE, 'openapi/prism.yaml'), prismCopy(readFileSync(description, 'utf8')));
  // New sources: the next `tsc -b` compiles everything again (its build info does not notice missing outputs).
  rmSync(join(HERE, 'dist'), { recursive: true, force: true });
  rmSync(join(HERE, 'tsconfig.build.tsbuildinfo'), { force: true });
  process.stderr.write(
    `servers/n8n: generated ${result.api.tools.length} operations from ${PACKAGES.n8n.spec} ` +
      `(${Object.keys(manifest.files).length} files)\n`,
  );
} finally {
  rmSync(work, { recursive: true, force: true });
}
