/**
 * Real servers nobody here wrote, part of the real-server corpus (docs/validator/README.md, "Real servers"): the
 * official filesystem and sequential-thinking servers over stdio. Their failed and warned requirements must be
 * exactly the rows of their expected-findings documents, where each MUST is proved with its spec sentence and
 * evidence; a verdict that drifts (a new false failure, a defect no longer caught) fails here.
 */
import { describe, expect, it } from 'vitest';
import { trackedGroupCount } from '@mcpengine/wire';
import { documentedFindings, failedOrWarned, validateRealServer } from './test/validation.js';

describe('real servers (a)', () => {
  it('@modelcontextprotocol/server-filesystem on stdio: exactly the documented findings', async () => {
    const report = await validateRealServer({
      name: '@modelcontextprotocol/server-filesystem',
      document: 'server-filesystem.md',
      entry: 'dist/index.js',
      // The one directory it may touch: a fresh empty one.
      args: (scratch) => [scratch],
    });
    expect(report.exitCode).toBe(1);
    expect(failedOrWarned(report)).toEqual(documentedFindings('server-filesystem.md', 'stdio'));
    expect(trackedGroupCount()).toBe(0);
  }, 120_000);

  it('@modelcontextprotocol/server-sequential-thinking on stdio: exactly the documented findings', async () => {
    const report = await validateRealServer({
      name: '@modelcontextprotocol/server-sequential-thinking',
      document: 'server-sequential-thinking.md',
      entry: 'dist/index.js',
      // Its thought log goes to stderr; keep it quiet.
      env: () => ({ DISABLE_THOUGHT_LOGGING: 'true' }),
    });
    expect(report.exitCode).toBe(1);
    expect(failedOrWarned(report)).toEqual(documentedFindings('server-sequential-thinking.md', 'stdio'));
    expect(trackedGroupCount()).toBe(0);
  }, 120_000);
});
