/**
 * Schema-valid sample arguments for a tool: required properties only, each the simplest value its schema
 * allows (`const`, an `enum` value, a valid default, a value of the format or pattern, the bounds). Used by
 * generated smoke tests and by the mock-server tests. Wherever the schema offers a choice (`anyOf`/`oneOf`
 * variants, enum values, several types, defaults) each candidate is checked with the project's own validator
 * (`mcpengine/schema`) and the first valid one is kept; callers still check the result before using it, and a
 * result that does not validate is a sampler bug, not the API's.
 */
import { compileSchema, type JsonSchema } from 'mcpengine/schema';

type Schema = Record<string, unknown>;

function isObject(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const FORMAT_SAMPLES: Record<string, string> = {
  'date-time': '2024-01-01T00:00:00Z',
  date: '2024-01-01',
  time: '00:00:00Z',
  duration: 'P1D',
  email: 'user@example.com',
  'idn-email': 'user@example.com',
  uri: 'https://example.com/',
  iri: 'https://example.com/',
  'uri-reference': 'https://example.com/',
  'iri-reference': 'https://example.com/',
  'uri-template': 'https://example.com/{id}',
  uuid: '00000000-0000-4000-8000-000000000000',
  ipv4: '127.0.0.1',
  ipv6: '::1',
  hostname: 'example.com',
  'idn-hostname': 'example.com',
  'json-pointer': '/sample',
  'relative-json-pointer': '0',
  regex: '^sample$',
};

/** Compiled once per schema object; a schema our validator refuses is not held against a sample. */
const validators = new WeakMap<Schema, (value: unknown) => boolean>();

function matches(schema: unknown, value: unknown): boolean {
  if (!isObject(schema)) return schema !== false;
  let check = validators.get(schema);
  if (check === undefined) {
    try {
      const validator = compileSchema(schema as JsonSchema);
      check = (v) => validator.is(v);
    } catch {
      check = () => true;
    }
    validators.set(schema, check);
  }
  return check(value);
}

// --- Regular expressions -------------------------------------------------------------------------------------

/** A parsed pattern: alternatives of sequences of quantified atoms. */
type Alternatives = Piece[][];
interface Piece {
  readonly atom: Atom;
  readonly min: number;
  readonly max: number;
}
type Atom = { kind: 'text'; text: string } | { kind: 'group'; alternatives: Alternatives };

const CLASS_CANDIDATES = 'a0Az_-. 1bB9x@/:+';

/** Characters matching an escape outside a class (`\d`, `\w`, `\.`…); undefined for backreferences. */
function escapeSample(e: string): string | undefined {
  switch (e) {
    case 'd':
      return '1';
    case 'D':
    case 'W':
    case 'S':
      return e === 'S' ? 'a' : e === 'D' ? 'a' : '-';
    case 'w':
      return 'a';
    case 's':
      return ' ';
    case 'n':
      return '\n';
    case 't':
      return '\t';
    case 'r':
      return '\r';
    case 'b':
    case 'B':
      return '';
    default:
      return /[1-9]/.test(e) ? undefined : e;
  }
}

class PatternParser {
  i = 0;
  constructor(readonly src: string) {}

  alternatives(): Alternatives | undefined {
    const out: Alternatives = [];
    let sequence: Piece[] = [];
    while (this.i < this.src.length) {
      const c = this.src[this.i]!;
      if (c === ')') break;
      if (c === '|') {
        out.push(sequence);
        sequence = [];
        this.i++;
        continue;
      }
      const atom = this.atom();
      if (atom === undefined) return undefined;
      const quantifier = this.quantifier();
      if (quantifier === undefined) return undefined;
      sequence.push({ atom, ...quantifier });
    }
    out.push(sequence);
    return out;
  }

  quantifier(): { min: number; max: number } | undefined {
    const q = this.src[this.i];
    let result = { min: 1, max: 1 };
    if (q === '*' || q === '+' || q === '?') {
      this.i++;
      result = { min: q === '+' ? 1 : 0, max: q === '?' ? 1 : Infinity };
    } else if (q === '{') {
      const m = /^\{(\d+)(,(\d*))?\}/.exec(this.src.slice(this.i));
      if (m === null) return { min: 1, max: 1 }; // a literal "{" (tolerated outside Unicode mode)
      this.i += m[0].length;
      const min = Number(m[1]);
      result = { min, max: m[2] === undefined ? min : m[3] === '' ? Infinity : Number(m[3]) };
    }
    if (this.src[this.i] === '?' || this.src[this.i] === '+') this.i++; // lazy or possessive
    return result;
  }

  atom(): Atom | undefined {
    const c = this.src[this.i]!;
    if (c === '^' || c === '$') {
      this.i++;
      return { kind: 'text', text: '' };
    }
    if (c === '\\') {
      const e = this.src[this.i + 1];
      if (e === undefined) return undefined;
      if ((e === 'p' || e === 'P') && this.src[this.i + 2] === '{') {
        const end = this.src.indexOf('}', this.i);
        if (end === -1) return undefined;
        const name = this.src.slice(this.i + 3, end);
        this.i = end + 1;
        return { kind: 'text', text: e === 'P' ? '-' : /^(N|Nd|Number)/.test(name) ? '1' : 'a' };
      }
      if (e === 'u' || e === 'x') {
        const m = /^\\(?:u\{([0-9a-fA-F]+)\}|u([0-9a-fA-F]{4})|x([0-9a-fA-F]{2}))/.exec(
          this.src.slice(this.i),
        );
        if (m !== null) {
          this.i += m[0].length;
          return { kind: 'text', text: String.fromCodePoint(parseInt(m[1] ?? m[2] ?? m[3]!, 16)) };
        }
      }
      this.i += 2;
      const text = escapeSample(e);
      return text === undefined ? undefined : { kind: 'text', text };
    }
    if (c === '[') return this.characterClass();
    if (c === '(') {
      this.i++;
      if (this.src.startsWith('?:', this.i)) this.i += 2;
      else if (/^\?<[A-Za-z_$]/.test(this.src.slice(this.i))) this.i = this.src.indexOf('>', this.i) + 1;
      else if (this.src[this.i] === '?') {
        // Lookarounds constrain the neighbours; they generate nothing here, and the final test judges.
        const close = this.skipGroup();
        if (close === undefined) return undefined;
        return { kind: 'text', text: '' };
      }
      const alternatives = this.alternatives();
      if (alternatives === undefined || this.src[this.i] !== ')') return undefined;
      this.i++;
      return { kind: 'group', alternatives };
    }
    if (c === '.') {
      this.i++;
      return { kind: 'text', text: 'a' };
    }
    if ('*+?'.includes(c)) return undefined;
    this.i++;
    return { kind: 'text', text: c };
  }

  /** Skips a group from just after its "(" to just after its ")". */
  skipGroup(): true | undefined {
    let depth = 1;
    for (; this.i < this.src.length; this.i++) {
      const c = this.src[this.i];
      if (c === '\\') this.i++;
      else if (c === '(') depth++;
      else if (c === ')' && --depth === 0) {
        this.i++;
        return true;
      }
    }
    return undefined;
  }

  /** A character of the class, found by testing candidates against the class itself. */
  characterClass(): Atom | undefined {
    let j = this.i + 1;
    if (this.src[j] === '^') j++;
    if (this.src[j] === ']') j++;
    for (; j < this.src.length && this.src[j] !== ']'; j++) if (this.src[j] === '\\') j++;
    if (j >= this.src.length) return undefined;
    const text = this.src.slice(this.i, j + 1);
    this.i = j + 1;
    let klass: RegExp;
    try {
      klass = new RegExp(`^${text}$`, 'u');
    } catch {
      return undefined;
    }
    const body = text.slice(1, -1);
    const candidates = [
      ...(body.startsWith('^')
        ? []
        : [body[0] === '\\' ? (escapeSample(body[1] ?? '') ?? '') : (body[0] ?? '')]),
      ...CLASS_CANDIDATES,
    ];
    const found = candidates.find((candidate) => candidate.length > 0 && klass.test(candidate));
    return found === undefined ? undefined : { kind: 'text', text: found };
  }
}

/**
 * A string per alternative, stretched towards `minLength`: from the last piece backwards, a group is asked for
 * the missing length itself, an optional piece is made to appear, a repeatable one repeated more (always within
 * its quantifier, so the string keeps the pattern's shape).
 */
function generate(alternatives: Alternatives, minLength: number): string[] {
  const unitOf = (atom: Atom, length: number) =>
    atom.kind === 'text' ? atom.text : (generate(atom.alternatives, length)[0] ?? '');
  return alternatives.map((sequence) => {
    const counts = sequence.map((piece) => piece.min);
    const units = sequence.map((piece) => unitOf(piece.atom, 0));
    const build = () => sequence.map((_, k) => units[k]!.repeat(counts[k]!)).join('');
    let text = build();
    for (let k = sequence.length - 1; k >= 0 && text.length < minLength; k--) {
      const piece = sequence[k]!;
      if (piece.max === 0) continue;
      if (counts[k] === 0) counts[k] = 1;
      if (piece.atom.kind === 'group')
        units[k] = unitOf(piece.atom, units[k]!.length + minLength - build().length);
      text = build();
      const unit = units[k]!;
      if (text.length < minLength && unit.length > 0 && piece.max > counts[k]!) {
        counts[k] = Math.min(piece.max, counts[k]! + Math.ceil((minLength - text.length) / unit.length));
        text = build();
      }
    }
    return text;
  });
}

/**
 * A string matching a regular expression (Unicode mode, as JSON Schema's `pattern`): literals, escapes, classes,
 * groups and alternatives (each tried), quantifiers (the minimum, stretched for `minLength`). Undefined when
 * the pattern uses anything else (backreferences) or no candidate matches.
 */
export function sampleForPattern(pattern: string, minLength = 0, maxLength = Infinity): string | undefined {
  let regex: RegExp;
  try {
    regex = new RegExp(pattern, 'u');
  } catch {
    return undefined;
  }
  const parsed = new PatternParser(pattern).alternatives();
  if (parsed === undefined) return undefined;
  const fits = (s: string) => s.length >= minLength && s.length <= maxLength && regex.test(s);
  const generated = generate(parsed, minLength);
  // An unanchored pattern (AWS's `^arn:aws:gamesparks:` with minLength 20) matches with any text around it.
  const padded = generated.flatMap((s) => {
    const fill = 'a'.repeat(Math.max(0, minLength - s.length));
    return fill === '' ? [] : [`${s}${fill}`, `${fill}${s}`];
  });
  // Lookaheads generate nothing here; a password-like rule (AWS Directory Service: 8–64 characters with a digit,
  // an upper and a lower case letter, or a symbol) is met by a string that has a bit of everything.
  const mixed = 'Sample-123'.padEnd(minLength, 'x');
  return (
    [...generated, ...padded, mixed].find(fits) ??
    generate(parsed, 0).find((s) => regex.test(s) && s.length <= maxLength)
  );
}

// --- Values ----------------------------------------------------------------------------------------------------

/** Two schemas as one (an `allOf` of plain parts): properties merged, `required` united, the rest the later's. */
function merge(a: Schema, b: Schema): Schema {
  const out: Schema = { ...a, ...b };
  if (isObject(a['properties']) && isObject(b['properties'])) {
    const properties: Schema = { ...a['properties'] };
    for (const [name, schema] of Object.entries(b['properties']))
      properties[name] =
        isObject(properties[name]) && isObject(schema) ? merge(properties[name], schema) : schema;
    out['properties'] = properties;
  }
  if (Array.isArray(a['required']) && Array.isArray(b['required']))
    out['required'] = [...new Set([...(a['required'] as unknown[]), ...(b['required'] as unknown[])])];
  if (a['type'] !== undefined && b['type'] !== undefined) {
    const left = Array.isArray(a['type']) ? a['type'] : [a['type']];
    const right = Array.isArray(b['type']) ? b['type'] : [b['type']];
    const both = left.filter(
      (t) => right.includes(t) || (t === 'integer' && right.includes('number')),
    ) as unknown[];
    for (const t of right) if (t === 'integer' && left.includes('number') && !both.includes(t)) both.push(t);
    out['type'] = both.length === 1 ? both[0] : both.length > 0 ? both : b['type'];
  }
  return out;
}

function typesOf(schema: Schema): string[] {
  const raw = schema['type'];
  if (Array.isArray(raw)) {
    const types = raw.filter((t): t is string => typeof t === 'string');
    // null last: a real value exercises the call more, and null only where nothing else is allowed
    return [...types.filter((t) => t !== 'null'), ...types.filter((t) => t === 'null')];
  }
  if (typeof raw === 'string') return [raw];
  if (isObject(schema['properties']) || Array.isArray(schema['required'])) return ['object'];
  if (schema['items'] !== undefined || schema['prefixItems'] !== undefined) return ['array'];
  if (['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'].some((k) => k in schema))
    return ['number'];
  return ['string'];
}

function sampleNumber(schema: Schema, integer: boolean): number {
  const num = (key: string) => (typeof schema[key] === 'number' ? (schema[key] as number) : undefined);
  const step = num('multipleOf') !== undefined && num('multipleOf')! > 0 ? num('multipleOf')! : undefined;
  let low = num('minimum');
  const exclusiveLow = num('exclusiveMinimum');
  if (exclusiveLow !== undefined && (low === undefined || exclusiveLow >= low))
    low = integer ? Math.floor(exclusiveLow) + 1 : exclusiveLow + (step ?? 1);
  let high = num('maximum');
  const exclusiveHigh = num('exclusiveMaximum');
  if (exclusiveHigh !== undefined && (high === undefined || exclusiveHigh <= high))
    high = integer ? Math.ceil(exclusiveHigh) - 1 : exclusiveHigh - (step ?? 1);
  if (integer) {
    if (low !== undefined) low = Math.ceil(low);
    if (high !== undefined) high = Math.floor(high);
  }
  // A positive value where allowed: ids and counts are rarely 0.
  let value = low ?? (high !== undefined && high < 1 ? high : 1);
  if (high !== undefined && value > high) {
    // An exclusive pair closer than one step: a number between them.
    value =
      !integer && exclusiveLow !== undefined && exclusiveHigh !== undefined
        ? (exclusiveLow + exclusiveHigh) / 2
        : high;
  }
  if (step !== undefined) {
    const up = Math.ceil(value / step) * step;
    value = high !== undefined && up > high ? Math.floor(high / step) * step : up;
    if (!Number.isInteger(value)) value = Number(value.toPrecision(12));
  }
  return value;
}

function sampleString(schema: Schema): string {
  const minLength = typeof schema['minLength'] === 'number' ? schema['minLength'] : 0;
  const maxLength = typeof schema['maxLength'] === 'number' ? schema['maxLength'] : Infinity;
  const candidates: string[] = [];
  const format = typeof schema['format'] === 'string' ? FORMAT_SAMPLES[schema['format']] : undefined;
  if (format !== undefined) candidates.push(format);
  if (typeof schema['pattern'] === 'string') {
    const matching = sampleForPattern(schema['pattern'], minLength, maxLength);
    if (matching !== undefined) candidates.push(matching);
  }
  candidates.push('sample'.padEnd(Math.max(minLength, 1), 'x').slice(0, Math.max(maxLength, 0)));
  return candidates.find((candidate) => matches(schema, candidate)) ?? candidates[0]!;
}

/** Another value of the same schema, for `uniqueItems` arrays: index `n` gives the n-th variation. */
function variation(schema: unknown, base: unknown, n: number): unknown {
  if (n === 0 || !isObject(schema)) return base;
  const candidates: unknown[] = [];
  if (Array.isArray(schema['enum'])) candidates.push(schema['enum'][n]);
  if (typeof base === 'string') {
    candidates.push(`${base}${n}`, `${base.slice(0, -1)}${n}`);
    // a longer string of the pattern (`^[A-Z]+$`: A, AA…)
    if (typeof schema['pattern'] === 'string')
      candidates.push(sampleForPattern(schema['pattern'], base.length + n));
  }
  if (typeof base === 'number') {
    const step = typeof schema['multipleOf'] === 'number' ? schema['multipleOf'] : 1;
    candidates.push(base + n * step, base - n * step);
  }
  if (typeof base === 'boolean') candidates.push(n === 1 ? !base : undefined);
  if (isObject(base)) {
    const properties = isObject(schema['properties']) ? schema['properties'] : {};
    for (const [name, value] of Object.entries(base))
      candidates.push({ ...base, [name]: variation(properties[name], value, n) });
  }
  const same = JSON.stringify(base);
  return candidates.find((c) => c !== undefined && JSON.stringify(c) !== same && matches(schema, c)) ?? base;
}

export function sampleValue(schema: unknown, depth = 0): unknown {
  if (!isObject(schema) || depth > 12) return 'sample';
  if (schema['const'] !== undefined) return schema['const'];
  const allowed = schema['enum'];
  if (Array.isArray(allowed) && allowed.length > 0) {
    // A non-null value where one is allowed (a real value exercises the call more).
    const ordered = [...allowed.filter((v) => v !== null), ...allowed.filter((v) => v === null)];
    return ordered.find((v) => matches(schema, v)) ?? ordered[0];
  }
  if (Array.isArray(schema['allOf']) && schema['allOf'].length > 0) {
    const rest = { ...schema };
    delete rest['allOf'];
    return sampleValue((schema['allOf'] as unknown[]).filter(isObject).reduce(merge, rest), depth + 1);
  }
  for (const key of ['anyOf', 'oneOf'] as const) {
    const variants = schema[key];
    if (!Array.isArray(variants) || variants.length === 0) continue;
    const rest = { ...schema };
    delete rest[key];
    // Each variant with the keywords beside it (an object's required properties beside `anyOf: [{required}]`),
    // until one gives a value of the whole schema (a oneOf value must match exactly one variant). A variant
    // that only allows null comes last.
    const isNull = (variant: Schema) => variant['type'] === 'null';
    const ordered = [
      ...variants.filter(isObject).filter((v) => !isNull(v)),
      ...variants.filter(isObject).filter(isNull),
    ];
    let first: unknown;
    for (const variant of ordered) {
      const candidate = sampleValue(merge(rest, variant), depth + 1);
      if (matches(schema, candidate)) return candidate;
      if (first === undefined) first = candidate;
    }
    return first ?? 'sample';
  }
  if (schema['default'] !== undefined && matches(schema, schema['default'])) return schema['default'];
  const types = typesOf(schema);
  let first: unknown;
  for (const type of types) {
    const value = sampleOfType(schema, type, depth);
    if (types.length === 1) return value;
    if (matches(schema, value)) return value;
    if (first === undefined) first = value;
  }
  return first;
}

function sampleOfType(schema: Schema, type: string, depth: number): unknown {
  switch (type) {
    case 'integer':
    case 'number':
      return sampleNumber(schema, type === 'integer');
    case 'boolean':
      return false;
    case 'null':
      return null;
    case 'object':
      return sampleObject(schema, depth + 1);
    case 'array': {
      const prefix = Array.isArray(schema['prefixItems']) ? (schema['prefixItems'] as unknown[]) : [];
      const minItems = typeof schema['minItems'] === 'number' ? schema['minItems'] : 0;
      const maxItems = typeof schema['maxItems'] === 'number' ? schema['maxItems'] : Infinity;
      // One item at least (an empty list exercises little), within maxItems.
      const count = Math.min(Math.max(1, minItems, prefix.length > 0 ? minItems : 0), maxItems);
      const items = schema['items'];
      const out: unknown[] = [];
      for (let n = 0; n < count; n++) {
        const itemSchema = n < prefix.length ? prefix[n] : items;
        if (itemSchema === false) break;
        const base = sampleValue(itemSchema, depth + 1);
        out.push(schema['uniqueItems'] === true ? variation(itemSchema, base, n) : base);
      }
      return out;
    }
    default:
      return sampleString(schema);
  }
}

export function sampleObject(schema: Schema, depth = 0): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const properties = isObject(schema['properties']) ? schema['properties'] : {};
  const extra = isObject(schema['additionalProperties']) ? schema['additionalProperties'] : undefined;
  const schemaOf = (name: string) => properties[name] ?? extra;
  const required = Array.isArray(schema['required'])
    ? schema['required'].filter((r): r is string => typeof r === 'string')
    : [];
  for (const name of required) out[name] = sampleValue(schemaOf(name), depth);
  // Properties that others require once present (`dependentRequired`).
  const dependent = isObject(schema['dependentRequired']) ? schema['dependentRequired'] : {};
  for (let changed = true; changed;) {
    changed = false;
    for (const [name, needs] of Object.entries(dependent))
      if (name in out && Array.isArray(needs))
        for (const need of needs)
          if (typeof need === 'string' && !(need in out)) {
            out[need] = sampleValue(schemaOf(need), depth);
            changed = true;
          }
  }
  const min = typeof schema['minProperties'] === 'number' ? schema['minProperties'] : 0;
  for (const name of Object.keys(properties)) {
    if (Object.keys(out).length >= min) break;
    if (!(name in out)) out[name] = sampleValue(properties[name], depth);
  }
  // A map (AWS's `Tags`, `minProperties: 1`): entries of its own, where extra properties are allowed.
  if (schema['additionalProperties'] !== false)
    for (let n = 1; Object.keys(out).length < min && n <= min + 10; n++) {
      const name = sampleNameOf(schema, n);
      if (!(name in out)) out[name] = sampleValue(extra, depth);
    }
  return out;
}

/** A property name for a map's n-th entry, within `propertyNames` when it says how. */
function sampleNameOf(schema: Schema, n: number): string {
  const names = isObject(schema['propertyNames']) ? schema['propertyNames'] : {};
  const base = sampleString({ type: 'string', ...names });
  return n === 1 ? base : (variation({ type: 'string', ...names }, base, n - 1) as string);
}

/** Sample arguments for a tool's input schema. */
export function sampleArguments(inputSchema: Record<string, unknown>): Record<string, unknown> {
  const value = sampleValue(inputSchema);
  return isObject(value) ? value : sampleObject(inputSchema);
}
