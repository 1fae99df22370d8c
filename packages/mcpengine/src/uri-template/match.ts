/**
 * The inverse of expansion: extracting variable values from a concrete URI, to route `resources/read` to the
 * resource template that produced the URI.
 *
 * A template compiles once into steps: literals, which must appear verbatim, and captures, each of which
 * consumes a run of the characters its operator can produce. The search is a backtracking matcher with
 * memoised failures: every (step, position, inside-a-capture) state is explored at most once, so matching
 * costs O(steps x URI length) whatever the input, unlike a backtracking RegExp whose adjacent quantifiers
 * can go polynomial or exponential on hostile URIs. Captures are greedy, as a RegExp's would be.
 *
 * Rules for the inherent ambiguities of inverting RFC 6570:
 * - Expansion drops undefined variables, so every expression is optional; a prefixed operator whose leading
 *   character is absent leaves its variables unset. `{var}` matching nothing yields `var: ''`.
 * - Adjacent captures with overlapping characters (`{a}{b}`) split greedily: the first takes all it can.
 * - Non-exploded variables yield one string, decoded: a list expanded as `a,b` comes back as `'a,b'`.
 *   Exploded variables yield `string[]`. When an expression has more items than variables, the first exploded
 *   variable (else the last variable) takes the surplus. Associative arrays cannot be told apart from lists:
 *   `{keys*}` yields `['k=v', ...]`, and named forms such as `{?keys*}` are not recovered.
 * - `{?a,b}` and `{&c}` (consecutive query expressions form one block) accept parameters in any order, all
 *   optional; unknown parameters are ignored; for a non-exploded variable the first occurrence wins.
 * - `{+var}` spans anything, except `?` when a query part follows in the template and `#` when a fragment
 *   follows, so `{+path}{?q}` splits at the `?`.
 * - A variable used twice must match the same value, except a prefix occurrence (`{var:3}`), which yields to
 *   the full one.
 * - Values are pct-decoded; malformed pct-encoding (or encoded invalid UTF-8) makes the URI not match.
 *   Characters RFC 3986 forbids (spaces, raw non-ASCII) are tolerated inside values. Literals compare exactly.
 */
import { RESERVED_CHARS } from './encode.js';
import { OPERATORS, type ExpressionPart, type TemplatePart, type VarSpec } from './parse.js';

/** Longest URI `match` examines; longer ones do not match. */
export const MAX_URI_LENGTH = 8192;

export type UriTemplateMatch = Record<string, string | string[]>;

interface LiteralStep {
  readonly kind: 'literal';
  readonly text: string;
}

interface CaptureStep {
  readonly kind: 'capture';
  /** Char code the capture must start with when present (the operator's `first`), or -1. */
  readonly lead: number;
  /** ASCII characters the capture may contain, as a lookup table; non-ASCII is always allowed. */
  readonly allowed: Uint8Array;
  /** Assigns variables from the captured text (including `lead`); false when the values are inconsistent. */
  readonly read: (captured: string, captures: Captures) => boolean;
}

type Step = LiteralStep | CaptureStep;

export interface CompiledMatcher {
  match(uri: string): UriTemplateMatch | null;
}

/** Characters allowed in a capture: all ASCII except `excluded`. */
function allowAllExcept(excluded: string): Uint8Array {
  const table = new Uint8Array(128).fill(1);
  for (let i = 0; i < excluded.length; i++) table[excluded.charCodeAt(i)] = 0;
  return table;
}

function remove(chars: string, remove: string): string {
  let out = '';
  for (const c of chars) if (!remove.includes(c)) out += c;
  return out;
}

const isQueryExpression = (part: TemplatePart): part is ExpressionPart & { operator: '?' | '&' } =>
  part.kind === 'expression' && (part.operator === '?' || part.operator === '&');

export function compileMatcher(parts: readonly TemplatePart[]): CompiledMatcher {
  const steps: Step[] = [];
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!;
    if (part.kind === 'literal') {
      steps.push({ kind: 'literal', text: part.text });
      continue;
    }
    if (isQueryExpression(part)) {
      // Fold `{?a}{&b}` into one block so that parameters may come in any order.
      const vars = [...part.vars];
      while (i + 1 < parts.length) {
        const next = parts[i + 1]!;
        if (next.kind !== 'expression' || next.operator !== '&') break;
        vars.push(...next.vars);
        i++;
      }
      steps.push(namedStep(part.operator, vars));
      continue;
    }
    if (part.operator === ';') {
      steps.push(namedStep(';', part.vars));
      continue;
    }
    steps.push(positionalStep(part, parts.slice(i + 1)));
  }
  return { match: (uri) => matchSteps(steps, uri) };
}

