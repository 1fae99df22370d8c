/**
 * JSON Schema for MCPEngine: an in-house validator (2020-12 and draft-07, compiled once into closures, no
 * `eval`) and an adapter from Standard Schema libraries to tool schemas.
 *
 * Supported dialects: JSON Schema 2020-12 (the default when `$schema` is absent) and draft-07. Any other
 * `$schema` is rejected with `SchemaError` code `unsupported-dialect`. `$ref`s are resolved only within the
 * schema document; nothing is ever fetched.
 */
export type {
  CompileOptions,
  Dialect,
  JsonSchema,
  JsonSchemaValidator,
  ValidationIssue,
  ValidationResult,
} from './types.js';
export { SchemaError, type SchemaErrorCode } from './errors.js';
export { compileSchema } from './compile.js';
export { checkSchema } from './meta.js';
export { detectDialect } from './dialect.js';
export {
  toToolSchema,
  isStandardSchema,
  type StandardSchemaLike,
  type StandardIssueLike,
  type StandardResultLike,
  type StandardJsonSchemaConverterLike,
  type ToolSchema,
  type ToolSchemaOptions,
} from './standard.js';
