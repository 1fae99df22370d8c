/** The JSON Schema dialects MCPEngine validates. Anything else is rejected with `unsupported-dialect`. */
export type Dialect = '2020-12' | 'draft-07';

/** A JSON Schema document or subschema: an object, or `true`/`false`. */
export type JsonSchema = boolean | { [key: string]: unknown };

/** The object form of a schema, as found inside a document. */
export type SchemaObject = { [key: string]: unknown };

export interface ValidationIssue {
  /** JSON Pointer (RFC 6901) to the offending part of the instance; `''` is the instance itself. */
  instancePath: string;
  /** URI fragment form of the JSON Pointer to the failing keyword within the schema document, e.g. `#/properties/a/type`. */
  schemaPath: string;
  /** The keyword that failed, e.g. `type`, `required`. */
  keyword: string;
  /** Human-readable description, e.g. `must be a string`. */
  message: string;
}

export type ValidationResult<T> = { valid: true; value: T } | { valid: false; issues: ValidationIssue[] };

export interface JsonSchemaValidator<T = unknown> {
  readonly schema: JsonSchema;
  readonly dialect: Dialect;
  /** Fast path: short-circuits on the first failure and allocates nothing for schemas without `unevaluated*`. */
  is(value: unknown): value is T;
  /** Full path: on failure, reports every issue (up to `maxIssues`). Never mutates `value`. */
  validate(value: unknown): ValidationResult<T>;
}

export interface CompileOptions {
  /** Dialect for schemas without `$schema`. MCP mandates 2020-12, the default. */
  defaultDialect?: Dialect;
  /** `assert` (default) makes the formats we know validating; `annotate` treats every format as a note. */
  formats?: 'annotate' | 'assert';
  /** Maximum nesting of subschemas in the schema document (default 64). */
  maxDepth?: number;
  /** Maximum number of subschemas in the schema document (default 10,000). */
  maxSubschemas?: number;
  /** Maximum number of issues `validate` reports (default 100). */
  maxIssues?: number;
}
