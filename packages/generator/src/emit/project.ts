/**
 * `mcpengine generate`: writes an editable TypeScript project on the engine from a description. Generated files
 * are recorded with their hashes in `mcpengine.generated.json`; regenerating rewrites them, keeps a hand-edited
 * one beside it as `<file>.edited`, removes generated files that are no longer produced (unless edited), and
 * never touches `src/custom/`.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, extname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DescriptionError } from '../errors.js';
import { loadDescription, type LoadOptions } from '../load/load.js';
import { buildApiModel } from '../map/build.js';
import { measureTokensPerByte } from '../tokens.js';
import { kebab } from '../map/names.js';
import { requiredVariables } from '../runtime/auth.js';
import type { ApiModel, OperationTool } from '../runtime/model.js';
import {
  apiFile,
  CUSTOMIZE_FILE,
  envVarsOf,
  INDEX_FILE,
  packageJson,
  readme,
  serverFile,
  serverJson,
  toolFile,
  toolsIndex,
  TSCONFIG,
  type ProjectNames,
} from './files.js';
import { parseDescription } from './mock.js';
import { mcpengineTestEmitter, vitestSmokeEmitter, type TestEmitter } from './tests.js';

export const MANIFEST = 'mcpengine.generated.json';
export const GENERATOR_VERSION = '0.1.0';

export interface GenerateOptions extends LoadOptions {
  readonly spec: string;
  readonly out: string;
  readonly name?: string;
  readonly testEmitters?: readonly TestEmitter[];
}

export interface GenerateResult {
  readonly out: string;
  readonly name: string;
  readonly api: ApiModel;
  readonly written: readonly string[];
  readonly kept: readonly string[];
  readonly removed: readonly string[];
  readonly warnings: readonly string[];
}

interface Manifest {
  readonly generator: string;
  readonly name: string;
  readonly source: {
    readonly location: string;
    readonly sha256: string;
    readonly openapi: string;
    readonly bytes: number;
  };
  readonly tools: number;
  readonly files: Readonly<Record<string, string>>;
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** The runtime's TypeScript sources, copied into every project (they import only mcpengine and node:*). */
function runtimeSources(): { file: string; text: string }[] {
  const here = dirname(fileURLToPath(import.meta.url));
  // From src/emit (tests) or dist/emit (built): the sources ship in src/runtime.
  const dir = resolve(here, '..', '..', 'src', 'runtime');
  return readdirSync(dir)
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts') && !file.endsWith('.d.ts'))
    .sort()
    .map((file) => ({ file, text: readFileSync(join(dir, file), 'utf8') }));
}

function groupFiles(tools: readonly OperationTool[]): Map<string, { group: string; tools: OperationTool[] }> {
  const byFile = new Map<string, { group: string; tools: OperationTool[] }>();
  const fileOf = new Map<string, string>();
  for (const tool of tools) {
    let file = fileOf.get(tool.group);
    if (file === undefined) {
      const stem = kebab(tool.group);
      file = stem;
      for (let i = 2; byFile.has(file) && byFile.get(file)!.group !== tool.group; i++) file = `${stem}-${i}`;
      fileOf.set(tool.group, file);
      if (!byFile.has(file)) byFile.set(file, { group: tool.group, tools: [] });
    }
    byFile.get(file)!.tools.push(tool);
  }
  return byFile;
}

function identifier(file: string, i: number): string {
  const ident = file.replace(/[^A-Za-z0-9]+(.)?/g, (_m, c: string | undefined) => (c ?? '').toUpperCase());
  return /^[A-Za-z_]/.test(ident) ? `${ident}Tools` : `group${i}Tools`;
}

/** Dummy values for the credentials, so that the smoke test's server starts against the mock. */
function mockEnv(api: ApiModel): Record<string, string> {
  const env: Record<string, string> = {};
  for (const scheme of api.schemes)
    for (const variable of requiredVariables(scheme)) env[variable] = 'mock-credential';
  return env;
}