function namedStep(operator: '?' | '&' | ';', vars: readonly VarSpec[]): CaptureStep {
  const op = OPERATORS[operator];
  // Query values are taken leniently (anything up to a fragment), since clients build query strings freely.
  const allowed = operator === ';' ? allowAllExcept(remove(RESERVED_CHARS, ',;=')) : allowAllExcept('#');
  const byName = new Map(vars.map((spec) => [spec.name, spec]));
  return {
    kind: 'capture',
    lead: op.first.charCodeAt(0),
    allowed,
    read(captured, captures) {
      if (captured === '') return true;
      const found = new Map<string, string[]>();
      for (const item of captured.slice(1).split(op.sep)) {
        const eq = item.indexOf('=');
        const name = eq === -1 ? item : item.slice(0, eq);
        if (!byName.has(name)) continue;
        const value = decode(eq === -1 ? '' : item.slice(eq + 1));
        const values = found.get(name);
        if (values === undefined) found.set(name, [value]);
        else values.push(value);
      }
      for (const [name, values] of found) {
        const spec = byName.get(name)!;
        if (!captures.set(spec, spec.explode ? values : values[0]!)) return false;
      }
      return true;
    },
  };
}

function positionalStep(part: ExpressionPart, rest: readonly TemplatePart[]): CaptureStep {
  const op = OPERATORS[part.operator];
  const vars = part.vars;
  const explode = vars.some((spec) => spec.explode);
  let excluded: string;
  if (part.operator === '+') {
    const queryFollows = rest.some((p) =>
      p.kind === 'literal' ? p.text.includes('?') : isQueryExpression(p),
    );
    const fragmentFollows = rest.some((p) =>
      p.kind === 'literal' ? p.text.includes('#') : p.operator === '#',
    );
    excluded = (queryFollows ? '?' : '') + (fragmentFollows ? '#' : '');
  } else if (part.operator === '#') {
    excluded = '';
  } else {
    // Unreserved characters, pct-triplets, the list separator `,`, `=` of exploded maps, and `/` when the
    // expression spans several path segments.
    let keep = ',';
    if (explode) keep += '=';
    if (part.operator === '/' && (explode || vars.length > 1)) keep += '/';
    excluded = remove(RESERVED_CHARS, keep);
  }
  const lead = op.first === '' ? -1 : op.first.charCodeAt(0);
  const single = vars.length === 1 && !vars[0]!.explode ? vars[0]! : undefined;
  return {
    kind: 'capture',
    lead,
    allowed: allowAllExcept(excluded),
    read(captured, captures) {
      if (lead !== -1 && captured === '') return true;
      const body = lead === -1 ? captured : captured.slice(1);
      // One plain variable takes the whole text: separators inside it belong to a list value.
      if (single !== undefined) return captures.set(single, decode(body));
      return distribute(vars, body.split(op.sep), op.sep, captures);
    },
  };
}

/** Assigns items to variables in order; the first exploded variable (else the last one) takes any surplus. */
function distribute(vars: readonly VarSpec[], items: string[], sep: string, captures: Captures): boolean {
  let greedy = vars.findIndex((spec) => spec.explode);
  if (greedy === -1) greedy = vars.length - 1;
  const surplus = Math.max(0, items.length - vars.length);
  let next = 0;
  for (let j = 0; j < vars.length && next < items.length; j++) {
    const spec = vars[j]!;
    const taken = items.slice(next, next + (j === greedy ? 1 + surplus : 1));
    next += taken.length;
    const value = spec.explode ? taken.map(decode) : decode(taken.join(sep));
    if (!captures.set(spec, value)) return false;
  }
  return true;
}

function decode(text: string): string {
  return text.includes('%') ? decodeURIComponent(text) : text;
}

/** Collected values, enforcing that a repeated variable matches consistently. */
class Captures {
  readonly values: UriTemplateMatch = Object.create(null) as UriTemplateMatch;
  readonly #fromPrefix = new Set<string>();

