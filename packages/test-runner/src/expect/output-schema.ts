/**
 * A tool's outputSchema, enforced on every successful call the runner makes (the spec: "Servers MUST provide
 * structured results that conform to this schema", 2025-06-18 and later). Validators are compiled once per schema.
 */
import { compileSchema, type JsonSchemaValidator } from 'mcpengine/schema';
import type { JsonObject } from '../model.js';

const cache = new WeakMap<object, JsonSchemaValidator | Error>();

function validatorFor(schema: JsonObject): JsonSchemaValidator | Error {
  let validator = cache.get(schema);
  if (validator === undefined) {
    try {
      validator = compileSchema(schema);
    } catch (error) {
      validator = error as Error;
    }
    cache.set(schema, validator);
  }
  return validator;
}

/** Problems with a non-error tool result against the tool's declared outputSchema (none when it declares none). */
export function outputSchemaProblems(tool: JsonObject | undefined, result: JsonObject): string[] {
  const schema = tool?.['outputSchema'];
  if (typeof schema !== 'object' || schema === null || result['isError'] === true) return [];
  const name = String(tool?.['name']);
  if (!('structuredContent' in result))
    return [
      `${name} declares an outputSchema but the result has no structuredContent (the spec: servers MUST provide structured results that conform to it)`,
    ];
  const validator = validatorFor(schema as JsonObject);
  if (validator instanceof Error) return [`${name}'s outputSchema cannot be compiled: ${validator.message}`];
  const verdict = validator.validate(result['structuredContent']);
  if (verdict.valid) return [];
  const issues = verdict.issues
    .slice(0, 5)
    .map((issue) => `${issue.instancePath || '(root)'} ${issue.message}`);
  return [`structuredContent does not conform to ${name}'s outputSchema: ${issues.join('; ')}`];
}
