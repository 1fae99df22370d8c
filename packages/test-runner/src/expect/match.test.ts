import { describe, expect, it } from 'vitest';
import { match } from './match.js';
import { redact } from './redact.js';
import { lineDiff } from './diff.js';

describe('matchers', () => {
  it('literals: objects by the members they list, arrays element by element', () => {
    expect(match({ a: 1, b: { c: 'x', d: 2 } }, { b: { c: 'x' } })).toEqual([]);
    expect(match([1, 2], [1, 2, 3])).toEqual(['expected 3 element(s), got 2: [1,2]']);
    expect(match({ a: { b: [1, { c: 2 }] } }, { a: { b: [1, { c: 3 }] } })).toEqual([
      'a.b[1].c: expected 3, got 2',
    ]);
    expect(match({}, { a: 1 })).toEqual(['a: missing (expected 1)']);
  });

  it('operators', () => {
    expect(match('hello world', { $contains: 'world', $matches: '^hel' })).toEqual([]);
    expect(match('Hello', { $matches: '/^hello$/i' })).toEqual([]);
    expect(match([{ a: 1 }, { a: 2 }], { $contains: [{ a: 2 }], $length: { $gte: 2 } })).toEqual([]);
    expect(match(5, { $gt: 5 })).toEqual(['expected a number gt 5, got 5']);
    expect(match(1.5, { $type: 'integer' })).toEqual(['expected type integer, got number 1.5']);
    expect(match({ a: 1 }, { b: { $exists: false } })).toEqual([]);
    expect(match('x', { $not: { $contains: 'x' } })).toEqual([
      'expected not to match {"$contains":"x"}, got "x"',
    ]);
    expect(match(3, { $anyOf: [1, 2] })).toHaveLength(1);
    expect(match({ a: 1, b: 2 }, { $eq: { a: 1 } })).toEqual(['expected exactly {"a":1}, got {"a":1,"b":2}']);
  });

  it('$byRevision picks the entry for the negotiated revision', () => {
    const code = { $byRevision: { legacy: -32002, '>=2026-07-28': -32602 } };
    expect(match(-32002, code, '', { revision: '2025-11-25' })).toEqual([]);
    expect(match(-32602, code, '', { revision: '2026-07-28' })).toEqual([]);
    expect(match(-32002, code, '', { revision: '2026-07-28' })).toEqual(['expected -32602, got -32002']);
  });
});

describe('snapshot redaction and diffs', () => {
  it('replaces values that change from run to run', () => {
    expect(
      redact({
        id: 'a1b2c3d4e5f6a7b8c9d0',
        createdAt: 1_767_225_600_000,
        text: 'order 123e4567-e89b-42d3-a456-426614174000 placed 2026-01-02T03:04:05Z, ships 2026-01-09',
        count: 3,
        name: 'plain',
      }),
    ).toEqual({
      id: '[id]',
      createdAt: '[timestamp]',
      text: 'order [uuid] placed [timestamp], ships [date]',
      count: 3,
      name: 'plain',
    });
  });

  it('diffs line by line with context', () => {
    expect(lineDiff('a\nb\nc', 'a\nB\nc')).toBe('  a\n- b\n+ B\n  c');
  });
});

describe('snapshot stores', () => {
  it('write on first run, match, fail with a diff, update with -u; in CI a missing snapshot fails', async () => {
    const { mkdtempSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const { YamlSnapshotStore } = await import('./snapshots.js');
    const file = join(mkdtempSync(join(tmpdir(), 'mcpengine-snap-')), 'a.snap.yaml');
    const first = new YamlSnapshotStore(file, false, false);
    expect(first.check('x', { id: '123e4567-e89b-42d3-a456-426614174000', n: 1 }).status).toBe('written');
    first.save();
    const again = new YamlSnapshotStore(file, false, false);
    expect(again.check('x', { id: '00000000-0000-4000-8000-000000000000', n: 1 }).status).toBe('matched');
    const changed = again.check('x', { id: 'x', n: 2 });
    expect(changed.status).toBe('mismatch');
    expect(changed.diff).toContain('- n: 1');
    expect(changed.diff).toContain('+ n: 2');
    expect(new YamlSnapshotStore(file, true, false).check('x', { n: 2 }).status).toBe('updated');
    expect(new YamlSnapshotStore(file, false, true).check('new one', { n: 3 }).status).toBe('missing');
  });
});
