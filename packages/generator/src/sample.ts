/**
 * Schema-valid sample arguments for a tool: required properties only, each the simplest value its schema
 * allows (`const`, the first `enum` value, the default, a value of the format, the minimum). Used by generated
 * smoke tests and by the mock-server tests; callers check the result against the schema before using it.
 */
type Schema = Record<string, unknown>;

function isObject(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const FORMAT_SAMPLES: Record<string, string> = {
  'date-time': '2024-01-01T00:00:00Z',
  date: '2024-01-01',
  time: '00:00:00Z',
  email: 'user@example.com',
  uri: 'https://example.com/',
  uuid: '00000000-0000-4000-8000-000000000000',
  ipv4: '127.0.0.1',
  ipv6: '::1',
  hostname: 'example.com',
};

/**
 * A string matching a simple regular expression: literals, escapes (\\d \\w \\s and escaped characters),
 * classes, groups (first alternative), quantifiers (the minimum, at least one for +). Undefined when the
 * pattern uses anything else, or the result does not match.
 */
export function sampleForPattern(pattern: string): string | undefined {
  let i = 0;
  const out: string[] = [];
  const atom = (): string | undefined => {
    const c = pattern[i]!;
    if (c === '\\') {
      const e = pattern[i + 1];
      i += 2;
      if (e === 'd') return '1';
      if (e === 'w') return 'a';
      if (e === 's') return ' ';
      return e;
    }
    if (c === '[') {
      const end = pattern.indexOf(']', i + 2);
      if (end === -1) return undefined;
      const body = pattern.slice(i + 1, end);
      i = end + 1;
      if (body.startsWith('^')) return 'z' === body.slice(1) ? 'a' : 'z';
      const first = body[0] === '\\' ? (body[1] === 'd' ? '1' : body[1] === 'w' ? 'a' : body[1]) : body[0];
      return first;
    }
    if (c === '(') {
      let depth = 0;
      let j = i;
      for (; j < pattern.length; j++) {
        if (pattern[j] === '\\') j++;
        else if (pattern[j] === '(') depth++;
        else if (pattern[j] === ')' && --depth === 0) break;
      }
      let inner = pattern.slice(i + 1, j);
      if (inner.startsWith('?:')) inner = inner.slice(2);
      i = j + 1;
      const alternative = inner.split('|')[0]!;
      return sampleForPattern(`^${alternative}$`);
    }
    if (c === '.') {
      i++;
      return 'a';
    }
    if ('*+?{|)'.includes(c)) return undefined;
    i++;
    return c;
  };
  if (pattern.startsWith('^')) i = 1;
  while (i < pattern.length) {
    if (pattern[i] === '$' && i === pattern.length - 1) break;
    const piece = atom();
    if (piece === undefined) return undefined;
    let count = 1;
    const q = pattern[i];
    if (q === '*' || q === '?') {
      count = 0;
      i++;
    } else if (q === '+') i++;
    else if (q === '{') {
      const m = /^\{(\d+)(,(\d*))?\}/.exec(pattern.slice(i));
      if (m === null) return undefined;
      count = Number(m[1]);
      i += m[0].length;
    }
    if (pattern[i] === '?') i++;
    out.push(piece.repeat(count));
  }
  const result = out.join('');
  try {
    return new RegExp(pattern, 'u').test(result) ? result : undefined;
  } catch {
    return undefined;
  }
}

export function sampleValue(schema: unknown, depth = 0): unknown {
  if (!isObject(schema) || depth > 12) return 'sample';
  if (schema['const'] !== undefined) return schema['const'];
  if (Array.isArray(schema['enum']) && schema['enum'].length > 0)
    return schema['enum'].find((v) => v !== null) ?? schema['enum'][0];
  if (schema['default'] !== undefined) return schema['default'];
  if (Array.isArray(schema['anyOf']) && schema['anyOf'].length > 0) {
    const merged = { ...schema, ...(schema['anyOf'][0] as Schema) };
    delete merged['anyOf'];
    return sampleValue(merged, depth + 1);
  }
  const raw = schema['type'];
  const types = Array.isArray(raw)
    ? raw.filter((t) => t !== 'null')
    : raw === undefined
      ? [isObject(schema['properties']) ? 'object' : 'string']
      : [raw];
  switch (types[0]) {
    case 'integer':
    case 'number': {
      const min =
        typeof schema['minimum'] === 'number'
          ? schema['minimum']
          : typeof schema['exclusiveMinimum'] === 'number'
            ? schema['exclusiveMinimum'] + 1
            : 1;
      const max = typeof schema['maximum'] === 'number' ? schema['maximum'] : undefined;
      const value = max !== undefined && min > max ? max : min;
      return types[0] === 'integer' ? Math.ceil(value) : value;
    }
    case 'boolean':
      return false;
    case 'array': {
      const count = typeof schema['minItems'] === 'number' ? Math.max(1, schema['minItems']) : 1;
      return Array.from({ length: count }, () => sampleValue(schema['items'], depth + 1));
    }
    case 'object':
      return sampleObject(schema, depth + 1);
    case 'null':
      return null;
    default: {
      const format = typeof schema['format'] === 'string' ? FORMAT_SAMPLES[schema['format']] : undefined;
      if (format !== undefined) return format;
      if (typeof schema['pattern'] === 'string') {
        const matching = sampleForPattern(schema['pattern']);
        if (matching !== undefined) return matching;
      }
      const min = typeof schema['minLength'] === 'number' ? schema['minLength'] : 0;
      const max = typeof schema['maxLength'] === 'number' ? schema['maxLength'] : 64;
      const base = 'sample'.padEnd(Math.max(min, 1), 'x');
      return base.slice(0, Math.max(max, 1));
    }
  }
}

export function sampleObject(schema: Schema, depth = 0): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const properties = isObject(schema['properties']) ? schema['properties'] : {};
  const required = Array.isArray(schema['required'])
    ? schema['required'].filter((r): r is string => typeof r === 'string')
    : [];
  for (const name of required) out[name] = sampleValue(properties[name], depth);
  const min = typeof schema['minProperties'] === 'number' ? schema['minProperties'] : 0;
  for (const name of Object.keys(properties)) {
    if (Object.keys(out).length >= min) break;
    if (!(name in out)) out[name] = sampleValue(properties[name], depth);
  }
  return out;
}

/** Sample arguments for a tool's input schema. */
export function sampleArguments(inputSchema: Record<string, unknown>): Record<string, unknown> {
  return sampleObject(inputSchema);
}
