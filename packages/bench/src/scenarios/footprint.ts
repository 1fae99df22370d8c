/**
 * Install footprint: what depending on each library costs. Runtime dependencies (the installed closure of
 * `dependencies` and required peers), installed size, and the minified + gzipped size of a hello-world stdio
 * server bundled with esbuild.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import { IMPLEMENTATIONS, type ImplId } from '../implementations.js';
import { engineRatios, errorRow, makeRow, type Row, type ScenarioResult } from '../results.js';
import { coldStartOnce } from './cold-start.js';

export const REPO_ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const SCRATCH = join(REPO_ROOT, '.bench', 'footprint');

interface PackageJson {
  name?: string;
  version?: string;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
}

const readJson = (path: string): PackageJson => JSON.parse(readFileSync(path, 'utf8')) as PackageJson;

/** Where Node would find package `name` from `fromDir`: the nearest node_modules up the tree. */
export function resolvePackageDir(name: string, fromDir: string): string | undefined {
  for (let dir = fromDir; ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', name);
    if (existsSync(join(candidate, 'package.json'))) return candidate;
    if (dirname(dir) === dir) return undefined;
  }
}

/** Total size of the files of a package directory, not counting its nested node_modules. */
function directorySize(dir: string): number {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules') continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) total += directorySize(path);
    else if (entry.isFile()) total += statSync(path).size;
  }
  return total;
}

export interface Closure {
  /** Installed packages the library brings in, excluding itself. */
  packages: number;
  direct: number;
  /** Bytes of the library and everything it brings in. */
  bytes: number;
}

/** The runtime closure of an installed package: dependencies, installed optional ones, and required peers. */
export function runtimeClosure(name: string, fromDir: string): Closure {
  const rootDir = resolvePackageDir(name, fromDir);
  if (rootDir === undefined) throw new Error(`${name} is not installed`);
  const seen = new Set<string>([rootDir]);
  const queue = [rootDir];
  let direct = 0;
  let bytes = 0;
  while (queue.length > 0) {
    const dir = queue.shift()!;
    bytes += directorySize(dir);
    const pkg = readJson(join(dir, 'package.json'));
    const optionalPeers = new Set(
      Object.entries(pkg.peerDependenciesMeta ?? {})
        .filter(([, m]) => m.optional)
        .map(([n]) => n),
    );
    const required = [
      ...Object.keys(pkg.dependencies ?? {}),
      ...Object.keys(pkg.peerDependencies ?? {}).filter((n) => !optionalPeers.has(n)),
    ];
    const optional = Object.keys(pkg.optionalDependencies ?? {});
    const names = new Set([...required, ...optional]);
    if (dir === rootDir) direct = names.size;
    for (const dep of names) {
      const depDir = resolvePackageDir(dep, dir);
      if (depDir === undefined) {
        if (optional.includes(dep)) continue;
        throw new Error(`${dep} (needed by ${pkg.name}) is not installed`);
      }
      if (!seen.has(depDir)) {
        seen.add(depDir);
        queue.push(depDir);
      }
    }
  }
  return { packages: seen.size - 1, direct, bytes };
}

/** `npm pack --dry-run` of the engine: what a user downloads and installs. */
async function packEngine(): Promise<{ unpackedSize: number; size: number; entryCount: number }> {
  const { stdout } = await promisify(execFile)(
    'npm',
    ['pack', '--dry-run', '--json', '--ignore-scripts', '--loglevel=silent'],
    {
      cwd: join(REPO_ROOT, 'packages', 'mcpengine'),
      maxBuffer: 64 * 1024 * 1024,
    },
  );
  const [pack] = JSON.parse(stdout) as { unpackedSize: number; size: number; entryCount: number }[];
  if (!pack) throw new Error('npm pack printed nothing');
  return pack;
}

const HELLO: Record<Exclude<ImplId, 'raw'>, string> = {
  mcpengine: `
import { McpServer } from 'mcpengine/server';
import { serveStdio } from 'mcpengine/stdio';
const server = new McpServer({ name: 'hello', version: '1.0.0' });
server.addTool({
  name: 'hello',
  description: 'Says hello',
  inputSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
  handler: (args: { name: string }) => 'Hello, ' + args.name + '!',
});
await serveStdio(server);
`,
  sdk1: `
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';
const server = new McpServer({ name: 'hello', version: '1.0.0' });
server.registerTool('hello', { description: 'Says hello', inputSchema: { name: z.string() } }, async ({ name }) => ({
  content: [{ type: 'text', text: 'Hello, ' + name + '!' }],
}));
await server.connect(new StdioServerTransport());
`,
  sdk2: `
import { McpServer } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { z } from 'zod';
serveStdio(() => {
  const server = new McpServer({ name: 'hello', version: '1.0.0' });
  server.registerTool('hello', { description: 'Says hello', inputSchema: z.object({ name: z.string() }) }, async ({ name }) => ({
    content: [{ type: 'text', text: 'Hello, ' + name + '!' }],
  }));
  return server;
});
`,
};

