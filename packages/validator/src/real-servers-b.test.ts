/**
 * Real servers nobody here wrote, part of the real-server corpus (docs/validator/README.md, "Real servers"):
 * mcp-hello-world and time-mcp over stdio. Their failed and warned requirements must be exactly the rows of their
 * expected-findings documents; a verdict that drifts fails here.
 */
import { describe, expect, it } from 'vitest';
import { trackedGroupCount } from '@mcpengine/wire';
import { documentedFindings, failedOrWarned, validateRealServer } from './test/validation.js';

describe('real servers (b)', () => {
  it('mcp-hello-world on stdio: exactly the documented findings', async () => {
    const report = await validateRealServer({
      name: 'mcp-hello-world',
      document: 'mcp-hello-world.md',
      entry: 'build/stdio.js',
    });
    expect(report.exitCode).toBe(1);
    expect(failedOrWarned(report)).toEqual(documentedFindings('mcp-hello-world.md', 'stdio'));
    expect(trackedGroupCount()).toBe(0);
  }, 120_000);

  it('time-mcp on stdio: exactly the documented findings', async () => {
    const report = await validateRealServer({
      name: 'time-mcp',
      document: 'time-mcp.md',
      entry: 'dist/index.js',
    });
    expect(report.exitCode).toBe(1);
    expect(failedOrWarned(report)).toEqual(documentedFindings('time-mcp.md', 'stdio'));
    expect(trackedGroupCount()).toBe(0);
  }, 120_000);
});
