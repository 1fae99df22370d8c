#!/usr/bin/env node
/**
 * Regenerates the fleet's generated servers in place with the current generator (`npm run fleet:regenerate
 * [-- <name>…]`, after building packages/generator), from each server's own copy of its description
 * (`openapi/description.*`, the sha256 its manifest records), so they carry the current runtime and templates.
 *
 * The regeneration contract holds: src/custom/ is never touched. The generated tests (test/smoke.test.ts,
 * test/generated.mcp.yaml) run the server with --uncurated, so they pass on curated servers as generated. What
 * differs from a bare `mcpengine generate`:
 * - package.json, README.md and server.json are curated (registry name, scripts, prose): generation keeps an
 *   edited one as `<file>.edited`; here the curated one is put back in place (their recorded hashes are the
 *   generated ones, so the next regeneration sees them as edited again). Any other `.edited` file is reported.
 * - the manifest keeps its source location (where the description was first taken from).
 *
 * Servers generated at build time (a `generate` script in their package.json: n8n) are left to their build.
 * Exit 1 when a description's hash differs from its manifest's or an unexpected file was hand-edited.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateProject, MANIFEST } from '@mcpengine/generator';

const ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));
const CURATED = ['package.json', 'README.md', 'server.json'];

const generated = readdirSync(join(ROOT, 'servers')).filter((name) => {
  const dir = join(ROOT, 'servers', name);
  if (!existsSync(join(dir, 'fleet.json')) || !existsSync(join(dir, MANIFEST))) return false;
  const scripts = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).scripts ?? {};
  return scripts.generate === undefined;
});
const asked = process.argv.slice(2);
for (const name of asked)
  if (!generated.includes(name)) {
    process.stderr.write(
      `fleet:regenerate: ${name} is not a committed generated server (${generated.join(', ')})\n`,
    );
    process.exit(1);
  }

let failed = false;
for (const name of asked.length > 0 ? asked : generated) {
  const dir = join(ROOT, 'servers', name);
  const manifest = JSON.parse(readFileSync(join(dir, MANIFEST), 'utf8'));
  const description = Object.keys(manifest.files).find((file) => file.startsWith('openapi/description.'));
  const sha = createHash('sha256')
    .update(readFileSync(join(dir, description)))
    .digest('hex');
  if (sha !== manifest.source.sha256) {
    process.stderr.write(
      `fleet:regenerate: ${name}: ${description} is not the description its manifest records\n`,
    );
    failed = true;
    continue;
  }
  const result = await generateProject({
    spec: description,
    out: dir,
    cwd: dir,
    name: manifest.name,
  });
  const unexpected = [];
  for (const kept of result.kept) {
    const file = kept.replace(/\.edited$/, '');
    if (CURATED.includes(file)) renameSync(join(dir, kept), join(dir, file));
    else unexpected.push(kept);
  }
  const written = JSON.parse(readFileSync(join(dir, MANIFEST), 'utf8'));
  written.source.location = manifest.source.location;
  writeFileSync(join(dir, MANIFEST), `${JSON.stringify(written, null, 2)}\n`);
  process.stdout.write(
    `servers/${name}: ${result.api.tools.length} operations, ${result.written.length} files written` +
      (result.removed.length > 0 ? `, removed ${result.removed.join(', ')}` : '') +
      '\n',
  );
  if (unexpected.length > 0) {
    process.stderr.write(
      `servers/${name}: hand-edited generated files kept as ${unexpected.join(', ')}: move the change into src/custom/\n`,
    );
    failed = true;
  }
}
process.exit(failed ? 1 : 0);
