import { compileSchema } from './compile.js';
import { DIALECT_URIS } from './dialect.js';
import { SchemaError } from './errors.js';
import { escapeToken } from './pointer.js';
import type { CompileOptions, Dialect, JsonSchema, ValidationIssue, ValidationResult } from './types.js';

/*
 * Structural types for Standard Schema v1 and Standard JSON Schema v1 (https://standardschema.dev). Declared
 * here rather than imported so that no schema library, nor the spec package, is a runtime dependency.
 */

export interface StandardIssueLike {
  readonly message: string;
  readonly path?: ReadonlyArray<PropertyKey | { readonly key: PropertyKey }> | undefined;
}

export type StandardResultLike<Output> =
  | { readonly value: Output; readonly issues?: undefined }
  | { readonly issues: ReadonlyArray<StandardIssueLike> };

export interface StandardJsonSchemaConverterLike {
  readonly input: (options: {
    readonly target: string;
    readonly libraryOptions?: Record<string, unknown>;
  }) => Record<string, unknown>;
  readonly output: (options: {
    readonly target: string;
    readonly libraryOptions?: Record<string, unknown>;
  }) => Record<string, unknown>;
}

/** A Standard Schema (validation), a Standard JSON Schema (conversion), or, ideally, both. */
export interface StandardSchemaLike<Input = unknown, Output = Input> {
  readonly '~standard': {
    readonly version: 1;
    readonly vendor: string;
    readonly validate?: (
      value: unknown,
      options?: { readonly libraryOptions?: Record<string, unknown> | undefined },
    ) => StandardResultLike<Output> | Promise<StandardResultLike<Output>>;
    readonly jsonSchema?: StandardJsonSchemaConverterLike;
    readonly types?: { readonly input: Input; readonly output: Output } | undefined;
  };
}

/** What a tool definition needs from a schema: the JSON Schema to advertise and a way to validate. */
export interface ToolSchema<T = unknown> {
  readonly jsonSchema: { [key: string]: unknown };
  readonly dialect: Dialect;
  validate(value: unknown): ValidationResult<T> | Promise<ValidationResult<T>>;
  /**
   * A synchronous yes/no check, present when validation never changes the value (a plain JSON Schema): a value
   * it accepts is the validated value itself. Lets the hot path skip building a result; `validate` explains a no.
   */
  readonly accepts?: (value: unknown) => boolean;
}

export type ToolSchemaOptions = CompileOptions & {
  /** Which side of a transforming schema to describe: `input` (default, for tool arguments) or `output`. */
  io?: 'input' | 'output';
};

export function isStandardSchema(value: unknown): value is StandardSchemaLike {
  if (typeof value !== 'object' && typeof value !== 'function') return false;
  if (value === null) return false;
  const props = (value as { '~standard'?: unknown })['~standard'];
  return typeof props === 'object' && props !== null && (props as { version?: unknown }).version === 1;
}

/** Standard Schema paths are keys or `{ key }` segments; ours are JSON Pointers. */
function toPointer(path: StandardIssueLike['path']): string {
  if (path === undefined) return '';
  let out = '';
  for (const segment of path) {
    const key = typeof segment === 'object' && segment !== null ? segment.key : segment;
    out += '/' + escapeToken(typeof key === 'symbol' ? (key.description ?? '') : String(key));
  }
  return out;
}

function toIssue(issue: StandardIssueLike, vendor: string): ValidationIssue {
  const code = (issue as { code?: unknown }).code;
  return {
    instancePath: toPointer(issue.path),
    schemaPath: '',
    keyword: typeof code === 'string' ? code : vendor,
    message: issue.message,
  };
}

function toResult<T>(result: StandardResultLike<T>, vendor: string): ValidationResult<T> {
  if (result.issues) return { valid: false, issues: result.issues.map((i) => toIssue(i, vendor)) };
  return { valid: true, value: (result as { value: T }).value };
}

const TARGETS: readonly { target: string; dialect: Dialect }[] = [
  { target: 'draft-2020-12', dialect: '2020-12' },
  { target: 'draft-07', dialect: 'draft-07' },
];

function fromStandard<T>(schema: StandardSchemaLike<unknown, T>, options: ToolSchemaOptions): ToolSchema<T> {
  const std = schema['~standard'];
  const io = options.io ?? 'input';
  const convert = std.jsonSchema?.[io];
  if (typeof convert !== 'function') {
    throw new SchemaError(
      'invalid-schema',
      `This ${std.vendor} schema has no Standard JSON Schema export ("~standard.jsonSchema"), so MCPEngine cannot ` +
        'produce the JSON Schema that MCP clients need. Pass a JSON Schema instead, or wrap the schema with your ' +
        "library's Standard JSON Schema converter (for valibot: toStandardJsonSchema() from @valibot/to-json-schema).",
    );
  }
  let exported: { [key: string]: unknown } | undefined;
  let dialect: Dialect = '2020-12';
  let failure: unknown;
  // 2020-12 is what MCP defaults to; draft-07 is the other dialect every converter is asked to support.
  for (const candidate of TARGETS) {
    try {
      exported = convert({ target: candidate.target });
      dialect = candidate.dialect;
      break;
    } catch (error) {
      failure ??= error;
    }
  }
  if (exported === undefined) {
    const reason = failure instanceof Error ? failure.message : String(failure);
    throw new SchemaError(
      'invalid-schema',
      `${std.vendor} could not convert this schema to JSON Schema (${io}): ${reason}`,
    );
  }
  // Clients assume 2020-12 without `$schema`, so a draft-07 export must say what it is.
  const jsonSchema =
    dialect === 'draft-07' && exported['$schema'] === undefined
      ? { $schema: DIALECT_URIS['draft-07'], ...exported }
      : exported;
  // Compiling proves the advertised schema is valid and self-contained, even when the library validates.
  const compiled = compileSchema<T>(jsonSchema, options);
  const validate = std.validate;
  if (validate === undefined) {
    return { jsonSchema, dialect: compiled.dialect, validate: compiled.validate, accepts: compiled.is };
  }
  const vendor = std.vendor;
  return {
    jsonSchema,
    dialect: compiled.dialect,
    validate(value: unknown): ValidationResult<T> | Promise<ValidationResult<T>> {
      const result = validate(value);
      // A thenable, not necessarily a native Promise (it may come from another realm or a polyfill).
      if (typeof (result as PromiseLike<unknown>).then === 'function') {
        return Promise.resolve(result).then((r) => toResult(r, vendor));
      }
      return toResult(result as StandardResultLike<T>, vendor);
    },
  };
}

/**
 * Turns what a user gives for a tool's input or output schema into a `ToolSchema`:
 * - a plain JSON Schema is compiled with `compileSchema`;
 * - a Standard Schema (zod 4, arktype 2, valibot via `@valibot/to-json-schema`'s `toStandardJsonSchema`, …) is
 *   advertised through its Standard JSON Schema export and validated by the library itself, so transforms apply.
 */
export function toToolSchema<T = unknown>(
  input: JsonSchema | StandardSchemaLike<unknown, T>,
  options: ToolSchemaOptions = {},
): ToolSchema<T> {
  if (isStandardSchema(input)) return fromStandard(input as StandardSchemaLike<unknown, T>, options);
  const validator = compileSchema<T>(input as JsonSchema, options);
  const jsonSchema =
    typeof input === 'boolean' ? (input ? {} : { not: {} }) : (input as { [key: string]: unknown });
  return { jsonSchema, dialect: validator.dialect, validate: validator.validate, accepts: validator.is };
}
