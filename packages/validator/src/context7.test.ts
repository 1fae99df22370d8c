/**
 * A real dual-era server nobody here wrote, part of the real-server corpus (docs/validator/README.md, "Real
 * servers"): Context7 (`@upstash/context7-mcp`, built on the official SDK v2) over stdio, in all five revisions.
 * It starts offline; its tools reach the network only when called, and fail there (no network in tests). Its
 * failed and warned requirements must be exactly the rows of docs/validator/context7.md.
 */
import { describe, expect, it } from 'vitest';
import { trackedGroupCount } from '@mcpengine/wire';
import { documentedFindings, failedOrWarned, validateRealServer } from './test/validation.js';

describe('context7', () => {
  it('@upstash/context7-mcp on stdio: exactly the documented findings', async () => {
    const report = await validateRealServer({
      name: '@upstash/context7-mcp',
      document: 'context7.md',
      entry: 'dist/index.js',
    });
    expect(report.revisions.map((r) => r.revision)).toContain('2026-07-28');
    expect(report.exitCode).toBe(1);
    expect(failedOrWarned(report)).toEqual(documentedFindings('context7.md', 'stdio'));
    expect(trackedGroupCount()).toBe(0);
  }, 150_000);
});
