/**
 * A tool result against the tool's `outputSchema` (2025-06-18 on: "Servers MUST provide structured results that
 * conform to this schema"), with the engine's own JSON Schema validator, each schema compiled once.
 */
import { compileSchema, type JsonSchemaValidator } from 'mcpengine/schema';

type JsonObject = { [key: string]: unknown };

const compiled = new WeakMap<object, JsonSchemaValidator | Error>();

function validatorFor(schema: object): JsonSchemaValidator | Error {
  let validator = compiled.get(schema);
  if (validator === undefined) {
    try {
      validator = compileSchema(schema as never);
    } catch (error) {
      validator = error instanceof Error ? error : new Error(String(error));
    }
    compiled.set(schema, validator);
  }
  return validator;
}

/** What is wrong with a successful result's `structuredContent`; empty when fine or the tool declares no schema. */
export function outputSchemaFindings(tool: JsonObject | undefined, result: JsonObject): string[] {
  const schema = tool?.['outputSchema'];
  if (typeof schema !== 'object' || schema === null || result['isError'] === true) return [];
  const name = String(tool?.['name']);
  if (!('structuredContent' in result))
    return [`${name} declares an outputSchema, but the result has no structuredContent`];
  const validator = validatorFor(schema);
  if (validator instanceof Error)
    return [`the outputSchema of ${name} does not compile: ${validator.message}`];
  const verdict = validator.validate(result['structuredContent'] as never);
  if (verdict.valid) return [];
  return verdict.issues
    .slice(0, 10)
    .map(
      (issue) =>
        `structuredContent${issue.instancePath} does not match the outputSchema of ${name}: ${issue.message}`,
    );
}