const PACKAGE_OF: Record<Exclude<ImplId, 'raw'>, string> = {
  mcpengine: 'mcpengine',
  sdk1: '@modelcontextprotocol/sdk',
  sdk2: '@modelcontextprotocol/server',
};

/** Bundles a hello-world stdio server, checks that the bundle works, and measures it. */
async function bundle(
  impl: Exclude<ImplId, 'raw'>,
): Promise<{ minified: number; gzipped: number; path: string }> {
  const esbuild = await import('esbuild');
  const result = await esbuild.build({
    stdin: { contents: HELLO[impl], resolveDir: REPO_ROOT, sourcefile: `${impl}-hello.ts`, loader: 'ts' },
    bundle: true,
    minify: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    write: false,
    logLevel: 'silent',
    // Bundled CommonJS dependencies call require(); give the ESM bundle one.
    banner: {
      js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);",
    },
  });
  const output = result.outputFiles[0];
  if (!output) throw new Error('esbuild produced nothing');
  mkdirSync(SCRATCH, { recursive: true });
  const path = join(SCRATCH, `${impl}-hello.mjs`);
  writeFileSync(path, output.contents);
  return {
    minified: output.contents.byteLength,
    gzipped: gzipSync(output.contents, { level: 9 }).byteLength,
    path,
  };
}

export async function runFootprint(log: (line: string) => void): Promise<ScenarioResult[]> {
  const impls = ['mcpengine', 'sdk1', 'sdk2'] as const;
  const depRows: Row[] = [];
  const bundleRows: Row[] = [];
  for (const impl of impls) {
    const label = IMPLEMENTATIONS[impl].label;
    try {
      const closure = runtimeClosure(PACKAGE_OF[impl], REPO_ROOT);
      const details: Record<string, number> = { directDeps: closure.direct, installedBytes: closure.bytes };
      if (impl === 'mcpengine') {
        const pack = await packEngine();
        // The workspace folder holds sources and build caches too; the published package is what npm packs.
        details.installedBytes = pack.unpackedSize;
        details.tarballBytes = pack.size;
      }
      depRows.push(makeRow(impl, label, [closure.packages], [details]));
      log(
        `  ${label.padEnd(12)} ${closure.packages} runtime packages, ${(details.installedBytes! / 1048576).toFixed(2)} MB installed`,
      );
    } catch (error) {
      depRows.push(errorRow(impl, label, (error as Error).message));
    }
    try {
      const built = await bundle(impl);
      // A bundle that does not serve is not a fair size: start it and list its tools.
      const ms = await coldStartOnce([built.path]);
      bundleRows.push(
        makeRow(impl, label, [built.gzipped], [{ minifiedBytes: built.minified, bundleStartMs: ms }]),
      );
      log(
        `  ${label.padEnd(12)} hello-world bundle ${(built.minified / 1024).toFixed(1)} KB minified, ${(built.gzipped / 1024).toFixed(1)} KB gzipped (serves tools/list in ${ms.toFixed(0)} ms)`,
      );
    } catch (error) {
      bundleRows.push(errorRow(impl, label, (error as Error).message.split('\n')[0]!));
      log(`  ${label}: bundle FAILED — ${(error as Error).message}`);
    }
  }
  return [
    {
      id: 'footprint-deps',
      title: 'Install footprint: runtime dependencies and installed size',
      unit: 'packages',
      better: 'lower',
      rows: depRows,
      ratios: {},
      notes: [
        'Runtime packages: the installed closure of dependencies, installed optional dependencies and required peers (excluding the library itself). Installed size: the library and that closure; MCPEngine as published (npm pack --dry-run, unpacked).',
      ],
    },
    {
      id: 'footprint-bundle',
      title: 'Hello-world stdio server bundle (esbuild, minified, gzip -9)',
      unit: 'bytes',
      better: 'lower',
      rows: bundleRows,
      ratios: engineRatios(bundleRows, 'lower'),
      notes: [
        'One tool with one string argument, served on stdio; each bundle is started and must answer tools/list.',
      ],
    },
  ];
}
