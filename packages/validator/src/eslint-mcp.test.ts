/**
 * A real server nobody here wrote, part of the real-server corpus (docs/validator/README.md, "Real servers"):
 * ESLint's MCP server over stdio, started in an empty directory. Its failed and warned requirements must be
 * exactly the rows of docs/validator/eslint-mcp.md; a verdict that drifts fails here.
 */
import { describe, expect, it } from 'vitest';
import { trackedGroupCount } from '@mcpengine/wire';
import { documentedFindings, failedOrWarned, validateRealServer } from './test/validation.js';

describe('@eslint/mcp', () => {
  it('on stdio: exactly the documented findings', async () => {
    const report = await validateRealServer({
      name: '@eslint/mcp',
      document: 'eslint-mcp.md',
      entry: 'src/mcp-cli.js',
    });
    expect(report.exitCode).toBe(1);
    expect(failedOrWarned(report)).toEqual(documentedFindings('eslint-mcp.md', 'stdio'));
    expect(trackedGroupCount()).toBe(0);
  }, 150_000);
});
