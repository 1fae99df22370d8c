/**
 * A small fleet in a temporary project for the center's tests: `good` is the everything server (stdio only, one
 * test file, a valid server.json); `broken` starts, prints garbage and dies, and ships an invalid server.json —
 * it must get failing verdicts with evidence.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = resolve(fileURLToPath(new URL('../../../..', import.meta.url)));
export const EVERYTHING_MAIN = join(REPO, 'servers', 'everything', 'dist', 'main.js');

function write(path: string, text: string): void {
  mkdirSync(resolve(path, '..'), { recursive: true });
  writeFileSync(path, text);
}

export interface FixtureFleet {
  readonly root: string;
  cleanup(): void;
}

export function createFixtureFleet(
  servers: readonly ('good' | 'broken')[] = ['good', 'broken'],
): FixtureFleet {
  const root = mkdtempSync(join(tmpdir(), 'mcpengine-center-fleet-'));
  if (servers.includes('good')) {
    const dir = join(root, 'servers', 'good');
    mkdirSync(join(dir, 'src'), { recursive: true });
    write(
      join(dir, 'fleet.json'),
      JSON.stringify({
        name: 'good',
        title: 'Good',
        description: 'The everything server, seen as a fleet member.',
        origin: 'handwritten',
        stdio: `node ${EVERYTHING_MAIN}`,
        tests: 'test',
        serverJson: 'server.json',
        apps: true,
      }),
    );
    write(
      join(dir, 'test', 'smoke.mcp.yaml'),
      [
        'name: smoke',
        'server:',
        `  stdio: node ${EVERYTHING_MAIN}`,
        'tests:',
        '  - name: echo returns its input',
        '    tool: echo',
        '    arguments: { text: hello }',
        '    expect:',
        '      text: hello',
        '',
      ].join('\n'),
    );
    write(
      join(dir, 'server.json'),
      JSON.stringify({
        $schema: 'https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json',
        name: 'io.github.mcpengine/good',
        description: 'The everything server, seen as a fleet member',
        version: '0.1.0',
        packages: [
          {
            registryType: 'npm',
            identifier: '@mcpengine/good',
            version: '0.1.0',
            transport: { type: 'stdio' },
          },
        ],
      }),
    );
  }
  if (servers.includes('broken')) {
    const dir = join(root, 'servers', 'broken');
    mkdirSync(join(dir, 'src'), { recursive: true });
    write(
      join(dir, 'fleet.json'),
      JSON.stringify({
        name: 'broken',
        title: 'Broken',
        description: 'A server that prints garbage on stdout and dies.',
        origin: 'handwritten',
        stdio: 'node dist/main.js',
        tests: 'test',
        serverJson: 'server.json',
      }),
    );
    write(
      join(dir, 'dist', 'main.js'),
      "process.stdout.write('this is not JSON-RPC\\n');\nprocess.stderr.write('fatal: BROKEN_API_KEY is not set\\n');\nprocess.exit(1);\n",
    );
    write(
      join(dir, 'test', 'smoke.mcp.yaml'),
      [
        'name: smoke',
        'server:',
        '  stdio: node ../dist/main.js',
        'tests:',
        '  - name: lists tools',
        '    list: tools',
        '    expect:',
        '      names: { $contains: [echo] }',
        '',
      ].join('\n'),
    );
    // No version, a name without a namespace, a version range: three schema errors.
    write(
      join(dir, 'server.json'),
      JSON.stringify({
        name: 'broken',
        description: 'x',
        packages: [
          { registryType: 'npm', identifier: 'broken', version: 'latest', transport: { type: 'stdio' } },
        ],
      }),
    );
  }
  return { root, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}