export async function generateProject(options: GenerateOptions): Promise<GenerateResult> {
  const cwd = options.cwd ?? process.cwd();
  const out = resolve(cwd, options.out);
  const loaded = await loadDescription(options.spec, options);
  const mapped = buildApiModel(loaded, options.name === undefined ? {} : { name: options.name });
  const warnings = mapped.warnings;
  // The runtime chooses progressive disclosure by the list's token cost: measured here, once, with the tokenizer.
  const tokensPerByte = await measureTokensPerByte(mapped.api.tools);
  const api = tokensPerByte === undefined ? mapped.api : { ...mapped.api, tokensPerByte };
  const name = kebab(options.name ?? api.title);
  const names: ProjectNames = { name, registryName: `io.github.OWNER/${name}` };
  const manifestPath = join(out, MANIFEST);
  let previous: Manifest | undefined;
  if (existsSync(manifestPath)) {
    try {
      previous = JSON.parse(readFileSync(manifestPath, 'utf8')) as Manifest;
    } catch {
      throw new DescriptionError(
        `${relative(cwd, manifestPath)} is not a generator manifest; refusing to write into ${out}`,
      );
    }
  } else if (existsSync(out) && readdirSync(out).length > 0) {
    throw new DescriptionError(
      `${out} exists, is not empty and was not generated (no ${MANIFEST}); choose another --out`,
    );
  }

  const ext = extname(basename(loaded.source.split('?')[0]!)).toLowerCase();
  const descriptionFile = `openapi/description${ext === '.yaml' || ext === '.yml' ? '.yaml' : '.json'}`;
  const files = new Map<string, string>();
  files.set(descriptionFile, loaded.text);
  const groups = groupFiles(api.tools);
  const modules = [...groups.keys()].map((file, i) => ({ file, ident: identifier(file, i) }));
  for (const [file, { group, tools }] of groups) files.set(`src/tools/${file}.ts`, toolFile(group, tools));
  files.set('src/tools/index.ts', toolsIndex(modules));
  files.set('src/api.ts', apiFile(api));
  files.set('src/server.ts', serverFile(name, '0.1.0'));
  files.set('src/index.ts', INDEX_FILE);
  for (const { file, text } of runtimeSources())
    files.set(
      `src/runtime/${file}`,
      `// Generated by \`mcpengine generate\` (the @mcpengine/generator runtime): rewritten on every generation.\n${text}`,
    );
  const devDependencies: Record<string, string> = {};
  const description = await parseDescription(loaded.text);
  for (const emitter of options.testEmitters ?? [vitestSmokeEmitter, mcpengineTestEmitter]) {
    const emitted = emitter.emit({
      api,
      descriptionFile,
      mockEnv: mockEnv(api),
      ...(description === undefined ? {} : { description }),
    });
    for (const file of emitted.files) files.set(file.path, file.text);
    Object.assign(devDependencies, emitted.devDependencies);
  }
  const vars = envVarsOf(api);
  files.set('package.json', packageJson(names, api, devDependencies));
  files.set('tsconfig.json', TSCONFIG);
  files.set(
    'README.md',
    readme(
      names,
      api,
      vars,
      new Map([...groups.values()].map((g) => [g.group, g.tools.length])),
      options.spec,
    ),
  );
  files.set('server.json', serverJson(names, api, vars));

  const written: string[] = [];
  const kept: string[] = [];
  const removed: string[] = [];
  const hashes: Record<string, string> = {};
  const edited = (path: string): boolean => {
    const recorded = previous?.files[path];
    return (
      recorded !== undefined &&
      existsSync(join(out, path)) &&
      sha256(readFileSync(join(out, path), 'utf8')) !== recorded
    );
  };
  for (const [path, text] of files) {
    const target = join(out, path);
    mkdirSync(dirname(target), { recursive: true });
    if (edited(path)) {
      renameSync(target, `${target}.edited`);
      kept.push(`${path}.edited`);
    }
    writeFileSync(target, text);
    hashes[path] = sha256(text);
    written.push(path);
  }
  for (const path of Object.keys(previous?.files ?? {})) {
    if (files.has(path) || !existsSync(join(out, path))) continue;
    if (edited(path)) {
      renameSync(join(out, path), join(out, `${path}.edited`));
      kept.push(`${path}.edited`);
    } else rmSync(join(out, path));
    removed.push(path);
  }
  const customize = join(out, 'src/custom/customize.ts');
  if (!existsSync(customize)) {
    mkdirSync(dirname(customize), { recursive: true });
    writeFileSync(customize, CUSTOMIZE_FILE);
    written.push('src/custom/customize.ts');
  }
  const manifest: Manifest = {
    generator: `@mcpengine/generator ${GENERATOR_VERSION}`,
    name,
    source: {
      location: options.spec,
      sha256: loaded.sha256,
      openapi: loaded.sourceVersion,
      bytes: loaded.bytes,
    },
    tools: api.tools.length,
    files: hashes,
  };
  writeFileSync(manifestPath, `${JSON.stringify(manifest, null, 2)}\n`);
  return { out, name, api, written, kept, removed, warnings };
}
