import type { Dialect, JsonSchema, SchemaObject } from './types.js';

/** Where a dialect keeps subschemas: which keywords hold one schema, an array of them, or a name→schema map. */
export interface SchemaPositions {
  readonly single: readonly string[];
  readonly array: readonly string[];
  readonly map: readonly string[];
}

const POSITIONS: Readonly<Record<Dialect, SchemaPositions>> = {
  '2020-12': {
    single: [
      'additionalProperties',
      'propertyNames',
      'not',
      'if',
      'then',
      'else',
      'contains',
      'items',
      'unevaluatedItems',
      'unevaluatedProperties',
      'contentSchema',
    ],
    array: ['allOf', 'anyOf', 'oneOf', 'prefixItems'],
    // `definitions` is only in the 2020-12 meta-schema for compatibility, but its values are schemas.
    map: ['$defs', 'definitions', 'properties', 'patternProperties', 'dependentSchemas'],
  },
  'draft-07': {
    single: [
      'additionalItems',
      'additionalProperties',
      'propertyNames',
      'not',
      'if',
      'then',
      'else',
      'contains',
      'items',
    ],
    array: ['allOf', 'anyOf', 'oneOf', 'items'],
    map: ['definitions', 'properties', 'patternProperties', 'dependencies'],
  },
};

export function schemaPositions(dialect: Dialect): SchemaPositions {
  return POSITIONS[dialect];
}

export function isSchemaObject(value: unknown): value is SchemaObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function isSchema(value: unknown): value is JsonSchema {
  return typeof value === 'boolean' || isSchemaObject(value);
}

/**
 * Calls `visit` for each direct subschema of `schema` with the reference tokens leading to it. Tolerates
 * malformed keyword values (they are simply not subschemas), so it is safe to run before `checkSchema`.
 */
export function forEachSubschema(
  schema: SchemaObject,
  dialect: Dialect,
  visit: (sub: JsonSchema, tokens: readonly (string | number)[]) => void,
): void {
  const pos = POSITIONS[dialect];
  for (const kw of pos.single) {
    const v = schema[kw];
    if (isSchema(v)) visit(v, [kw]);
  }
  for (const kw of pos.array) {
    const v = schema[kw];
    if (!Array.isArray(v)) continue;
    for (let i = 0; i < v.length; i++) {
      const item: unknown = v[i];
      if (isSchema(item)) visit(item, [kw, i]);
    }
  }
  for (const kw of pos.map) {
    const v = schema[kw];
    if (!isSchemaObject(v)) continue;
    for (const name of Object.keys(v)) {
      const item = v[name];
      if (isSchema(item)) visit(item, [kw, name]);
    }
  }
}
