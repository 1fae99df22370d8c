import { DIALECT_URIS, dialectOfUri } from './dialect.js';
import { findDuplicate } from './equal.js';
import { appendPointer } from './pointer.js';
import type { Dialect, JsonSchema, ValidationIssue } from './types.js';
import { forEachSubschema, isSchema, isSchemaObject } from './vocabulary.js';

/**
 * Meta-schema validation, hand-written from the 2020-12 and draft-07 meta-schemas: the value type each
 * keyword requires. `checkSchema` reports problems instead of throwing; `compileSchema` refuses a schema with any.
 */

const SIMPLE_TYPES = new Set(['array', 'boolean', 'integer', 'null', 'number', 'object', 'string']);
const ANCHOR = /^[A-Za-z_][-A-Za-z0-9._]*$/;
/** Nesting past which `checkSchema` stops descending; `compileSchema` enforces its own, lower `maxDepth` first. */
const CHECK_DEPTH_LIMIT = 1000;

type Shape =
  | 'string'
  | 'boolean'
  | 'number'
  | 'positiveNumber'
  | 'nonNegativeInteger'
  | 'array'
  | 'enum07'
  | 'type'
  | 'stringSet'
  | 'regex'
  | 'schema'
  | 'schemaArray'
  | 'schemaMap'
  | 'patternSchemaMap'
  | 'stringSetMap'
  | 'dependencies'
  | 'items07'
  | 'anchor'
  | 'id2020'
  | 'vocabulary';

const COMMON: Record<string, Shape> = {
  $schema: 'string',
  $ref: 'string',
  $comment: 'string',
  definitions: 'schemaMap',
  title: 'string',
  description: 'string',
  readOnly: 'boolean',
  writeOnly: 'boolean',
  examples: 'array',
  type: 'type',
  enum: 'array',
  multipleOf: 'positiveNumber',
  maximum: 'number',
  minimum: 'number',
  exclusiveMaximum: 'number',
  exclusiveMinimum: 'number',
  maxLength: 'nonNegativeInteger',
  minLength: 'nonNegativeInteger',
  pattern: 'regex',
  maxItems: 'nonNegativeInteger',
  minItems: 'nonNegativeInteger',
  uniqueItems: 'boolean',
  contains: 'schema',
  maxProperties: 'nonNegativeInteger',
  minProperties: 'nonNegativeInteger',
  required: 'stringSet',
  additionalProperties: 'schema',
  properties: 'schemaMap',
  patternProperties: 'patternSchemaMap',
  dependencies: 'dependencies',
  propertyNames: 'schema',
  format: 'string',
  contentMediaType: 'string',
  contentEncoding: 'string',
  if: 'schema',
  then: 'schema',
  else: 'schema',
  allOf: 'schemaArray',
  anyOf: 'schemaArray',
  oneOf: 'schemaArray',
  not: 'schema',
};

const RULES: Readonly<Record<Dialect, Readonly<Record<string, Shape>>>> = {
  '2020-12': {
    ...COMMON,
    $id: 'id2020',
    $anchor: 'anchor',
    $dynamicAnchor: 'anchor',
    $dynamicRef: 'string',
    $vocabulary: 'vocabulary',
    $defs: 'schemaMap',
    // Deprecated 2019-09 spellings the 2020-12 meta-schema still constrains.
    $recursiveAnchor: 'anchor',
    $recursiveRef: 'string',
    deprecated: 'boolean',
    prefixItems: 'schemaArray',
    items: 'schema',
    minContains: 'nonNegativeInteger',
    maxContains: 'nonNegativeInteger',
    dependentRequired: 'stringSetMap',
    dependentSchemas: 'schemaMap',
    unevaluatedItems: 'schema',
    unevaluatedProperties: 'schema',
    contentSchema: 'schema',
  },
  'draft-07': {
    ...COMMON,
    $id: 'string',
    enum: 'enum07',
    items: 'items07',
    additionalItems: 'schema',
  },
};

const MESSAGES: Record<Shape, string> = {
  string: 'must be a string',
  boolean: 'must be a boolean',
  number: 'must be a number',
  positiveNumber: 'must be a number greater than 0',
  nonNegativeInteger: 'must be a non-negative integer',
  array: 'must be an array',
  enum07: 'must be a non-empty array of unique values',
  type: `must be one of ${[...SIMPLE_TYPES].join(', ')}, or a non-empty array of unique type names`,
  stringSet: 'must be an array of unique strings',
  regex: 'must be a valid ECMAScript regular expression (Unicode mode)',
  schema: 'must be a schema (an object or a boolean)',
  schemaArray: 'must be a non-empty array of schemas',
  schemaMap: 'must be an object whose values are schemas',
  patternSchemaMap: 'must be an object whose keys are valid regular expressions and whose values are schemas',
  stringSetMap: 'must be an object whose values are arrays of unique strings',
  dependencies: 'must be an object whose values are schemas or arrays of unique strings',
  items07: 'must be a schema or a non-empty array of schemas',
  anchor: 'must be a string matching ^[A-Za-z_][-A-Za-z0-9._]*$',
  id2020: 'must be a URI reference without a non-empty fragment',
  vocabulary: 'must be an object whose values are booleans',
};

