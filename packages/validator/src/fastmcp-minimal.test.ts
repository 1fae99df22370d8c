/**
 * A minimal FastMCP server (corpus/real/fastmcp-minimal.mjs, the quickstart of its README),
 * part of the real-server corpus (docs/validator/README.md, "Real servers"), over stdio in every revision it negotiates.
 * Its failed and warned requirements must be exactly the rows of docs/validator/fastmcp-minimal.md.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { trackedGroupCount } from '@mcpengine/wire';
import { PACKAGE_DIR } from './paths.js';
import { StdioTarget } from './target.js';
import { documentedFindings, failedOrWarned, validate } from './test/validation.js';

describe('a minimal FastMCP server', () => {
  it('on stdio: exactly the documented findings', async () => {
    const report = await validate(
      new StdioTarget(
        {
          command: process.execPath,
          args: [join(PACKAGE_DIR, 'corpus', 'real', 'fastmcp-minimal.mjs')],
          env: {},
        },
        10_000,
        'fastmcp-minimal',
      ),
    );
    expect(report.exitCode).toBe(1);
    expect(failedOrWarned(report)).toEqual(documentedFindings('fastmcp-minimal.md', 'stdio'));
    expect(trackedGroupCount()).toBe(0);
  }, 150_000);
});
