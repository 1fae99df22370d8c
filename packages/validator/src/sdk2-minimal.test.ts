/**
 * A minimal server on the official SDK v2 (corpus/real/sdk2-minimal.mjs, written from the SDK's documentation),
 * part of the real-server corpus (docs/validator/README.md, "Real servers"), over stdio in all five revisions.
 * Its failed and warned requirements must be exactly the rows of docs/validator/sdk2-minimal.md.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { trackedGroupCount } from '@mcpengine/wire';
import { PACKAGE_DIR } from './paths.js';
import { StdioTarget } from './target.js';
import { documentedFindings, failedOrWarned, validate } from './test/validation.js';

describe('a minimal SDK v2 server', () => {
  it('on stdio: exactly the documented findings', async () => {
    const report = await validate(
      new StdioTarget(
        {
          command: process.execPath,
          args: [join(PACKAGE_DIR, 'corpus', 'real', 'sdk2-minimal.mjs')],
          env: {},
        },
        10_000,
        'sdk2-minimal',
      ),
    );
    expect(report.revisions.map((r) => r.revision)).toContain('2026-07-28');
    expect(report.exitCode).toBe(1);
    expect(failedOrWarned(report)).toEqual(documentedFindings('sdk2-minimal.md', 'stdio'));
    expect(trackedGroupCount()).toBe(0);
  }, 150_000);
});
