import { mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { BUNDLED_SPEC_DIR, locateSpecDir, SPEC_DIR_ENV } from './spec-dir.js';

describe('locateSpecDir', () => {
  test('is the copy the package carries, with every revision and the tasks extension', () => {
    expect(locateSpecDir({ env: {} })).toBe(BUNDLED_SPEC_DIR);
    expect(readdirSync(BUNDLED_SPEC_DIR).sort()).toEqual([
      '2024-11-05',
      '2025-03-26',
      '2025-06-18',
      '2025-11-25',
      '2026-07-28',
      'README.md',
      'extensions',
    ]);
    expect(readdirSync(join(BUNDLED_SPEC_DIR, 'extensions', 'tasks'))).toContain('schema.json');
  });

  test(`${SPEC_DIR_ENV} points it elsewhere`, () => {
    const spec = mkdtempSync(join(tmpdir(), 'spec-dir-'));
    mkdirSync(join(spec, '2026-07-28'));
    writeFileSync(join(spec, '2026-07-28', 'schema.json'), '{}');
    expect(locateSpecDir({ env: { [SPEC_DIR_ENV]: spec } })).toBe(spec);
  });

  test(`a wrong ${SPEC_DIR_ENV} fails loudly`, () => {
    expect(() => locateSpecDir({ env: { [SPEC_DIR_ENV]: tmpdir() } })).toThrow(
      /does not look like the MCP spec folder/,
    );
  });
});
