import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { locateSpecDir, SPEC_DIR_ENV } from './spec-dir.js';

/** A fake checkout: `<root>/main/packages/testing/src` with `<root>/shared/spec` beside `main`. */
function fakeCheckout(withSpec: boolean): { root: string; packageDir: string } {
  const root = mkdtempSync(join(tmpdir(), 'spec-dir-'));
  const packageDir = join(root, 'main', 'packages', 'testing', 'src');
  mkdirSync(packageDir, { recursive: true });
  if (withSpec) {
    mkdirSync(join(root, 'shared', 'spec', '2026-07-28'), { recursive: true });
    writeFileSync(join(root, 'shared', 'spec', '2026-07-28', 'schema.json'), '{}');
  }
  return { root, packageDir };
}

describe('locateSpecDir', () => {
  test('finds shared/spec beside the repository by walking up', () => {
    const { root, packageDir } = fakeCheckout(true);
    expect(locateSpecDir({ env: {}, startDir: packageDir })).toBe(join(root, 'shared', 'spec'));
  });

  test('finds the real one from this package', () => {
    expect(locateSpecDir({ env: {} })).toMatch(/shared[\\/]spec$/);
  });

  test(`${SPEC_DIR_ENV} overrides the search`, () => {
    const { root } = fakeCheckout(true);
    const elsewhere = fakeCheckout(false).packageDir;
    const spec = join(root, 'shared', 'spec');
    expect(locateSpecDir({ env: { [SPEC_DIR_ENV]: spec }, startDir: elsewhere })).toBe(spec);
  });

  test(`a wrong ${SPEC_DIR_ENV} fails loudly`, () => {
    expect(() => locateSpecDir({ env: { [SPEC_DIR_ENV]: tmpdir() } })).toThrow(
      /does not look like the MCP spec folder/,
    );
  });

  test('no spec anywhere fails loudly, saying where it looked and how to fix it', () => {
    const { packageDir } = fakeCheckout(false);
    expect(() => locateSpecDir({ env: {}, startDir: packageDir })).toThrow(
      new RegExp(
        `Cannot find the official MCP schemas[\\s\\S]*${packageDir.replaceAll('\\', '\\\\')}[\\s\\S]*${SPEC_DIR_ENV}`,
      ),
    );
  });
});
