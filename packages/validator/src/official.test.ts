/**
 * The official reference server, validated on its three transports: the requirements it fails or is warned
 * about are exactly those documented, with their spec quotes, in docs/validator/server-everything.md.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PACKAGE_DIR } from './paths.js';
import { freePort, startHttpServer } from './test/corpus.js';
import { failedOrWarned, validate } from './test/validation.js';
import { SseTarget, StdioTarget, StreamableHttpTarget } from './target.js';
import { trackedGroupCount } from '@mcpengine/wire';

const ROOT = join(PACKAGE_DIR, '..', '..');
const SERVER = join(ROOT, 'node_modules', '@modelcontextprotocol', 'server-everything', 'dist', 'index.js');

/** `revision requirement verdict` lines documented for a transport. */
function documented(transport: string): string[] {
  const text = readFileSync(join(ROOT, 'docs', 'validator', 'server-everything.md'), 'utf8');
  const rows = text.split('\n').filter((line) => line.startsWith(`| ${transport} |`));
  return rows
    .flatMap((row) => {
      const [, , revisions, requirement, , verdict] = row.split('|').map((cell) => cell.trim());
      return revisions!
        .split(' ')
        .map((revision) => `${revision} ${requirement!.replace(/`/g, '')} ${verdict!}`);
    })
    .sort();
}

// The three transports are validated side by side: most of each run is spent waiting for the server's own tools
// (a long-running operation takes 10 s per revision), not on the machine's two cores.
describe('@modelcontextprotocol/server-everything', () => {
  afterAll(() => {
    expect(trackedGroupCount()).toBe(0);
  });

  it.concurrent(
    'on stdio: exactly the documented failures',
    async ({ expect }) => {
      const report = await validate(
        new StdioTarget(
          { command: process.execPath, args: [SERVER, 'stdio'], env: {} },
          10_000,
          'server-everything',
        ),
      );
      expect(report.revisions.map((r) => r.revision)).toEqual([
        '2025-11-25',
        '2025-06-18',
        '2025-03-26',
        '2024-11-05',
      ]);
      expect(report.exitCode).toBe(1);
      expect(failedOrWarned(report)).toEqual(documented('stdio'));
    },
    180_000,
  );

  it.concurrent(
    'on Streamable HTTP: exactly the documented failures',
    async ({ expect }) => {
      const port = await freePort();
      const server = await startHttpServer(
        process.execPath,
        [SERVER, 'streamableHttp'],
        /listening on port (\d+)/,
        {
          env: { PORT: String(port) },
          url: (match) => `http://127.0.0.1:${match[1]!}/mcp`,
        },
      );
      try {
        const report = await validate(
          new StreamableHttpTarget({ url: server.url, headers: {}, timeoutMs: 10_000 }),
        );
        expect(report.exitCode).toBe(1);
        expect(failedOrWarned(report)).toEqual(documented('streamable-http'));
      } finally {
        await server.stop();
      }
    },
    180_000,
  );

  it.concurrent(
    'on HTTP+SSE: exactly the documented failures',
    async ({ expect }) => {
      const port = await freePort();
      const server = await startHttpServer(process.execPath, [SERVER, 'sse'], /running on port (\d+)/, {
        env: { PORT: String(port) },
        url: (match) => `http://127.0.0.1:${match[1]!}/sse`,
      });
      try {
        const report = await validate(new SseTarget({ url: server.url, headers: {}, timeoutMs: 10_000 }));
        expect(report.exitCode).toBe(1);
        expect(failedOrWarned(report)).toEqual(documented('sse'));
      } finally {
        await server.stop();
      }
    },
    180_000,
  );
});
