/**
 * `generate` end to end: the project is written, compiles on its own (its own tsconfig, the engine as its only
 * dependency), its server starts on stdio and calls a real local API, its server.json is valid against the MCP
 * Registry schema, its generated tests (smoke test against Prism, generated.mcp.yaml) pass once src/custom/ has
 * curated it, with no variable set, because they run `--uncurated`, which really leaves the customisation out,
 * and regenerating keeps hand edits apart.
 */
import { execFileSync } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Client, type ClientSession } from 'mcpengine/client';
import { StdioClientTransport } from 'mcpengine/stdio';
import { validateServerJson } from '@mcpengine/center';
import { tapTransport, WireTap } from '@mcpengine/oracle';
import { runFiles } from '@mcpengine/test-runner';
import { describe, expect, it } from 'vitest';
import { NOTES_DESCRIPTION } from './fixture.js';
import { generateProject, MANIFEST } from './project.js';

const require = createRequire(import.meta.url);
const root = mkdtempSync(join(tmpdir(), 'generator-project-'));
const spec = join(root, 'notes.json');
writeFileSync(spec, JSON.stringify(NOTES_DESCRIPTION, null, 2));
const out = join(root, 'notes-server');

/** node_modules of a standalone install, linked to this workspace's copies of the same packages. */
function link(project: string): void {
  const targets: Record<string, string> = {
    mcpengine: dirname(require.resolve('mcpengine/package.json')),
    '@types/node': dirname(require.resolve('@types/node/package.json')),
    vitest: dirname(require.resolve('vitest/package.json')),
    '@stoplight/prism-cli': dirname(require.resolve('@stoplight/prism-cli/package.json')),
  };
  for (const [name, target] of Object.entries(targets)) {
    const path = join(project, 'node_modules', name);
    if (existsSync(path)) continue;
    mkdirSync(dirname(path), { recursive: true });
    symlinkSync(target, path, 'dir');
  }
}

/** A customisation that changes everything the generated tests assume (see the curated-project test). */
const CURATED_CUSTOMIZE = `import type { McpServer } from 'mcpengine/server';
import type { OperationCaller } from '../runtime/call.js';
import { ConfigurationError, type RuntimeOptions } from '../runtime/config.js';
import type { OperationTool } from '../runtime/model.js';
import type { Exposure } from '../runtime/register.js';

export interface Customization {
  readonly tool?: (tool: OperationTool) => OperationTool | undefined;
  readonly extend?: (server: McpServer, caller: OperationCaller) => void;
  readonly runtime?: RuntimeOptions;
  readonly expose?: Exposure;
  readonly instructions?: string;
}

function checkCredentials(): void {
  if (!process.env['NOTES_CUSTOM_TOKEN'])
    throw new ConfigurationError('missing environment variable: set NOTES_CUSTOM_TOKEN (the curated notes server)');
}

export const customize: Customization = {
  tool: (tool) => {
    checkCredentials();
    if (tool.name === 'health') return { ...tool, name: 'check_health' };
    if (tool.name === 'deleteNote') return undefined;
    if (tool.name === 'createNote') return { ...tool, inputSchema: { ...tool.inputSchema, required: [] } };
    return tool;
  },
  extend: (server) =>
    server.addTool({
      name: 'notes_help',
      description: 'How to use the notes tools',
      inputSchema: { type: 'object', properties: {}, additionalProperties: false },
      handler: async () => 'List notes first.',
    }),
  runtime: { maxRetries: 0 },
  expose: 'groups',
  instructions: 'Curated notes.',
};
`;

