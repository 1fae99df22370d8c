import { pctEncode } from './encode.js';
import { UriTemplateError } from './error.js';

/** Longest template accepted; templates come from server authors, but they are also echoed to clients. */
export const MAX_TEMPLATE_LENGTH = 8192;

export type Operator = '' | '+' | '#' | '.' | '/' | ';' | '?' | '&';

/** The expansion behaviour of one operator (the table in RFC 6570 appendix A). */
export interface OperatorSpec {
  /** Prepended to the expansion when at least one variable is defined. */
  readonly first: string;
  /** Between the expansions of the variables (and of exploded members). */
  readonly sep: string;
  /** Whether values are written as `name=value`. */
  readonly named: boolean;
  /** Written after the name of a named variable whose value is empty. */
  readonly ifEmpty: string;
  /** Whether reserved characters and pct-encoded triplets are copied instead of encoded. */
  readonly allowReserved: boolean;
}

export const OPERATORS: Readonly<Record<Operator, OperatorSpec>> = {
  '': { first: '', sep: ',', named: false, ifEmpty: '', allowReserved: false },
  '+': { first: '', sep: ',', named: false, ifEmpty: '', allowReserved: true },
  '#': { first: '#', sep: ',', named: false, ifEmpty: '', allowReserved: true },
  '.': { first: '.', sep: '.', named: false, ifEmpty: '', allowReserved: false },
  '/': { first: '/', sep: '/', named: false, ifEmpty: '', allowReserved: false },
  ';': { first: ';', sep: ';', named: true, ifEmpty: '', allowReserved: false },
  '?': { first: '?', sep: '&', named: true, ifEmpty: '=', allowReserved: false },
  '&': { first: '&', sep: '&', named: true, ifEmpty: '=', allowReserved: false },
};

export interface VarSpec {
  readonly name: string;
  /** Maximum number of characters to expand (`{var:3}`), if a prefix modifier was given. */
  readonly maxLength: number | undefined;
  readonly explode: boolean;
}

export interface LiteralPart {
  readonly kind: 'literal';
  /** The literal as it appears in an expanded URI (characters not allowed in URIs pct-encoded). */
  readonly text: string;
}

export interface ExpressionPart {
  readonly kind: 'expression';
  readonly operator: Operator;
  readonly vars: readonly VarSpec[];
}

export type TemplatePart = LiteralPart | ExpressionPart;

const OPERATOR_CHARS = '+#./;?&';
// RFC 6570 section 2.2: reserved for future extensions, so rejected rather than read as part of a name.
const RESERVED_OPERATOR_CHARS = '=,!@|';
// varname = varchar *( ["."] varchar ); varchar = ALPHA / DIGIT / "_" / pct-encoded
const VARNAME = /^(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2})(?:\.?(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2}))*$/;
const MAX_LENGTH = /^[1-9][0-9]{0,3}$/;

function fail(template: string, offset: number, reason: string): never {
  throw new UriTemplateError(
    `Invalid URI template ${JSON.stringify(template)} at offset ${offset}: ${reason}`,
  );
}

/**
 * Splits a template into literals and expressions, validating the expression grammar strictly. Literal
 * characters that RFC 6570 disallows (spaces, quotes, non-ASCII...) are accepted and pct-encoded, as section
 * 3.1 prescribes for characters not allowed in URIs; only stray braces are errors.
 */
export function parseTemplate(template: string): TemplatePart[] {
  if (template.length > MAX_TEMPLATE_LENGTH) {
    throw new UriTemplateError(
      `URI template is ${template.length} characters long; the limit is ${MAX_TEMPLATE_LENGTH}`,
    );
  }
  const parts: TemplatePart[] = [];
  let offset = 0;
  while (offset < template.length) {
    const open = template.indexOf('{', offset);
    const literalEnd = open === -1 ? template.length : open;
    const stray = template.indexOf('}', offset);
    if (stray !== -1 && stray < literalEnd) fail(template, stray, "'}' without a matching '{'");
    if (literalEnd > offset) {
      parts.push({ kind: 'literal', text: pctEncode(template.slice(offset, literalEnd), true) });
    }
    if (open === -1) break;
    const close = template.indexOf('}', open + 1);
    if (close === -1) fail(template, open, "expression is not closed with '}'");
    const nested = template.indexOf('{', open + 1);
    if (nested !== -1 && nested < close) fail(template, nested, "'{' inside an expression");
    parts.push(parseExpression(template, open, close));
    offset = close + 1;
  }
  return parts;
}

function parseExpression(template: string, open: number, close: number): ExpressionPart {
  let start = open + 1;
  const head = template[start] ?? '';
  let operator: Operator = '';
  if (head !== '' && OPERATOR_CHARS.includes(head)) {
    operator = head as Operator;
    start++;
  } else if (head !== '' && RESERVED_OPERATOR_CHARS.includes(head)) {
    fail(template, start, `operator '${head}' is reserved for future extensions`);
  }
  if (start === close) fail(template, open, 'expression has no variables');

  const vars: VarSpec[] = [];
  let specStart = start;
  for (const spec of template.slice(start, close).split(',')) {
    vars.push(parseVarSpec(template, spec, specStart));
    specStart += spec.length + 1;
  }
  return { kind: 'expression', operator, vars };
}

function parseVarSpec(template: string, spec: string, offset: number): VarSpec {
  let name = spec;
  let maxLength: number | undefined;
  let explode = false;
  if (spec.endsWith('*')) {
    name = spec.slice(0, -1);
    explode = true;
  } else {
    const colon = spec.indexOf(':');
    if (colon !== -1) {
      const digits = spec.slice(colon + 1);
      if (!MAX_LENGTH.test(digits)) {
        fail(template, offset + colon, `prefix length must be an integer from 1 to 9999, got '${digits}'`);
      }
      name = spec.slice(0, colon);
      maxLength = Number(digits);
    }
  }
  if (!VARNAME.test(name)) fail(template, offset, `invalid variable name '${name}'`);
  return { name, maxLength, explode };
}