export function isValidRegex(source: string): boolean {
  try {
    new RegExp(source, 'u');
    return true;
  } catch {
    return false;
  }
}

function isStringSet(value: unknown): boolean {
  return (
    Array.isArray(value) && value.every((s) => typeof s === 'string') && new Set(value).size === value.length
  );
}

function isType(value: unknown): boolean {
  if (typeof value === 'string') return SIMPLE_TYPES.has(value);
  return (
    Array.isArray(value) &&
    value.length > 0 &&
    value.every((t) => typeof t === 'string' && SIMPLE_TYPES.has(t)) &&
    new Set(value).size === value.length
  );
}

function matchesShape(shape: Shape, value: unknown): boolean {
  switch (shape) {
    case 'string':
      return typeof value === 'string';
    case 'boolean':
      return typeof value === 'boolean';
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'positiveNumber':
      return typeof value === 'number' && Number.isFinite(value) && value > 0;
    case 'nonNegativeInteger':
      return typeof value === 'number' && Number.isInteger(value) && value >= 0;
    case 'array':
      return Array.isArray(value);
    case 'enum07':
      return Array.isArray(value) && value.length > 0 && findDuplicate(value) === undefined;
    case 'type':
      return isType(value);
    case 'stringSet':
      return isStringSet(value);
    case 'regex':
      return typeof value === 'string' && isValidRegex(value);
    case 'schema':
      return isSchema(value);
    case 'schemaArray':
      return Array.isArray(value) && value.length > 0 && value.every(isSchema);
    case 'schemaMap':
      return isSchemaObject(value) && Object.values(value).every(isSchema);
    case 'patternSchemaMap':
      return isSchemaObject(value) && Object.entries(value).every(([k, v]) => isValidRegex(k) && isSchema(v));
    case 'stringSetMap':
      return isSchemaObject(value) && Object.values(value).every(isStringSet);
    case 'dependencies':
      return isSchemaObject(value) && Object.values(value).every((v) => isSchema(v) || isStringSet(v));
    case 'items07':
      return isSchema(value) || (Array.isArray(value) && value.length > 0 && value.every(isSchema));
    case 'anchor':
      return typeof value === 'string' && ANCHOR.test(value);
    case 'id2020':
      return typeof value === 'string' && /^[^#]*#?$/.test(value);
    case 'vocabulary':
      return isSchemaObject(value) && Object.values(value).every((v) => typeof v === 'boolean');
  }
}

/**
 * Checks that `schema` is valid for its declared (or the default) dialect. Returns issues whose
 * `instancePath` points into the schema document; an empty array means the schema is valid.
 */
export function checkSchema(
  schema: JsonSchema,
  options: { defaultDialect?: Dialect } = {},
): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const visit = (node: unknown, path: string, inherited: Dialect, depth: number): void => {
    if (typeof node === 'boolean') return;
    if (!isSchemaObject(node)) {
      issues.push({ instancePath: path, schemaPath: '', keyword: 'type', message: MESSAGES.schema });
      return;
    }
    let dialect = inherited;
    const declared = node['$schema'];
    // `$schema` switches dialect at the document root and at embedded resources (those with `$id`).
    if (declared !== undefined && (path === '' || typeof node['$id'] === 'string')) {
      const found = typeof declared === 'string' ? dialectOfUri(declared) : undefined;
      if (found === undefined) {
        issues.push({
          instancePath: appendPointer(path, '$schema'),
          schemaPath: '',
          keyword: '$schema',
          message: `unsupported dialect ${JSON.stringify(declared)}; supported: ${Object.values(DIALECT_URIS).join(', ')}`,
        });
        return;
      }
      dialect = found;
    }
    const rules = RULES[dialect];
    const metaUri = DIALECT_URIS[dialect];
    for (const keyword of Object.keys(node)) {
      const shape = rules[keyword];
      if (shape === undefined || matchesShape(shape, node[keyword])) continue;
      issues.push({
        instancePath: appendPointer(path, keyword),
        schemaPath: metaUri,
        keyword,
        message: `${keyword} ${MESSAGES[shape]}`,
      });
    }
    if (depth >= CHECK_DEPTH_LIMIT) {
      issues.push({
        instancePath: path,
        schemaPath: '',
        keyword: '$schema',
        message: `schema nesting exceeds ${CHECK_DEPTH_LIMIT} levels; not checked further`,
      });
      return;
    }
    forEachSubschema(node, dialect, (sub, tokens) =>
      visit(sub, appendPointer(path, ...tokens), dialect, depth + 1),
    );
  };
  visit(schema, '', options.defaultDialect ?? '2020-12', 0);
  return issues;
}
