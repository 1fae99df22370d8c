/**
 * mcp-jest's `expect` strings, evaluated without `eval`: `exists`, property paths (`content[0].text`,
 * `messages.length`), literals, comparisons (=== !== == != > >= < <=), `!`, `&&`, `||`, parentheses, and the
 * string/array methods `includes`, `startsWith`, `endsWith`. Names resolve against the result (`content`,
 * `structuredContent`, `contents`, `messages`…); `result` is the whole result, `exists` whether there is one,
 * `count` the number of resources a glob matched.
 */
type Token = { kind: 'num' | 'str' | 'id' | 'op' | 'punct'; value: string; at: number };

const OPS = ['===', '!==', '==', '!=', '>=', '<=', '&&', '||', '>', '<', '!'];

function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < source.length) {
    const ch = source[i]!;
    if (/\s/.test(ch)) {
      i++;
      continue;
    }
    const op = OPS.find((candidate) => source.startsWith(candidate, i));
    if (op !== undefined) {
      tokens.push({ kind: 'op', value: op, at: i });
      i += op.length;
    } else if (/[0-9]/.test(ch) || (ch === '-' && /[0-9]/.test(source[i + 1] ?? ''))) {
      const m = /^-?\d+(\.\d+)?([eE][+-]?\d+)?/.exec(source.slice(i))!;
      tokens.push({ kind: 'num', value: m[0], at: i });
      i += m[0].length;
    } else if (ch === '"' || ch === "'") {
      let j = i + 1;
      let text = '';
      while (j < source.length && source[j] !== ch) {
        if (source[j] === '\\' && j + 1 < source.length) j++;
        text += source[j++];
      }
      if (j >= source.length) throw new Error(`unterminated string at ${i + 1}`);
      tokens.push({ kind: 'str', value: text, at: i });
      i = j + 1;
    } else if (/[A-Za-z_$]/.test(ch)) {
      const m = /^[A-Za-z_$][\w$]*/.exec(source.slice(i))!;
      tokens.push({ kind: 'id', value: m[0], at: i });
      i += m[0].length;
    } else if ('.[]()'.includes(ch) || ch === ',') {
      tokens.push({ kind: 'punct', value: ch, at: i });
      i++;
    } else throw new Error(`unexpected ${JSON.stringify(ch)} at ${i + 1}`);
  }
  return tokens;
}

export type ExprNode =
  | { type: 'lit'; value: unknown }
  | { type: 'path'; root: string; steps: (string | number | { call: string; args: ExprNode[] })[] }
  | { type: 'not'; operand: ExprNode }
  | { type: 'bin'; op: string; left: ExprNode; right: ExprNode };

