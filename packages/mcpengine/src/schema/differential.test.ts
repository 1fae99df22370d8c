/**
 * Differential test: our `is()` against Ajv on thousands of pseudo-random schemas and instances, for both
 * dialects. Generation is seeded, so a failure reproduces exactly; the message prints the schema and instance.
 */
import { Ajv } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { compileSchema } from './compile.js';
import type { Dialect } from './types.js';

/** mulberry32: tiny, fast, deterministic. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
type Schema = boolean | { [k: string]: unknown };

class Generator {
  private readonly rand: () => number;
  constructor(
    seed: number,
    private readonly dialect: Dialect,
  ) {
    this.rand = prng(seed);
  }
  int(n: number): number {
    return Math.floor(this.rand() * n);
  }
  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)] as T;
  }
  chance(p: number): boolean {
    return this.rand() < p;
  }

  // Values where binary floating point is exact, so Ajv's naive multipleOf agrees with ours.
  static readonly NUMBERS = [-2, -1, 0, 1, 2, 3, 4, 5, 6, 10, 0.5, 1.5, -0.5, 2.25];
  static readonly STRINGS = [
    '',
    'a',
    'b',
    'ab',
    'ba',
    'abc',
    'aaa',
    '1',
    'a1',
    '12',
    '😀',
    'a😀',
    'x-y',
    'A',
  ];
  static readonly KEYS = ['a', 'b', 'c', 'd', 'aa', 'ba', 'x1'];
  static readonly TYPES = ['null', 'boolean', 'integer', 'number', 'string', 'array', 'object'];
  static readonly PATTERNS = ['^a', 'b$', '^[a-c]*$', 'a+', '\\d', '^.$', '\\p{L}', '^x'];

  value(depth = 0): Json {
    const kind = this.int(depth > 2 ? 4 : 7);
    switch (kind) {
      case 0:
        return null;
      case 1:
        return this.chance(0.5);
      case 2:
        return this.pick(Generator.NUMBERS);
      case 3:
        return this.pick(Generator.STRINGS);
      case 4:
      case 5: {
        const n = this.int(5);
        return Array.from({ length: n }, () => this.value(depth + 1));
      }
      default: {
        const obj: { [k: string]: Json } = {};
        const n = this.int(5);
        for (let i = 0; i < n; i++) obj[this.pick(Generator.KEYS)] = this.value(depth + 1);
        return obj;
      }
    }
  }

  keySubset(): string[] {
    return Generator.KEYS.filter(() => this.chance(0.3)).slice(0, 3);
  }

  /** A subschema; `descended` says an instance-descending keyword lies between it and the root. */
  schema(depth: number, descended: boolean): Schema {
    if (this.chance(0.06)) return this.chance(0.7);
    const is2020 = this.dialect === '2020-12';
    const s: { [k: string]: unknown } = {};
    const leaf = depth >= 3;
    const count = 1 + this.int(3);
    for (let k = 0; k < count; k++) {
      const choice = this.int(leaf ? 12 : 30);
      const sub = (d = descended): Schema => this.schema(depth + 1, d);
      switch (choice) {
        case 0:
          s['type'] = this.chance(0.7)
            ? this.pick(Generator.TYPES)
            : [this.pick(Generator.TYPES), this.pick(['null', 'string'])];
          if (Array.isArray(s['type']) && s['type'][0] === s['type'][1]) s['type'] = s['type'][0];
          break;
        case 1: {
          // draft-07's meta-schema wants enum values unique.
          const values = Array.from({ length: 1 + this.int(3) }, () => this.value(2));
          s['enum'] = values.filter(
            (v, i) => values.findIndex((w) => JSON.stringify(w) === JSON.stringify(v)) === i,
          );
          break;
        }
        case 2:
          s['const'] = this.value(1);
          break;
        case 3:
          s[this.pick(['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum'])] = this.pick(
            Generator.NUMBERS,
          );
          break;
        case 4:
          s['multipleOf'] = this.pick([1, 2, 3, 0.5, 0.25]);
          break;
        case 5:
          s[this.pick(['minLength', 'maxLength'])] = this.int(4);
          break;
        case 6:
          s['pattern'] = this.pick(Generator.PATTERNS);
          break;
        case 7:
          s[this.pick(['minItems', 'maxItems'])] = this.int(4);
          break;
        case 8:
          s['uniqueItems'] = this.chance(0.8);
          break;
        case 9:
          s[this.pick(['minProperties', 'maxProperties'])] = this.int(4);
          break;
        case 10:
          s['required'] = this.keySubset();
          break;
        case 11:
          s['type'] = this.pick(['object', 'array', 'string', 'number']);
          break;
        case 12:
          if (is2020) {
            s['prefixItems'] = Array.from({ length: 1 + this.int(2) }, () => sub(true));
          } else {
            s['items'] = Array.from({ length: 1 + this.int(2) }, () => sub(true));
            if (this.chance(0.5)) s['additionalItems'] = sub(true);
          }
          break;
        case 13:
          s['items'] = sub(true);
          break;
        case 14:
          s['contains'] = sub(true);
          if (is2020 && this.chance(0.4)) s[this.pick(['minContains', 'maxContains'])] = this.int(3);
          break;
        case 15: {
          const props: { [k: string]: Schema } = {};
          for (const key of this.keySubset()) props[key] = sub(true);
          s['properties'] = props;
          break;
        }
        case 16:
          s['patternProperties'] = { [this.pick(['^a', 'b', '1$'])]: sub(true) };
          break;
        case 17:
          s['additionalProperties'] = this.chance(0.4) ? false : sub(true);
          break;
        case 18:
          if (is2020) s['dependentRequired'] = { [this.pick(Generator.KEYS)]: this.keySubset() };
          else
            s['dependencies'] = { [this.pick(Generator.KEYS)]: this.chance(0.5) ? this.keySubset() : sub() };
          break;
        case 19:
          if (is2020) s['dependentSchemas'] = { [this.pick(Generator.KEYS)]: sub() };
          else s['propertyNames'] = { maxLength: 1 };
          break;
        case 20:
          s['propertyNames'] = this.pick([
            { pattern: '^[a-c]' },
            { maxLength: 1 },
            { enum: ['a', 'b'] },
            false,
          ]);
          break;
        case 21:
        case 22:
          s[this.pick(['allOf', 'anyOf', 'oneOf'])] = Array.from({ length: 1 + this.int(3) }, () => sub());
          break;
        case 23:
          s['not'] = sub();
          break;
        case 24:
          s['if'] = sub();
          if (this.chance(0.8)) s['then'] = sub();
          if (this.chance(0.8)) s['else'] = sub();
          break;
        case 25:
        case 26:
          if (is2020)
            s[this.pick(['unevaluatedProperties', 'unevaluatedItems'])] = this.chance(0.5)
              ? false
              : sub(true);
          else s['additionalProperties'] = false;
          break;
        case 27:
          // draft-07 ignores `$ref` siblings; Ajv does not, so there the ref gets an object of its own.
          if (is2020) s['$ref'] = this.pick(['#/$defs/d0', '#/$defs/d1']);
          else return { $ref: this.pick(['#/definitions/d0', '#/definitions/d1']) };
          break;
        case 28:
          // Recursion is only safe (terminating) below an instance-descending keyword.
          if (descended) {
            if (is2020) s['$ref'] = '#';
            else return { $ref: '#' };
          }
          break;
        default:
          s['format'] = this.pick(['date', 'ipv4', 'uuid', 'email']);
      }
    }
    return s;
  }

  document(): Schema {
    const root = this.schema(0, false);
    if (typeof root === 'boolean') return root;
    const defsKey = this.dialect === '2020-12' ? '$defs' : 'definitions';
    // Definitions are leaves (no refs), so refs into them cannot loop.
    const leafGen = (): Schema => this.schema(3, false);
    return { ...root, [defsKey]: { d0: leafGen(), d1: leafGen() } };
  }

  instance(): Json {
    if (this.chance(0.15)) {
      return this.pick([
        '2024-02-29',
        '2023-02-29',
        '10.0.0.1',
        '10.0.0.256',
        'a@b.co',
        '@b.co',
        '123e4567-e89b-12d3-a456-426614174000',
        '123e4567-e89b-12d3-a456',
      ]);
    }
    return this.value();
  }
}

