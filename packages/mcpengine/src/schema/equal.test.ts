import { describe, expect, it } from 'vitest';
import { findDuplicate, jsonEqual, jsonKey } from './equal.js';

describe('jsonEqual', () => {
  it('follows JSON Schema equality', () => {
    expect(jsonEqual(1, 1.0)).toBe(true);
    expect(jsonEqual(0, -0)).toBe(true);
    expect(jsonEqual({ a: 1, b: [1, { c: null }] }, { b: [1, { c: null }], a: 1 })).toBe(true);
    expect(jsonEqual([1, 2], [2, 1])).toBe(false);
    expect(jsonEqual({ a: 1 }, { a: 1, b: 2 })).toBe(false);
    expect(jsonEqual({}, [])).toBe(false);
    expect(jsonEqual(1, true)).toBe(false);
    expect(jsonEqual('1', 1)).toBe(false);
    expect(jsonEqual(null, {})).toBe(false);
  });
});

describe('jsonKey', () => {
  it('gives equal values equal keys regardless of key order', () => {
    expect(jsonKey({ a: 1, b: [true, 'x'] })).toBe(jsonKey({ b: [true, 'x'], a: 1.0 }));
    expect(jsonKey('1')).not.toBe(jsonKey(1));
    expect(jsonKey([1])).not.toBe(jsonKey({ 0: 1 }));
  });
});

describe('findDuplicate', () => {
  it('finds the first duplicate pair in small and large arrays', () => {
    expect(findDuplicate([1, 2, 3])).toBeUndefined();
    expect(findDuplicate([1, { a: 1 }, { a: 1.0 }])).toEqual([1, 2]);
    const large = Array.from({ length: 100 }, (_, i) => ({ i }));
    expect(findDuplicate(large)).toBeUndefined();
    expect(findDuplicate([...large, { i: 42 }])).toEqual([42, 100]);
  });
});
