/**
 * Our everything server passes every applicable MUST of every revision, on stdio and on both HTTP transports.
 * It must have no failure and no warning at all, so any new one shows up here.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PACKAGE_DIR } from './paths.js';
import { startHttpServer, summarize } from './test/corpus.js';
import { failedOrWarned, validate } from './test/validation.js';
import { SseTarget, StdioTarget, StreamableHttpTarget } from './target.js';
import { trackedGroupCount } from '@mcpengine/wire';

const SERVER = join(PACKAGE_DIR, '..', '..', 'servers', 'everything', 'dist', 'main.js');

describe('the everything server', () => {
  it('passes every applicable MUST of the five revisions on stdio', async () => {
    const report = await validate(
      new StdioTarget({ command: process.execPath, args: [SERVER], env: {} }, 10_000, 'everything'),
    );
    expect(report.revisions.map((r) => r.revision)).toEqual([
      '2026-07-28',
      '2025-11-25',
      '2025-06-18',
      '2025-03-26',
      '2024-11-05',
    ]);
    expect(report.exitCode).toBe(0);
    expect(failedOrWarned(report)).toEqual([]);
    for (const revision of report.revisions) {
      expect(revision.must.failed).toBe(0);
      expect(revision.coverage.covered).toBe(revision.coverage.testable);
      expect(revision.unmapped).toEqual([]);
    }
    expect(summarize(report).failing).toEqual([]);
    expect(trackedGroupCount()).toBe(0);
  }, 180_000);

  it('passes on Streamable HTTP and on HTTP+SSE', async () => {
    const server = await startHttpServer(
      process.execPath,
      [SERVER, '--http', '--port', '0'],
      /Streamable HTTP: (\S+)/,
    );
    try {
      const streamable = await validate(
        new StreamableHttpTarget({ url: server.url, headers: {}, timeoutMs: 10_000 }),
      );
      expect(streamable.revisions.map((r) => r.revision)).toEqual([
        '2026-07-28',
        '2025-11-25',
        '2025-06-18',
        '2025-03-26',
        '2024-11-05',
      ]);
      expect(streamable.exitCode).toBe(0);
      expect(failedOrWarned(streamable)).toEqual([]);
      const sse = await validate(
        new SseTarget({ url: server.url.replace(/\/mcp$/, '/sse'), headers: {}, timeoutMs: 10_000 }),
      );
      expect(sse.exitCode).toBe(0);
      expect(failedOrWarned(sse)).toEqual([]);
      expect(
        sse.revisions.find((r) => r.revision === '2024-11-05')!.checks['sse.endpoint-event']!.status,
      ).toBe('pass');
    } finally {
      await server.stop();
    }
  }, 240_000);
});
