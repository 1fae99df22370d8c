import { compileSchema, type JsonSchema } from 'mcpengine/schema';
import { describe, expect, it } from 'vitest';
import { sampleArguments, sampleForPattern, sampleValue } from './sample.js';

/** The sample, checked with the validator the project uses for tool arguments. */
function validSample(schema: Record<string, unknown>): unknown {
  const value = sampleValue(schema);
  const result = compileSchema(schema as JsonSchema).validate(value);
  expect(result.valid ? [] : result.issues, JSON.stringify(value)).toEqual([]);
  return value;
}

describe('sample arguments', () => {
  it('builds strings for the patterns real descriptions use', () => {
    for (const pattern of [
      '^AC[0-9a-fA-F]{32}$',
      '^[A-Z]{2}$',
      '^\\d{4}-\\d{2}$',
      '^(cus|acct)_[a-z0-9]+$',
      'abc',
      // GitHub's SSH keys: alternatives at the top level, each anchored
      '^ssh-(rsa|dss|ed25519) |^ecdsa-sha2-nistp(256|384|521) ',
      '^[^/]+$',
      '^(?:[a-z]|\\d)+\\.json$',
      '^[\\w.-]+@[\\w.-]+$',
      '^\\p{L}+$',
      '^(?<year>\\d{4})$',
      '^[a-z]{2,}(-[A-Z]{2})?$',
      '^[]a]$'.replace('[]a]', '[\\]a]'),
    ]) {
      const value = sampleForPattern(pattern);
      expect(value, pattern).toBeDefined();
      expect(new RegExp(pattern, 'u').test(value!), `${pattern} ${value}`).toBe(true);
    }
    expect(sampleForPattern('^(a)\\1$')).toBeUndefined(); // a backreference: no sample rather than a wrong one
  });

  it('stretches a pattern to minLength and keeps it within maxLength', () => {
    const value = sampleForPattern('^[a-z]+$', 5, 8);
    expect(value).toBe('aaaaa');
    expect(sampleForPattern('^[a-z]{1,3}$', 5)).toBe('a'); // an impossible minLength: the pattern wins
    validSample({ type: 'string', pattern: '^[0-9a-f]*$', minLength: 40, maxLength: 40 });
    // lookaheads only: a string with a bit of everything
    validSample({
      type: 'string',
      pattern: '(?=^.{8,64}$)((?=.*\\d)(?=.*[A-Z])(?=.*[a-z])|(?=.*\\d)(?=.*[^A-Za-z0-9\\s])(?=.*[a-z]))',
    });
    // an unanchored end: anything may follow
    expect(validSample({ type: 'string', pattern: '^arn:aws:gamesparks:', minLength: 20 })).toBe(
      'arn:aws:gamesparks:a',
    );
    // AWS's ARNs: the length comes from inside an optional group at the end
    validSample({
      type: 'string',
      pattern: '^arn(:[a-z0-9]+([.-][a-z0-9]+)*){2}(:([a-z0-9]+([.-][a-z0-9]+)*)?){2}:([^/].*)?$',
      minLength: 20,
      maxLength: 2048,
    });
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

  it('honours required properties beside anyOf/oneOf (GitHub request bodies)', () => {
    // campaigns/create-campaign: the body requires name and description, and anyOf one of two lists
    const campaign = validSample({
      type: 'object',
      properties: {
        name: { type: 'string', minLength: 1, maxLength: 50 },
        description: { type: 'string', minLength: 1 },
        code_scanning_alerts: { type: 'array', minItems: 1, items: { type: 'object' } },
        secret_scanning_alerts: { type: 'array', minItems: 1, items: { type: 'object' } },
      },
      required: ['name', 'description'],
      anyOf: [{ required: ['code_scanning_alerts'] }, { required: ['secret_scanning_alerts'] }],
    });
    expect(campaign).toMatchObject({ name: 'sample', description: 'sample', code_scanning_alerts: [{}] });
    // a oneOf whose first variant does not fit what is beside it: the next one is taken
    expect(
      validSample({
        type: 'object',
        properties: { type: { type: 'string', enum: ['Issue', 'PullRequest'] }, id: { type: 'integer' } },
        required: ['type'],
        oneOf: [
          { properties: { type: { const: 'Draft' } } },
          { required: ['id'], properties: { type: { const: 'Issue' } } },
        ],
      }),
    ).toEqual({ type: 'Issue', id: 1 });
  });

  it('samples nested required body properties, arrays with minItems and uniqueItems', () => {
    const value = validSample({
      type: 'object',
      required: ['body'],
      properties: {
        body: {
          type: 'object',
          required: ['owner', 'labels', 'tags'],
          properties: {
            owner: { type: 'object', required: ['login'], properties: { login: { type: 'string' } } },
            labels: { type: 'array', minItems: 3, uniqueItems: true, items: { type: 'string' } },
            tags: { type: 'array', minItems: 2, uniqueItems: true, items: { enum: ['x', 'y', 'z'] } },
          },
        },
      },
    });
    expect(value).toEqual({
      body: { owner: { login: 'sample' }, labels: ['sample', 'sample1', 'sample2'], tags: ['x', 'y'] },
    });
    expect(validSample({ type: 'array', maxItems: 0, items: { type: 'string' } })).toEqual([]);
  });

  it('respects formats, numeric bounds and multipleOf', () => {
    for (const format of ['date-time', 'date', 'time', 'email', 'uri', 'uuid', 'ipv4', 'ipv6', 'hostname'])
      validSample({ type: 'string', format });
    expect(validSample({ type: 'integer', minimum: 1, maximum: 100 })).toBe(1);
    expect(validSample({ type: 'integer', exclusiveMinimum: 0 })).toBe(1);
    expect(validSample({ type: 'integer', maximum: -3 })).toBe(-3);
    expect(validSample({ type: 'integer', exclusiveMaximum: 0 })).toBe(-1);
    expect(validSample({ type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 0.5 })).toBe(0.25);
    expect(validSample({ type: 'integer', minimum: 7, multipleOf: 5 })).toBe(10);
    validSample({ type: 'number', minimum: 0.01, maximum: 0.99, multipleOf: 0.01 });
    expect(validSample({ type: 'string', minLength: 10, maxLength: 12 })).toBe('samplexxxx');
    expect(validSample({ type: 'string', maxLength: 3 })).toBe('sam');
  });

  it('skips an invalid default and null where a value is allowed', () => {
    expect(validSample({ type: 'string', enum: ['open', 'closed'], default: 'all' })).toBe('open');
    expect(validSample({ type: 'integer', minimum: 1, default: 0 })).toBe(1);
    expect(validSample({ type: 'integer', minimum: 1, default: 30 })).toBe(30);
    expect(validSample({ type: ['null', 'string'], enum: [null, 'a'] })).toBe('a');
    expect(validSample({ anyOf: [{ type: 'null' }, { type: 'integer', minimum: 2 }] })).toBe(2);
    // GitHub's workflow_id: oneOf integer | string; 1 is valid (only the integer variant)
    expect(validSample({ oneOf: [{ type: 'integer' }, { type: 'string' }] })).toBe(1);
    // two overlapping variants: oneOf needs a value of exactly one
    expect(validSample({ oneOf: [{ type: 'number' }, { type: 'integer' }, { type: 'string' }] })).toBe(
      'sample',
    );
  });

  it('gives maps with minProperties entries of their own', () => {
    expect(
      validSample({
        type: 'object',
        minProperties: 1,
        additionalProperties: { type: 'string', maxLength: 256 },
      }),
    ).toEqual({ sample: 'sample' });
    validSample({
      type: 'object',
      minProperties: 2,
      propertyNames: { pattern: '^[A-Z]+$' },
      additionalProperties: { type: 'integer' },
    });
  });

  it('merges allOf parts', () => {
    expect(
      validSample({
        allOf: [
          { type: 'object', required: ['a'], properties: { a: { type: 'string' } } },
          { required: ['b'], properties: { b: { type: 'integer', minimum: 3 } } },
        ],
      }),
    ).toEqual({ a: 'sample', b: 3 });
  });
});
