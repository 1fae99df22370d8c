/**
 * A real server nobody here wrote: the official memory server over stdio. Its failed and warned requirements
 * must be exactly the rows of docs/validator/server-memory.md, where each MUST is proved with its spec quote
 * and evidence; a verdict that drifts (a new false failure, a defect no longer caught) fails here.
 */
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PACKAGE_DIR } from './paths.js';
import { documentedFindings, failedOrWarned, validate } from './test/validation.js';
import { StdioTarget } from './target.js';
import { trackedGroupCount } from '@mcpengine/wire';

const SERVER = join(
  PACKAGE_DIR,
  '..',
  '..',
  'node_modules',
  '@modelcontextprotocol',
  'server-memory',
  'dist',
  'index.js',
);

describe('@modelcontextprotocol/server-memory', () => {
  it('on stdio: exactly the documented findings', async () => {
    const report = await validate(
      new StdioTarget(
        // Its knowledge graph goes to a file: keep it out of the repository.
        {
          command: process.execPath,
          args: [SERVER],
          env: { MEMORY_FILE_PATH: join(tmpdir(), `mcpengine-validator-memory-${process.pid}.jsonl`) },
        },
        10_000,
        'server-memory',
      ),
    );
    expect(report.exitCode).toBe(1);
    expect(failedOrWarned(report)).toEqual(documentedFindings('server-memory.md', 'stdio'));
    expect(trackedGroupCount()).toBe(0);
  }, 180_000);
});