describe('generate', () => {
  it('writes a project that builds on its own and serves', async () => {
    const result = await generateProject({ spec, out });
    expect(result.name).toBe('notes-api');
    expect(result.warnings).toEqual([]);
    for (const file of [
      'package.json',
      'tsconfig.json',
      'README.md',
      'server.json',
      MANIFEST,
      'src/index.ts',
      'src/server.ts',
      'src/tools/notes.ts',
      'src/tools/meta.ts',
      'src/custom/customize.ts',
      'src/runtime/call.ts',
      'test/smoke.test.ts',
      'test/generated.mcp.yaml',
      'test/mock-description.json',
    ])
      expect(existsSync(join(out, file)), file).toBe(true);
    // Prism serves only the operation the smoke test calls, with its success responses and what they reach.
    const mock = JSON.parse(readFileSync(join(out, 'test/mock-description.json'), 'utf8'));
    expect(mock.paths).toEqual({ '/health': { get: NOTES_DESCRIPTION.paths['/health'].get } });
    expect(mock.components).toEqual({ securitySchemes: NOTES_DESCRIPTION.components.securitySchemes });
    const manifest = JSON.parse(readFileSync(join(out, MANIFEST), 'utf8'));
    expect(manifest.source.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(manifest.tools).toBe(5);
    const readme = readFileSync(join(out, 'README.md'), 'utf8');
    expect(readme).toContain(
      'npx mcpengine add notes-api --client claude-desktop --env NOTES_APIKEY_API_KEY=…',
    );
    const serverJson = JSON.parse(readFileSync(join(out, 'server.json'), 'utf8'));
    // The MCP Registry's own schema (vendored by the command center), every field.
    expect(validateServerJson(serverJson)).toEqual([]);
    expect(JSON.parse(readFileSync(join(out, 'package.json'), 'utf8')).mcpName).toBe(serverJson.name);

    link(out);
    execFileSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', 'tsconfig.json'], {
      cwd: out,
      stdio: 'pipe',
    });
    expect(existsSync(join(out, 'dist/index.js'))).toBe(true);

    // The built server on stdio, against a real local API.
    const api = createServer((req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          data: [{ id: 'n1', text: `key ${req.headers['x-api-key']}` }],
          next_cursor: null,
        }),
      );
    });
    api.listen(0, '127.0.0.1');
    await once(api, 'listening');
    const tap = new WireTap({ validate: ['server'] });
    let client: ClientSession | undefined;
    try {
      client = await new Client({ name: 'generate-test', version: '1.0.0' }).connect(
        tapTransport(
          new StdioClientTransport({
            command: process.execPath,
            args: ['dist/index.js', '--base-url', `http://127.0.0.1:${(api.address() as AddressInfo).port}`],
            env: { NOTES_APIKEY_API_KEY: 'key-0123456789' },
            cwd: out,
          }),
          tap,
          'client',
        ),
      );
      const names: string[] = [];
      for await (const tool of client.tools()) names.push(tool.name);
      expect(names.sort()).toEqual(['createNote', 'deleteNote', 'getNote', 'health', 'listNotes']);
      const listed = await client.callTool({ name: 'listNotes', arguments: {} });
      expect(listed.isError ?? false).toBe(false);
      expect(JSON.stringify(listed.structuredContent)).toContain('key [redacted]');
    } finally {
      await client?.close();
      await new Promise<void>((resolve) => api.close(() => resolve()));
    }
    tap.assertClean();
  }, 300_000);

  it('refuses to start with a missing credential, naming the variable, and exits 2', () => {
    let status: number | null = 0;
    let stderr = '';
    try {
      execFileSync(process.execPath, ['dist/index.js'], {
        cwd: out,
        env: { PATH: process.env['PATH'] ?? '' },
        stdio: 'pipe',
        input: '',
      });
    } catch (error) {
      status = (error as { status: number }).status;
      stderr = String((error as { stderr: Buffer }).stderr);
    }
    expect(status).toBe(2);
    expect(stderr.trim()).toBe(
      'missing environment variable: set NOTES_APIKEY_API_KEY (security scheme apiKey of the description)',
    );
  });

  it('documents --uncurated in --help', () => {
    const help = execFileSync(process.execPath, ['dist/index.js', '--help'], {
      cwd: out,
      env: { PATH: process.env['PATH'] ?? '' },
      encoding: 'utf8',
    });
    expect(help).toContain('--uncurated');
    expect(help).toContain('NOTES_*');
  });

  it('passes its generated tests once src/custom/ curates it, with no variable set; --uncurated leaves the customisation out', async () => {
    // Everything the generated tests assume, changed: the smoke tool renamed, a required argument dropped,
    // an operation dropped, a credential of the customisation's own required, an extra tool, groups.
    writeFileSync(join(out, 'src/custom/customize.ts'), CURATED_CUSTOMIZE);
    execFileSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', 'tsconfig.json'], {
      cwd: out,
      stdio: 'pipe',
    });
    const bare = { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? '' };
    const listTools = async (args: string[], env: Record<string, string>) => {
      const session = await new Client({ name: 'generate-test', version: '1.0.0' }).connect(
        new StdioClientTransport({
          command: process.execPath,
          args: ['dist/index.js', ...args],
          env,
          cwd: out,
        }),
      );
      try {
        const names: string[] = [];
        for await (const tool of session.tools()) names.push(tool.name);
        return { names: names.sort(), instructions: session.instructions };
      } finally {
        await session.close();
      }
    };
    const key = { NOTES_APIKEY_API_KEY: 'key-0123456789' };

    // Curated: the customisation's credential is required, and its tools are what a client sees.
    let status: number | null = 0;
    let stderr = '';
    try {
      execFileSync(process.execPath, ['dist/index.js'], {
        cwd: out,
        env: { ...bare, ...key },
        stdio: 'pipe',
        input: '',
      });
    } catch (error) {
      status = (error as { status: number }).status;
      stderr = String((error as { stderr: Buffer }).stderr);
    }
    expect(status).toBe(2);
    expect(stderr.trim()).toBe(
      'missing environment variable: set NOTES_CUSTOM_TOKEN (the curated notes server)',
    );
    const curated = await listTools(['--expose', 'all'], { ...key, NOTES_CUSTOM_TOKEN: 'custom' });
    expect(curated.names).toEqual(['check_health', 'createNote', 'getNote', 'listNotes', 'notes_help']);
    expect(curated.instructions).toBe('Curated notes.');

    // --uncurated: no custom credential needed, the generated operations under their generated names.
    const uncurated = await listTools(['--uncurated'], key);
    expect(uncurated.names).toEqual(['createNote', 'deleteNote', 'getNote', 'health', 'listNotes']);
    expect(uncurated.instructions).toBe('Tools that call the Notes API HTTP API.');

    // Its tests in the `mcpengine test` format, run by the test runner (every message checked by the oracle).
    const yaml = readFileSync(join(out, 'test/generated.mcp.yaml'), 'utf8');
    expect(yaml).toContain('rejectsInput: true');
    expect(yaml).toContain('"--uncurated"');
    const summary = await runFiles([{ file: join(out, 'test/generated.mcp.yaml'), kind: 'yaml' }], {
      jobs: 1,
    });
    const suite = summary.suites[0]!;
    expect(suite.connectionError ?? suite.fileError).toBeUndefined();
    expect(suite.tests.map((t) => `${t.name}: ${t.status} ${t.failures.join('; ')}`)).toEqual([
      'lists every operation as a tool (5) [2025-06-18]: passed ',
      'createNote refuses arguments without its required ones [2025-06-18]: passed ',
      'health reports an API it cannot reach as a tool error [2025-06-18]: passed ',
      'lists every operation as a tool (5) [2026-07-28]: passed ',
      'createNote refuses arguments without its required ones [2026-07-28]: passed ',
      'health reports an API it cannot reach as a tool error [2026-07-28]: passed ',
    ]);

    // The project's own smoke test (Prism mock), in an environment with nothing but PATH and HOME.
    const vitest = join(dirname(require.resolve('vitest/package.json')), 'vitest.mjs');
    const output = execFileSync(process.execPath, [vitest, 'run'], {
      cwd: out,
      encoding: 'utf8',
      env: { ...bare, CI: '1' },
    });
    expect(output).toMatch(/1 passed/);
  }, 300_000);

  it('regenerates after a change of the description, keeping custom files and hand edits apart', async () => {
    const custom = join(out, 'src/custom/customize.ts');
    writeFileSync(custom, `${readFileSync(custom, 'utf8')}\n// my customisation\n`);
    const tools = join(out, 'src/tools/notes.ts');
    writeFileSync(tools, `${readFileSync(tools, 'utf8')}\n// edited by hand\n`);
    const changed = structuredClone(NOTES_DESCRIPTION) as { paths: Record<string, unknown> };
    delete changed.paths['/health'];
    writeFileSync(spec, JSON.stringify(changed));
    const result = await generateProject({ spec, out });
    expect(result.kept).toEqual(['src/tools/notes.ts.edited']);
    expect(result.removed).toEqual(['src/tools/meta.ts']);
    expect(readFileSync(custom, 'utf8')).toContain('// my customisation');
    expect(readFileSync(`${tools}.edited`, 'utf8')).toContain('// edited by hand');
    expect(readFileSync(tools, 'utf8')).not.toContain('// edited by hand');
    expect(existsSync(join(out, 'src/tools/meta.ts'))).toBe(false);
    expect(JSON.parse(readFileSync(join(out, MANIFEST), 'utf8')).tools).toBe(4);
  });

  it('refuses to write into a directory it did not generate', async () => {
    const foreign = join(root, 'foreign');
    mkdirSync(foreign);
    writeFileSync(join(foreign, 'index.ts'), '// not generated');
    await expect(generateProject({ spec, out: foreign })).rejects.toThrow(/not empty and was not generated/);
  });
});
