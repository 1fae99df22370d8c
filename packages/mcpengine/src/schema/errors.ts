import type { ValidationIssue } from './types.js';

export type SchemaErrorCode =
  'invalid-schema' | 'unsupported-dialect' | 'external-ref' | 'unresolved-ref' | 'too-complex';

/** Thrown when a schema cannot be compiled. Raised at definition time, never while validating a value. */
export class SchemaError extends Error {
  override readonly name = 'SchemaError';
  readonly code: SchemaErrorCode;
  readonly issues?: ValidationIssue[];

  constructor(code: SchemaErrorCode, message: string, issues?: ValidationIssue[]) {
    super(message);
    this.code = code;
    if (issues !== undefined) this.issues = issues;
  }
}
