/**
 * Real servers nobody here wrote, part of the real-server corpus (docs/validator/README.md, "Real servers"):
 * `@cyanheads/git-mcp-server` over stdio and Streamable HTTP, and `mcp-sqlite` over stdio (its only transport).
 * Their failed and warned requirements must be exactly the rows of their expected-findings documents, where each
 * MUST is proved with its spec sentence and evidence; a verdict that drifts fails here.
 *
 * The git server works in a fresh, empty repository (the validator calls only its read-only tools); the SQLite
 * server on a fresh database file. The validations run two at a time.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { trackedGroupCount } from '@mcpengine/wire';
import {
  documentedFindings,
  failedOrWarned,
  limiter,
  validateRealHttpServer,
  validateRealServer,
  type RealServer,
} from './test/validation.js';

const GIT: RealServer = {
  name: '@cyanheads/git-mcp-server',
  document: 'git-mcp-server.md',
  entry: 'dist/index.js',
  prepare: (scratch) => {
    execFileSync('git', ['init', '--quiet', scratch]);
  },
  // Paths outside the scratch repository are refused. Under vitest NODE_ENV is "test", which silences its log,
  // and with it the line that says it listens: run it as it runs by default.
  env: (scratch) => ({ GIT_BASE_DIR: scratch, NODE_ENV: 'development' }),
};

const limited = limiter(2);

describe('real servers (c)', () => {
  afterAll(() => {
    expect(trackedGroupCount()).toBe(0);
  });

  it.concurrent(
    '@cyanheads/git-mcp-server on stdio: exactly the documented findings',
    async ({ expect }) => {
      const report = await limited(() => validateRealServer(GIT));
      expect(report.exitCode).toBe(1);
      expect(failedOrWarned(report)).toEqual(documentedFindings(GIT.document, 'stdio'));
    },
    150_000,
  );

  it.concurrent(
    '@cyanheads/git-mcp-server on Streamable HTTP: exactly the documented findings',
    async ({ expect }) => {
      const report = await limited(() =>
        validateRealHttpServer({
          ...GIT,
          transport: 'streamable-http',
          listen: (port) => ({
            env: {
              MCP_TRANSPORT_TYPE: 'http',
              MCP_HTTP_HOST: '127.0.0.1',
              MCP_HTTP_PORT: String(port),
              // That port or none: it must not wander to the next one if it is taken.
              MCP_HTTP_MAX_PORT_RETRIES: '0',
            },
          }),
          announce: /HTTP transport listening at http:\/\/127\.0\.0\.1:\d+\/mcp/,
          path: '/mcp',
        }),
      );
      expect(report.exitCode).toBe(1);
      expect(failedOrWarned(report)).toEqual(documentedFindings(GIT.document, 'streamable-http'));
    },
    150_000,
  );

  it.concurrent(
    'mcp-sqlite on stdio: exactly the documented findings',
    async ({ expect }) => {
      const report = await limited(() =>
        validateRealServer({
          name: 'mcp-sqlite',
          document: 'mcp-sqlite.md',
          entry: 'mcp-sqlite-server.js',
          args: (scratch) => [join(scratch, 'corpus.db')],
        }),
      );
      expect(report.exitCode).toBe(1);
      expect(failedOrWarned(report)).toEqual(documentedFindings('mcp-sqlite.md', 'stdio'));
    },
    150_000,
  );
});
