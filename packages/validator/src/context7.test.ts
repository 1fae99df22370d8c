/**
 * A real dual-era server nobody here wrote, part of the real-server corpus (docs/validator/README.md, "Real
 * servers"): Context7 (`@upstash/context7-mcp`, built on the official SDK v2) over stdio and over Streamable HTTP
 * (`--transport http`), in all five revisions. It starts offline; its tools reach the network only when called,
 * and fail there (no network in tests). Its failed and warned requirements must be exactly the rows of
 * docs/validator/context7.md. The two validations run side by side.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { trackedGroupCount } from '@mcpengine/wire';
import { freePort } from './test/corpus.js';
import {
  documentedFindings,
  failedOrWarned,
  validateRealHttpServer,
  validateRealServer,
} from './test/validation.js';

describe('context7', () => {
  afterAll(() => {
    expect(trackedGroupCount()).toBe(0);
  });

  it.concurrent(
    '@upstash/context7-mcp on stdio: exactly the documented findings',
    async ({ expect }) => {
      const report = await validateRealServer({
        name: '@upstash/context7-mcp',
        document: 'context7.md',
        entry: 'dist/index.js',
      });
      expect(report.revisions.map((r) => r.revision)).toContain('2026-07-28');
      expect(report.exitCode).toBe(1);
      expect(failedOrWarned(report)).toEqual(documentedFindings('context7.md', 'stdio'));
    },
    150_000,
  );

  it.concurrent(
    '@upstash/context7-mcp on Streamable HTTP: exactly the documented findings',
    async ({ expect }) => {
      // Over HTTP it also serves Prometheus metrics, on 9464 unless told otherwise: a port of its own.
      const metrics = await freePort();
      const report = await validateRealHttpServer({
        name: '@upstash/context7-mcp',
        document: 'context7.md',
        entry: 'dist/index.js',
        transport: 'streamable-http',
        listen: (port) => ({
          args: ['--transport', 'http', '--port', String(port)],
          env: { OTEL_EXPORTER_PROMETHEUS_PORT: String(metrics) },
        }),
        announce: /running on HTTP at http:\/\/localhost:\d+\/mcp/,
        path: '/mcp',
      });
      expect(report.revisions.map((r) => r.revision)).toContain('2026-07-28');
      expect(report.exitCode).toBe(1);
      expect(failedOrWarned(report)).toEqual(documentedFindings('context7.md', 'streamable-http'));
    },
    150_000,
  );
});
