import { describe, expect, it } from 'vitest';
import { sampleArguments, sampleForPattern } from './sample.js';

describe('sample arguments', () => {
  it('builds strings for the patterns real descriptions use', () => {
    for (const pattern of [
      '^AC[0-9a-fA-F]{32}$',
      '^[A-Z]{2}$',
      '^\\d{4}-\\d{2}$',
      '^(cus|acct)_[a-z0-9]+$',
      'abc',
    ]) {
      const value = sampleForPattern(pattern);
      expect(value, pattern).toBeDefined();
      expect(new RegExp(pattern, 'u').test(value!)).toBe(true);
    }
    expect(sampleForPattern('^(?=lookahead)x$')).toBeUndefined();
  });

  it('fills required properties, enums, minimums and minProperties', () => {
    const args = sampleArguments({
      type: 'object',
      properties: {
        id: { type: 'string', pattern: '^AC[0-9a-f]{4}$' },
        kind: { type: 'string', enum: ['a', 'b'] },
        count: { type: 'integer', minimum: 5 },
        body: { type: 'object', properties: { name: { type: 'string', minLength: 1 } }, minProperties: 1 },
        optional: { type: 'string' },
      },
      required: ['id', 'kind', 'count', 'body'],
    });
    expect(args).toEqual({ id: 'AC0000', kind: 'a', count: 5, body: { name: 'sample' } });
  });
});
