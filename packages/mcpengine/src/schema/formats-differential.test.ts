/**
 * Differential test of our `format` assertions against ajv-formats ("full" mode), on seeded mutations of valid
 * examples. Where the two disagree by design, the exclusion cites the RFC text we follow.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { FORMATS } from './formats.js';

// ajv-formats is CommonJS; under NodeNext typing its default import is the module object.
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020, options: { mode: 'full' }) => void;

const SEEDS: Record<string, string[]> = {
  'date-time': ['1963-06-19T08:30:06.283185Z', '1998-12-31T23:59:60Z', '1990-12-31T15:59:50.123-08:00'],
  date: ['1963-06-19', '2020-02-29', '2021-12-31'],
  time: ['08:30:06Z', '23:59:60Z', '08:30:06.283185+00:20'],
  email: ['joe.bloggs@example.com', 'te~st@example.co.uk'],
  hostname: ['www.example.com', 'xn--4gbwdl.xn--wgbh1c', 'a-b.c1'],
  ipv4: ['192.168.0.1', '10.0.0.255'],
  ipv6: ['::1', '1::d6:192.168.0.1', '1:2:3:4:5:6:7:8', 'fe80::1', '::ffff:10.0.0.1'],
  uuid: ['2eb8aa08-aa98-11ea-b4aa-73b441d16380', '00000000-0000-0000-0000-000000000000'],
  'json-pointer': ['/foo/bar~0', '/a~1b/0', ''],
  regex: ['^[a-z]+$', '(a|b)*c', '\\d{2,3}'],
};

const PIECES = ['', 'a', 'Z', '0', '9', ':', '/', '.', '-', '+', 'T', 'z', '%', '#', '?', '@', ' ', '[', ']'];
const MORE = ['{', '}', '~', '_', '"', '\\', 'é', '1', '6', '60', '(', ')', '*', '\n'];

function compilesWithoutUnicodeFlag(source: string): boolean {
  try {
    new RegExp(source);
    return true;
  } catch {
    return false;
  }
}

/** Disagreements where we follow the RFC and ajv-formats is more lenient or stricter. */
function knownDifference(format: string, value: string, ours: boolean): boolean {
  switch (format) {
    case 'date-time':
    case 'time':
      // RFC 3339 §5.6: time-numoffset = ("+" / "-") time-hour ":" time-minute — the colon is required, and
      // date-time = full-date "T" full-time (ajv-formats also accepts "-0800" and a space separator).
      return !ours && (/[+-]\d{4}$/.test(value) || / /.test(value));
    case 'email':
      // RFC 5321 §4.1.2: Domain = sub-domain *("." sub-domain), so a single-label domain is valid; ajv-formats
      // requires a dot.
      return ours && !/@.*\./.test(value);
    case 'regex':
      // We check regexes the way `pattern` is compiled: ECMA-262 with the `u` flag, whose stricter grammar
      // rejects things like a lone `]` or `{`, and unknown escapes. ajv-formats compiles without `u`.
      return !ours && compilesWithoutUnicodeFlag(value);
    case 'hostname':
      // RFC 1123 §2.1 host names are dot-separated labels; a trailing dot is DNS notation for the root, which
      // ajv-formats accepts and we do not.
      return !ours && value.endsWith('.');
    default:
      return false;
  }
}

describe('formats against ajv-formats', () => {
  it('agree on mutated examples, apart from documented differences', () => {
    let state = 20201212;
    const rand = (n: number): number => {
      state = (Math.imul(state, 1103515245) + 12345) >>> 0;
      return state % n;
    };
    const ajv = new Ajv2020({ strict: false });
    addFormats(ajv, { mode: 'full' });
    const mismatches: string[] = [];
    let cases = 0;
    let known = 0;
    for (const [format, seeds] of Object.entries(SEEDS)) {
      const theirs = ajv.compile({ type: 'string', format });
      const ours = FORMATS[format] as (value: string) => boolean;
      for (let k = 0; k < 3000; k++) {
        let value = seeds[rand(seeds.length)] as string;
        const edits = rand(3);
        for (let e = 0; e < edits; e++) {
          const at = rand(value.length + 1);
          const pool = rand(4) === 0 ? MORE : PIECES;
          const piece = pool[rand(pool.length)] as string;
          const op = rand(3);
          if (op === 0) value = value.slice(0, at) + piece + value.slice(at);
          else if (op === 1) value = value.slice(0, at) + value.slice(at + 1);
          else value = value.slice(0, at) + piece + value.slice(at + 1);
        }
        cases++;
        const a = ours(value);
        const b = theirs(value) as boolean;
        if (a === b) continue;
        if (knownDifference(format, value, a)) known++;
        else mismatches.push(`${format} ${JSON.stringify(value)}: ours ${a}, ajv-formats ${b}`);
      }
    }
    console.log(`formats: ${cases} cases, ${known} documented differences, ${mismatches.length} mismatches`);
    const byFormat = new Map<string, string[]>();
    for (const m of mismatches) {
      const f = m.split(' ')[0] as string;
      byFormat.set(f, [...(byFormat.get(f) ?? []), m].slice(0, 4));
    }
    expect([...byFormat.values()].flat()).toEqual([]);
  });
});
