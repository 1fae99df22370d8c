import { DocumentCompiler } from './document.js';
import { detectDialect } from './dialect.js';
import { SchemaError } from './errors.js';
import { checkSchema } from './meta.js';
import { resolveRef } from './refs.js';
import { buildIndex } from './registry.js';
import type { CompileOptions, JsonSchema, JsonSchemaValidator } from './types.js';
import { createValidator } from './validator.js';
import { isSchema } from './vocabulary.js';

export const DEFAULT_MAX_DEPTH = 64;
export const DEFAULT_MAX_SUBSCHEMAS = 10_000;
export const DEFAULT_MAX_ISSUES = 100;

/**
 * Compiles a JSON Schema into a validator, once, at definition time. Throws `SchemaError` for schemas that are
 * invalid for their dialect, use an unsupported dialect, reference anything outside the document, or exceed
 * the resource bounds. No code generation: the result is a tree of closures, safe under CSP and on edge runtimes.
 */
export function compileSchema<T = unknown>(
  schema: JsonSchema,
  options: CompileOptions = {},
): JsonSchemaValidator<T> {
  const defaultDialect = options.defaultDialect ?? '2020-12';
  if (!isSchema(schema))
    throw new SchemaError('invalid-schema', 'A JSON Schema must be an object or a boolean');
  const dialect = detectDialect(schema, defaultDialect);
  // Bounds are enforced while indexing, before the more expensive meta-schema check and compilation.
  const index = buildIndex(schema, dialect, {
    maxDepth: options.maxDepth ?? DEFAULT_MAX_DEPTH,
    maxSubschemas: options.maxSubschemas ?? DEFAULT_MAX_SUBSCHEMAS,
  });
  const issues = checkSchema(schema, { defaultDialect });
  if (issues.length > 0) {
    const summary = issues
      .slice(0, 3)
      .map((i) => `${i.instancePath === '' ? '(root)' : i.instancePath}: ${i.message}`)
      .join('; ');
    const more = issues.length > 3 ? ` (and ${issues.length - 3} more)` : '';
    throw new SchemaError('invalid-schema', `Invalid JSON Schema (${dialect}): ${summary}${more}`, issues);
  }
  // Every reference must resolve, even in unused $defs: the schema is advertised to peers as self-contained.
  let usesRefs = false;
  for (const location of index.locations.values()) {
    const node = location.schema;
    if (typeof node !== 'object') continue;
    if (typeof node['$ref'] === 'string') {
      resolveRef(index, location, node['$ref'], '$ref');
      usesRefs = true;
    }
    if (location.dialect === '2020-12' && typeof node['$dynamicRef'] === 'string') {
      resolveRef(index, location, node['$dynamicRef'], '$dynamicRef');
      usesRefs = true;
    }
  }
  const doc = new DocumentCompiler(index, (options.formats ?? 'assert') === 'assert');
  const root = doc.compileAt('');
  doc.drain();
  return createValidator<T>(schema, dialect, root, {
    maxIssues: options.maxIssues ?? DEFAULT_MAX_ISSUES,
    usesRefs,
    usesDynamicRef: index.usesDynamicRef,
  });
}
