/**
 * A minimal FastMCP server (corpus/real/fastmcp-minimal.mjs, the quickstart of its README), part of the
 * real-server corpus (docs/validator/README.md, "Real servers"), in every revision it negotiates: over stdio, and
 * started with the README's "HTTP Streaming" over Streamable HTTP (/mcp) and HTTP+SSE (/sse). Its failed and
 * warned requirements must be exactly the rows of docs/validator/fastmcp-minimal.md. The runs go two at a time.
 */
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { trackedGroupCount } from '@mcpengine/wire';
import { PACKAGE_DIR } from './paths.js';
import {
  documentedFindings,
  failedOrWarned,
  limiter,
  validateRealHttpServer,
  validateRealServer,
  type RealServer,
} from './test/validation.js';

const FASTMCP: RealServer = {
  name: 'fastmcp-minimal',
  document: 'fastmcp-minimal.md',
  entry: join(PACKAGE_DIR, 'corpus', 'real', 'fastmcp-minimal.mjs'),
};

const limited = limiter(2);

describe('a minimal FastMCP server', () => {
  afterAll(() => {
    expect(trackedGroupCount()).toBe(0);
  });

  it.concurrent(
    'on stdio: exactly the documented findings',
    async ({ expect }) => {
      const report = await limited(() => validateRealServer(FASTMCP));
      expect(report.exitCode).toBe(1);
      expect(failedOrWarned(report)).toEqual(documentedFindings(FASTMCP.document, 'stdio'));
    },
    150_000,
  );

  for (const [transport, path] of [
    ['streamable-http', '/mcp'],
    ['sse', '/sse'],
  ] as const) {
    it.concurrent(
      `on ${transport === 'sse' ? 'HTTP+SSE' : 'Streamable HTTP'}: exactly the documented findings`,
      async ({ expect }) => {
        const report = await limited(() =>
          validateRealHttpServer({
            ...FASTMCP,
            transport,
            listen: (port) => ({ args: ['--http-port', String(port)] }),
            announce: /running on HTTP Stream at http:\/\/localhost:\d+\/mcp/,
            path,
          }),
        );
        expect(report.exitCode).toBe(1);
        expect(failedOrWarned(report)).toEqual(documentedFindings(FASTMCP.document, transport));
      },
      150_000,
    );
  }
});