function ajvFor(dialect: Dialect) {
  const options = { strict: false, allErrors: false, validateFormats: true, formats: FORMATS_FOR_AJV };
  return dialect === '2020-12' ? new Ajv2020(options) : new Ajv(options);
}

// The formats the generator uses, with definitions that agree with ours on the generated strings.
const FORMATS_FOR_AJV = {
  date: /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/,
  ipv4: /^((25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/,
  uuid: /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i,
  email: /^[^@\s]+@[a-z0-9.-]+\.[a-z]+$/i,
};

const containsKey = (value: unknown, key: string): boolean =>
  typeof value === 'object' && value !== null && JSON.stringify(value).includes(JSON.stringify(key) + ':');
const containsEmptyArray = (value: unknown): boolean =>
  Array.isArray(value)
    ? value.length === 0 || value.some(containsEmptyArray)
    : typeof value === 'object' && value !== null && Object.values(value).some(containsEmptyArray);
const containsArray = (value: unknown): boolean =>
  Array.isArray(value) ||
  (typeof value === 'object' && value !== null && Object.values(value).some(containsArray));

/**
 * Cases where Ajv 8.20 is known to deviate from the spec, each with the spec text it contradicts. Our side of
 * every one of them is covered by spec-derived unit tests instead (keywords.test.ts, unevaluated.test.ts).
 */
function ajvDeviates(schema: Schema, instance: Json): boolean {
  // 2023-02-29 is not a valid RFC 3339 full-date ("date-mday 01-28, 01-29, 01-30, 01-31 based on month/year");
  // the simple regex we hand Ajv cannot know that, so day-of-month checks live in formats.test.ts.
  if (instance === '2023-02-29') return true;
  // Ajv's generated code for `contains` keeps its result in a `var` that is not reset when the array is
  // empty, so [] can pass when an earlier array passed or a tuple `items`/`prefixItems` set it, e.g.
  // {items: {contains: {minProperties: 1}}} accepts [[{"b": 1}], []]. Spec (2020-12 validation §10.3.1.3,
  // draft-07 §6.4.6): "An array instance is valid against "contains" if at least one of its elements is valid".
  // The same stale variable lets a tuple `items`/`prefixItems` beside `contains` decide it, e.g. draft-07
  // {not: {items: [true, {type: 'string'}], contains: {required: ['x']}}} rejects [{}].
  if (containsKey(schema, 'contains')) {
    if (containsEmptyArray(instance)) return true;
    const tuple = containsKey(schema, 'prefixItems') || JSON.stringify(schema).includes('"items":[');
    if (tuple && containsArray(instance)) return true;
  }
  const unevaluated = containsKey(schema, 'unevaluatedItems') || containsKey(schema, 'unevaluatedProperties');
  if (unevaluated && typeof instance === 'object' && instance !== null) {
    // Ajv lets annotations from *failing* subschemas count: failing anyOf/oneOf branches (items), and a failing
    // `if` when `then` is present (items and properties), e.g. {if: {additionalProperties: false}, then: true,
    // unevaluatedProperties: false} accepts {"a": 1}. 2020-12 core §7.7.1.3: "Schema objects that produce a
    // false assertion result MUST NOT produce any annotation results, whether from their own keywords or from
    // keywords in subschemas."
    if (containsKey(schema, 'anyOf') || containsKey(schema, 'oneOf') || containsKey(schema, 'if'))
      return true;
    // Ajv counts every item as evaluated once `contains` ran. 2020-12 core §10.3.1.3: "contains" produces "an
    // array of the indexes to which this keyword validates successfully"; §11.2: unevaluatedItems covers the rest.
    if (containsKey(schema, 'contains')) return true;
    // Ajv treats every item as evaluated behind a recursive `$ref: '#'`, e.g. {properties: {c: {$ref: '#',
    // unevaluatedItems: false}}} accepts {"c": [1]} although the root only has `properties`. 2020-12 core §11.2:
    // unevaluatedItems applies to items not covered by annotation results of adjacent/in-place subschemas.
    if (containsKey(schema, 'unevaluatedItems') && JSON.stringify(schema).includes('"$ref":"#"')) return true;
  }
  return false;
}

function runDifferential(dialect: Dialect, seed: number, schemas: number, instancesPerSchema: number) {
  const gen = new Generator(seed, dialect);
  const ajv = ajvFor(dialect);
  const stats = {
    cases: 0,
    valid: 0,
    invalid: 0,
    skipped: 0,
    mismatches: [] as string[],
    ajvCrashes: [] as string[],
  };
  for (let i = 0; i < schemas; i++) {
    let doc = gen.document();
    if (dialect === 'draft-07' && typeof doc === 'object')
      doc = { $schema: 'http://json-schema.org/draft-07/schema#', ...doc };
    const ours = compileSchema(doc);
    const theirs = ajv.compile(doc);
    for (let j = 0; j < instancesPerSchema; j++) {
      const instance = gen.instance();
      if (ajvDeviates(doc, instance)) {
        stats.skipped++;
        continue;
      }
      stats.cases++;
      let expected: boolean;
      try {
        expected = theirs(instance) as boolean;
      } catch (error) {
        // Ajv 8.20 sometimes throws inside its generated code (e.g. "Cannot set properties of undefined" while
        // tracking evaluated properties for `patternProperties` under `if`/`else`). No verdict to compare.
        stats.ajvCrashes.push(
          `${(error as Error).message}\nschema ${JSON.stringify(doc)}\ninstance ${JSON.stringify(instance)}`,
        );
        continue;
      }
      const actual = ours.is(instance);
      if (expected) stats.valid++;
      else stats.invalid++;
      // validate() must agree with is() too.
      const full = ours.validate(instance);
      if (actual !== expected || full.valid !== actual) {
        stats.mismatches.push(
          `schema ${JSON.stringify(doc)}\ninstance ${JSON.stringify(instance)}\najv ${expected} ours ${actual} validate ${full.valid}`,
        );
      }
    }
  }
  return stats;
}

// DIFF_SCHEMAS / DIFF_SEED widen a local run, e.g. `DIFF_SCHEMAS=50000 DIFF_SEED=9 npx vitest run …`.
const SCHEMAS = Number(process.env['DIFF_SCHEMAS'] ?? 1500);
const SEED = Number(process.env['DIFF_SEED'] ?? 0);

describe.each<Dialect>(['2020-12', 'draft-07'])('differential against Ajv (%s)', (dialect) => {
  it(
    'agrees on thousands of random schema/instance pairs',
    () => {
      const stats = runDifferential(dialect, (dialect === '2020-12' ? 2020 : 7) + SEED, SCHEMAS, 12);
      console.log(
        `${dialect}: ${stats.cases} cases (${stats.valid} valid, ${stats.invalid} invalid), ` +
          `${stats.skipped} skipped as known Ajv deviations, ${stats.ajvCrashes.length} Ajv crashes, ` +
          `${stats.mismatches.length} mismatches`,
      );
      expect(stats.ajvCrashes.length).toBeLessThan(stats.cases / 1000);
      expect(stats.mismatches.slice(0, 3)).toEqual([]);
      expect(stats.cases).toBeGreaterThan(SCHEMAS * 10);
      // Guard against a degenerate generator: both outcomes must be well represented.
      expect(stats.valid).toBeGreaterThan(stats.cases * 0.2);
      expect(stats.invalid).toBeGreaterThan(stats.cases * 0.2);
    },
    60_000 + SCHEMAS * 10,
  );
});

function typedValue(gen: Generator, type: string | undefined): Json {
  switch (type) {
    case 'string':
      return gen.pick(Generator.STRINGS);
    case 'integer':
      return gen.pick([-2, -1, 0, 1, 2, 3, 5, 10]);
    case 'number':
      return gen.pick(Generator.NUMBERS);
    case 'boolean':
      return gen.chance(0.5);
    default:
      return null;
  }
}

/** Object schemas shaped like tool inputs: the fast path's territory (inline leaves, bit-mask `required`). */
describe('differential against Ajv (tool-shaped objects)', () => {
  it('agrees on typed leaves, required and additionalProperties', () => {
    const gen = new Generator(77 + SEED, '2020-12');
    const ajv = ajvFor('2020-12');
    const leaf = (): Schema => {
      const type = gen.pick(['string', 'integer', 'number', 'boolean', 'null']);
      const s: { [k: string]: unknown } = { type, description: 'a leaf' };
      if ((type === 'integer' || type === 'number') && gen.chance(0.6)) {
        s[gen.pick(['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum'])] = gen.pick(
          Generator.NUMBERS,
        );
      }
      if (type === 'string' && gen.chance(0.6)) s[gen.pick(['minLength', 'maxLength'])] = gen.int(3);
      return gen.chance(0.1) ? { ...s, pattern: '^a' } : s;
    };
    let cases = 0;
    let valid = 0;
    const mismatches: string[] = [];
    for (let i = 0; i < 1500; i++) {
      const properties: { [k: string]: Schema } = {};
      for (const key of Generator.KEYS) if (gen.chance(0.5)) properties[key] = leaf();
      const required = Object.keys(properties).filter(() => gen.chance(0.4));
      if (gen.chance(0.1)) required.push(gen.pick(Generator.KEYS));
      const schema: { [k: string]: unknown } = {
        type: 'object',
        properties,
        required: [...new Set(required)],
      };
      if (gen.chance(0.7)) schema['additionalProperties'] = gen.chance(0.7) ? false : leaf();
      const ours = compileSchema(schema);
      const theirs = ajv.compile(schema);
      for (let j = 0; j < 12; j++) {
        // Mostly well-typed values for declared properties, so that valid instances are common.
        const instance: { [k: string]: Json } = {};
        for (const key of Generator.KEYS) {
          const declared = properties[key] as { type?: string } | undefined;
          if (declared === undefined) {
            if (gen.chance(0.04)) instance[key] = gen.value(2);
          } else if (gen.chance(0.9)) {
            instance[key] = gen.chance(0.85) ? typedValue(gen, declared.type) : gen.value(2);
          }
        }
        cases++;
        if (theirs(instance)) valid++;
        if (ours.is(instance) !== theirs(instance)) {
          mismatches.push(`schema ${JSON.stringify(schema)}\ninstance ${JSON.stringify(instance)}`);
        }
      }
    }
    console.log(`tool-shaped: ${cases} cases (${valid} valid), ${mismatches.length} mismatches`);
    expect(mismatches.slice(0, 3)).toEqual([]);
    expect(cases).toBe(18_000);
    expect(valid).toBeGreaterThan(cases * 0.15);
  });
});
