import { pctEncode, truncateCharacters } from './encode.js';
import { UriTemplateError } from './error.js';
import {
  OPERATORS,
  type ExpressionPart,
  type OperatorSpec,
  type TemplatePart,
  type VarSpec,
} from './parse.js';

/** A value for one template variable. `undefined`, empty lists and empty maps count as undefined (skipped). */
export type UriTemplateValue =
  string | number | boolean | readonly string[] | Readonly<Record<string, string>> | undefined;

export type UriTemplateVariables = Readonly<Record<string, UriTemplateValue>>;

export function expandParts(parts: readonly TemplatePart[], vars: UriTemplateVariables): string {
  let out = '';
  for (const part of parts) {
    out += part.kind === 'literal' ? part.text : expandExpression(part, vars);
  }
  return out;
}

function expandExpression(expression: ExpressionPart, vars: UriTemplateVariables): string {
  const op = OPERATORS[expression.operator];
  let out = '';
  let defined = false;
  for (const spec of expression.vars) {
    // Own properties only: a variable named `constructor` must not pick up Object.prototype members.
    const value = Object.hasOwn(vars, spec.name) ? vars[spec.name] : undefined;
    const piece = expandVariable(op, spec, value);
    if (piece === undefined) continue;
    out += (defined ? op.sep : op.first) + piece;
    defined = true;
  }
  return out;
}

function expandVariable(op: OperatorSpec, spec: VarSpec, value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (Array.isArray(value)) return expandList(op, spec, value as readonly unknown[]);
  if (typeof value === 'object') return expandMap(op, spec, value as Readonly<Record<string, unknown>>);

  let text = String(value);
  if (spec.maxLength !== undefined) text = truncateCharacters(text, spec.maxLength, op.allowReserved);
  return named(op, spec.name, pctEncode(text, op.allowReserved));
}

function rejectPrefix(spec: VarSpec): void {
  // RFC 6570 section 2.4.1: prefix modifiers do not apply to composite values.
  if (spec.maxLength !== undefined) {
    throw new UriTemplateError(`Prefix modifier on '${spec.name}' cannot apply to a list or map value`);
  }
}

function expandList(op: OperatorSpec, spec: VarSpec, list: readonly unknown[]): string | undefined {
  const items: string[] = [];
  for (const item of list) {
    if (item !== undefined && item !== null) items.push(pctEncode(String(item), op.allowReserved));
  }
  if (items.length === 0) return undefined;
  rejectPrefix(spec);
  if (!spec.explode) return named(op, spec.name, items.join(','));
  if (!op.named) return items.join(op.sep);
  return items.map((item) => named(op, spec.name, item)).join(op.sep);
}

function expandMap(
  op: OperatorSpec,
  spec: VarSpec,
  map: Readonly<Record<string, unknown>>,
): string | undefined {
  const pairs: [string, string][] = [];
  for (const key of Object.keys(map)) {
    const item = map[key];
    if (item === undefined || item === null) continue;
    pairs.push([pctEncode(key, op.allowReserved), pctEncode(String(item), op.allowReserved)]);
  }
  if (pairs.length === 0) return undefined;
  rejectPrefix(spec);
  if (!spec.explode) return named(op, spec.name, pairs.map(([k, v]) => `${k},${v}`).join(','));
  if (!op.named) return pairs.map(([k, v]) => `${k}=${v}`).join(op.sep);
  return pairs.map(([k, v]) => named(op, k, v)).join(op.sep);
}

/** `name=value` for named operators (`name` + ifemp when empty); the bare value otherwise. */
function named(op: OperatorSpec, name: string, encoded: string): string {
  if (!op.named) return encoded;
  return encoded === '' ? name + op.ifEmpty : `${name}=${encoded}`;
}