  set(spec: VarSpec, value: string | string[]): boolean {
    const existing = this.values[spec.name];
    const prefix = spec.maxLength !== undefined;
    if (existing === undefined || (this.#fromPrefix.has(spec.name) && !prefix)) {
      this.values[spec.name] = value;
      if (prefix) this.#fromPrefix.add(spec.name);
      else this.#fromPrefix.delete(spec.name);
      return true;
    }
    return prefix || sameValue(existing, value);
  }
}

function sameValue(a: string | string[], b: string | string[]): boolean {
  if (typeof a === 'string' || typeof b === 'string') return a === b;
  return a.length === b.length && a.every((item, i) => item === b[i]);
}

const AT = 0;
const INSIDE = 1;

function matchSteps(steps: readonly Step[], uri: string): UriTemplateMatch | null {
  const n = uri.length;
  if (n > MAX_URI_LENGTH) return null;
  // Cheap rejections first: routing tries many templates and most differ in their first or last literal.
  const first = steps[0];
  if (first?.kind === 'literal' && !uri.startsWith(first.text)) return null;
  const last = steps[steps.length - 1];
  if (last?.kind === 'literal' && !uri.endsWith(last.text)) return null;

  const starts = search(steps, uri);
  if (starts === null) return null;
  const captures = new Captures();
  try {
    for (let i = 0; i < steps.length; i++) {
      const step = steps[i]!;
      if (step.kind === 'capture' && !step.read(uri.slice(starts[i], starts[i + 1]), captures)) return null;
    }
  } catch (error) {
    if (error instanceof URIError) return null;
    throw error;
  }
  return captures.values;
}

/**
 * Depth-first search over states (step i, position, AT the start of step i | INSIDE capture i). The state graph
 * is acyclic (each transition advances the step, the position or AT to INSIDE), and a state that failed once is
 * never expanded again. Returns the start position of every step (plus the end), or null.
 */
function search(steps: readonly Step[], uri: string): number[] | null {
  const n = uri.length;
  const width = n + 1;
  const stepCount = steps.length;
  if (stepCount === 0) return n === 0 ? [0] : null;
  const encode = (step: number, pos: number, kind: number): number => (step * width + pos) * 2 + kind;
  const goal = encode(stepCount, n, AT);
  let failed: Uint32Array | undefined; // allocated on first failure: successful matches rarely backtrack

  const successor = (state: number, alt: number): number => {
    const kind = state % 2;
    const pos = Math.floor(state / 2) % width;
    const i = Math.floor(state / 2 / width);
    if (i === stepCount) return -2;
    const step = steps[i]!;
    if (step.kind === 'literal') {
      if (alt > 0) return -2;
      return uri.startsWith(step.text, pos) ? encode(i + 1, pos + step.text.length, AT) : -1;
    }
    if (kind === AT) {
      if (step.lead === -1) return alt === 0 ? encode(i, pos, INSIDE) : -2;
      if (alt === 0) return uri.charCodeAt(pos) === step.lead ? encode(i, pos + 1, INSIDE) : -1;
      return alt === 1 ? encode(i + 1, pos, AT) : -2;
    }
    if (alt === 0) {
      if (pos === n) return -1;
      const c = uri.charCodeAt(pos);
      return c >= 128 || step.allowed[c] === 1 ? encode(i, pos + 1, INSIDE) : -1;
    }
    return alt === 1 ? encode(i + 1, pos, AT) : -2;
  };

  const path: number[] = [encode(0, 0, AT)];
  const alts: number[] = [0];
  while (path.length > 0) {
    const top = path.length - 1;
    const alt = alts[top]!;
    alts[top] = alt + 1;
    const next = successor(path[top]!, alt);
    if (next === -2) {
      const state = path.pop()!;
      alts.pop();
      failed ??= new Uint32Array(Math.ceil((goal + 2) / 32));
      failed[state >>> 5] = failed[state >>> 5]! | (1 << (state & 31));
      continue;
    }
    if (next === -1) continue;
    if (next === goal) {
      path.push(next);
      break;
    }
    if (failed !== undefined && (failed[next >>> 5]! & (1 << (next & 31))) !== 0) continue;
    path.push(next);
    alts.push(0);
  }
  if (path.length === 0) return null;

  const starts = new Array<number>(stepCount + 1).fill(0);
  for (const state of path) {
    if (state % 2 === AT) starts[Math.floor(state / 2 / width)] = Math.floor(state / 2) % width;
  }
  return starts;
}
