/**
 * Tool parameters mirrored into HTTP headers (`x-mcp-header`, 2026-07-28) and the Base64 sentinel encoding
 * shared by `Mcp-Name` and `Mcp-Param-{Name}` values.
 *
 * The annotation rules are part of the tool definition (server/tools.mdx, "x-mcp-header"); the server checks
 * them once, when a tool is registered, and the Streamable HTTP transport validates the headers against the
 * body with the compiled bindings.
 */

/** One annotated parameter: where its value lives in `arguments` and which header mirrors it. */
export interface HeaderParam {
  /** The name part of `Mcp-Param-{name}`, as declared. */
  readonly name: string;
  /** The header name in lower case (`mcp-param-region`), for lookups. */
  readonly header: string;
  /** The chain of `properties` keys from the schema root to the annotated property. */
  readonly path: readonly string[];
  readonly type: 'string' | 'integer' | 'boolean';
}

export const HEADER_PARAM_KEYWORD = 'x-mcp-header';

/** RFC 9110 `token` (1*tchar). */
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

type JsonLike = Record<string, unknown>;

function isObject(value: unknown): value is JsonLike {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Finds every `x-mcp-header` annotation of a tool input schema and checks the spec's constraints. Throws a
 * `TypeError` naming the first violation: a server must not publish a tool that clients are required to reject.
 */
export function compileHeaderParams(inputSchema: unknown): HeaderParam[] {
  const params: HeaderParam[] = [];
  const seen = new Set<string>();
  const visit = (node: unknown, pointer: string[], reachable: string[] | undefined): void => {
    if (Array.isArray(node)) {
      node.forEach((item, index) => visit(item, [...pointer, String(index)], undefined));
      return;
    }
    if (!isObject(node)) return;
    if (Object.prototype.hasOwnProperty.call(node, HEADER_PARAM_KEYWORD)) {
      const where = pointer.length === 0 ? '(root)' : `/${pointer.join('/')}`;
      if (reachable === undefined || reachable.length === 0) {
        throw new TypeError(
          `x-mcp-header at ${where} is not on a property reachable from the root through "properties" only`,
        );
      }
      const name = node[HEADER_PARAM_KEYWORD];
      if (typeof name !== 'string' || name.length === 0 || !TOKEN.test(name)) {
        throw new TypeError(
          `x-mcp-header at ${where} must be a non-empty HTTP token (letters, digits and !#$%&'*+-.^_\`|~)`,
        );
      }
      const lower = name.toLowerCase();
      if (seen.has(lower)) {
        throw new TypeError(`x-mcp-header "${name}" is used twice (names are case-insensitively unique)`);
      }
      seen.add(lower);
      params.push({ name, header: `mcp-param-${lower}`, path: reachable, type: primitiveType(node, where) });
    }
    for (const [key, child] of Object.entries(node)) {
      if (key === HEADER_PARAM_KEYWORD) continue;
      if (key === 'properties' && isObject(child) && reachable !== undefined) {
        for (const [property, schema] of Object.entries(child)) {
          visit(schema, [...pointer, 'properties', property], [...reachable, property]);
        }
        continue;
      }
      // Anything else (items, allOf, $defs, if/then/else, $ref targets…) is not statically reachable.
      visit(child, [...pointer, key], undefined);
    }
  };
  visit(inputSchema, [], []);
  return params;
}

function primitiveType(schema: JsonLike, where: string): HeaderParam['type'] {
  const declared = schema.type;
  const types = Array.isArray(declared) ? declared.filter((t) => t !== 'null') : [declared];
  const [only] = types;
  if (types.length === 1 && (only === 'string' || only === 'integer' || only === 'boolean')) return only;
  throw new TypeError(
    `x-mcp-header at ${where} must annotate a property of type string, integer or boolean (got ${JSON.stringify(declared ?? null)})`,
  );
}

const SENTINEL_PREFIX = '=?base64?';
const SENTINEL_SUFFIX = '?=';
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
/** What a header value may contain: visible ASCII, space and tab (RFC 9110 field values, no obs-text). */
const FIELD_VALUE = /^[\x20-\x7e\t]*$/;
const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Decodes a header value: `=?base64?…?=` is Base64 of UTF-8, anything else is literal. Returns `undefined` for
 * a value that is malformed (invalid characters, bad Base64 alphabet or padding, invalid UTF-8).
 */
export function decodeHeaderValue(raw: string): string | undefined {
  const value = raw.trim();
  if (!FIELD_VALUE.test(value)) return undefined;
  if (
    value.length >= SENTINEL_PREFIX.length + SENTINEL_SUFFIX.length &&
    value.startsWith(SENTINEL_PREFIX) &&
    value.endsWith(SENTINEL_SUFFIX)
  ) {
    const encoded = value.slice(SENTINEL_PREFIX.length, value.length - SENTINEL_SUFFIX.length);
    if (!BASE64.test(encoded)) return undefined;
    try {
      const binary = atob(encoded);
      const bytes = new Uint8Array(binary.length);
      for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
      return utf8.decode(bytes);
    } catch {
      return undefined;
    }
  }
  return value;
}

/** Encodes a value for a header, with the Base64 sentinel when it cannot travel as plain ASCII. */
export function encodeHeaderValue(value: string): string {
  const plain =
    /^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/.test(value) &&
    !(value.startsWith(SENTINEL_PREFIX) && value.endsWith(SENTINEL_SUFFIX));
  if (plain) return value;
  let binary = '';
  for (const byte of new TextEncoder().encode(value)) binary += String.fromCharCode(byte);
  return `${SENTINEL_PREFIX}${btoa(binary)}${SENTINEL_SUFFIX}`;
}

/** The value at a parameter's path in the call arguments; `undefined` when absent or null. */
export function headerParamValue(args: unknown, param: HeaderParam): unknown {
  let node: unknown = args;
  for (const key of param.path) {
    if (!isObject(node) || !Object.prototype.hasOwnProperty.call(node, key)) return undefined;
    node = node[key];
  }
  return node === null ? undefined : node;
}

/** The header form of a body value (integers in decimal, booleans in lower case), or undefined if not primitive. */
export function headerParamText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return undefined;
}

/** Whether a decoded header value matches the body value (numbers compare numerically, as the spec advises). */
export function headerMatchesValue(decoded: string, value: unknown): boolean {
  if (typeof value === 'number') {
    if (!/^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/.test(decoded)) return false;
    return Number(decoded) === value;
  }
  const text = headerParamText(value);
  return text !== undefined && decoded === text;
}