/** Parses an expression; throws with the column of the problem. */
export function parseExpectExpression(source: string): ExprNode {
  const tokens = tokenize(source);
  let pos = 0;
  const peek = () => tokens[pos];
  const fail = (what: string): never => {
    const token = peek();
    throw new Error(`${what} at column ${token === undefined ? source.length + 1 : token.at + 1}`);
  };
  const take = (value: string) => {
    if (peek()?.value !== value) fail(`expected ${JSON.stringify(value)}`);
    pos++;
  };
  const binary = (ops: string[], next: () => ExprNode) => (): ExprNode => {
    let left = next();
    while (peek()?.kind === 'op' && ops.includes(peek()!.value)) {
      const op = tokens[pos++]!.value;
      left = { type: 'bin', op, left, right: next() };
    }
    return left;
  };
  const primary = (): ExprNode => {
    const token = peek();
    if (token === undefined) return fail('expected a value');
    pos++;
    if (token.kind === 'num') return { type: 'lit', value: Number(token.value) };
    if (token.kind === 'str') return { type: 'lit', value: token.value };
    if (token.value === '(') {
      const inner = or();
      take(')');
      return inner;
    }
    if (token.kind !== 'id') return fail(`unexpected ${JSON.stringify(token.value)}`);
    const literals: Record<string, unknown> = { true: true, false: false, null: null, undefined: undefined };
    if (token.value in literals) return { type: 'lit', value: literals[token.value] };
    const steps: (string | number | { call: string; args: ExprNode[] })[] = [];
    for (;;) {
      const next = peek();
      if (next?.value === '.') {
        pos++;
        const name = peek();
        if (name?.kind !== 'id') return fail('expected a property name');
        pos++;
        if (peek()?.value === '(') {
          pos++;
          const args: ExprNode[] = [];
          while (peek()?.value !== ')') {
            args.push(or());
            if (peek()?.value === ',') pos++;
            else if (peek()?.value !== ')') fail('expected "," or ")"');
          }
          pos++;
          steps.push({ call: name.value, args });
        } else steps.push(name.value);
      } else if (next?.value === '[') {
        pos++;
        const index = peek();
        if (index?.kind !== 'num' && index?.kind !== 'str') return fail('expected an index');
        pos++;
        steps.push(index.kind === 'num' ? Number(index.value) : index.value);
        take(']');
      } else break;
    }
    return { type: 'path', root: token.value, steps };
  };
  const unary = (): ExprNode => {
    if (peek()?.value === '!') {
      pos++;
      return { type: 'not', operand: unary() };
    }
    return primary();
  };
  const comparison = binary(['===', '!==', '==', '!=', '>=', '<=', '>', '<'], unary);
  const and = binary(['&&'], comparison);
  const or = binary(['||'], and);
  const tree = or();
  if (pos < tokens.length) fail(`unexpected ${JSON.stringify(tokens[pos]!.value)}`);
  return tree;
}

const METHODS = ['includes', 'startsWith', 'endsWith'];

export function evaluateExpectExpression(node: ExprNode, scope: Record<string, unknown>): unknown {
  switch (node.type) {
    case 'lit':
      return node.value;
    case 'not':
      return !evaluateExpectExpression(node.operand, scope);
    case 'bin': {
      if (node.op === '&&')
        return evaluateExpectExpression(node.left, scope) && evaluateExpectExpression(node.right, scope);
      if (node.op === '||')
        return evaluateExpectExpression(node.left, scope) || evaluateExpectExpression(node.right, scope);
      const a = evaluateExpectExpression(node.left, scope) as number;
      const b = evaluateExpectExpression(node.right, scope) as number;
      switch (node.op) {
        case '===':
          return a === b;
        case '!==':
          return a !== b;
        case '==':
          // Loose equality as mcp-jest users write it ('8' == 8); without JavaScript's other coercions.
          return (
            a === b ||
            (a !== null && b !== null && a !== undefined && b !== undefined && String(a) === String(b))
          );
        case '!=':
          return !(
            a === b ||
            (a !== null && b !== null && a !== undefined && b !== undefined && String(a) === String(b))
          );
        case '>':
          return a > b;
        case '>=':
          return a >= b;
        case '<':
          return a < b;
        default:
          return a <= b;
      }
    }
    case 'path': {
      let current: unknown = Object.hasOwn(scope, node.root) ? scope[node.root] : undefined;
      for (const step of node.steps) {
        if (current === undefined || current === null) return undefined;
        if (typeof step === 'object') {
          if (!METHODS.includes(step.call) || (typeof current !== 'string' && !Array.isArray(current)))
            return undefined;
          const args = step.args.map((arg) => evaluateExpectExpression(arg, scope));
          if (step.call === 'includes') return (current as string).includes(args[0] as string);
          if (typeof current !== 'string') return undefined;
          return step.call === 'startsWith'
            ? current.startsWith(String(args[0]))
            : current.endsWith(String(args[0]));
        }
        if (step === 'length' && (typeof current === 'string' || Array.isArray(current)))
          current = current.length;
        else if (typeof current === 'object' && Object.hasOwn(current, step))
          current = (current as Record<string | number, unknown>)[step];
        else return undefined;
      }
      return current;
    }
  }
}
