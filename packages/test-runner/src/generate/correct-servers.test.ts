/**
 * `--generate` reports no failure on correct servers: our everything server, the official
 * `@modelcontextprotocol/server-everything` and `@modelcontextprotocol/server-memory`. Warnings (a tool that needs
 * the network or real data, a slow tool that reports progress) are allowed: they are not defects.
 */
import { mkdtempSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ServerTarget } from '../model.js';
import { runGenerated } from './generate.js';

const ROOT = resolve(import.meta.dirname, '../../../..');
const require = createRequire(import.meta.url);
const packageBin = (name: string) =>
  join(dirname(require.resolve(`${name}/package.json`)), 'dist', 'index.js');

const SERVERS: [string, ServerTarget, string[]][] = [
  // protocol_error_job is a conformance fixture that answers -32603 on purpose (its description says so).
  [
    'our everything server',
    { kind: 'stdio', command: process.execPath, args: [join(ROOT, 'servers/everything/dist/main.js')] },
    ['protocol_error_job'],
  ],
  [
    '@modelcontextprotocol/server-everything',
    {
      kind: 'stdio',
      command: process.execPath,
      args: [packageBin('@modelcontextprotocol/server-everything'), 'stdio'],
    },
    [],
  ],
  [
    '@modelcontextprotocol/server-memory',
    {
      kind: 'stdio',
      command: process.execPath,
      args: [packageBin('@modelcontextprotocol/server-memory')],
      env: { MEMORY_FILE_PATH: join(mkdtempSync(join(tmpdir(), 'mcpengine-memory-')), 'memory.jsonl') },
    },
    [],
  ],
];

describe('--generate on correct servers', () => {
  it.each(SERVERS)(
    '%s: no failure',
    async (_name, server, excludeTools) => {
      const { result } = await runGenerated({
        server,
        serverSpec: {},
        revisions: ['auto'],
        timeoutMs: 5_000,
        excludeTools,
        cwd: tmpdir(),
      });
      expect(result.connectionError).toBeUndefined();
      const failed = result.tests
        .filter((t) => t.status === 'failed')
        .map((t) => `${t.name}: ${t.failures.join('; ')}`);
      expect(failed).toEqual([]);
      expect(result.tests.filter((t) => t.status === 'passed').length).toBeGreaterThan(20);
    },
    180_000,
  );
});
