/**
 * Real servers nobody here wrote, part of the real-server corpus (docs/validator/README.md, "Real servers"):
 * mcp-hello-world over stdio and over HTTP+SSE, and time-mcp over stdio. Their failed and warned requirements
 * must be exactly the rows of their expected-findings documents; a verdict that drifts fails here.
 *
 * mcp-hello-world's HTTP+SSE entry serves one stream at a time ("Already connected to a transport" for the
 * others): the false pass of issue 15 on a real server, which must fail. The validations run two at a time.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { trackedGroupCount } from '@mcpengine/wire';
import {
  documentedFindings,
  failedOrWarned,
  limiter,
  validateRealHttpServer,
  validateRealServer,
} from './test/validation.js';

const limited = limiter(2);

describe('real servers (b)', () => {
  afterAll(() => {
    expect(trackedGroupCount()).toBe(0);
  });

  it.concurrent(
    'mcp-hello-world on stdio: exactly the documented findings',
    async ({ expect }) => {
      const report = await limited(() =>
        validateRealServer({
          name: 'mcp-hello-world',
          document: 'mcp-hello-world.md',
          entry: 'build/stdio.js',
        }),
      );
      expect(report.exitCode).toBe(1);
      expect(failedOrWarned(report)).toEqual(documentedFindings('mcp-hello-world.md', 'stdio'));
    },
    120_000,
  );

  it.concurrent(
    'mcp-hello-world on HTTP+SSE: refused connections fail the run, exactly the documented findings',
    async ({ expect }) => {
      const report = await limited(() =>
        validateRealHttpServer({
          name: 'mcp-hello-world',
          document: 'mcp-hello-world.md',
          entry: 'build/http.js',
          transport: 'sse',
          listen: (port) => ({ env: { PORT: String(port) } }),
          announce: /Hello World MCP Server running on http:\/\/localhost:\d+/,
          path: '/sse',
        }),
      );
      // Never a pass with the refused connections' checks "not run".
      expect(report.exitCode).toBe(1);
      expect(report.revisions.map((r) => r.checks['transport.connections']?.status)).toContain('fail');
      expect(failedOrWarned(report)).toEqual(documentedFindings('mcp-hello-world.md', 'sse'));
    },
    120_000,
  );

  it.concurrent(
    'time-mcp on stdio: exactly the documented findings',
    async ({ expect }) => {
      const report = await limited(() =>
        validateRealServer({
          name: 'time-mcp',
          document: 'time-mcp.md',
          entry: 'dist/index.js',
        }),
      );
      expect(report.exitCode).toBe(1);
      expect(failedOrWarned(report)).toEqual(documentedFindings('time-mcp.md', 'stdio'));
    },
    120_000,
  );
});
