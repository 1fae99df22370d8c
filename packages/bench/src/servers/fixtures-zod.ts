/**
 * The fixtures of `fixtures.ts` as zod schemas (the schema library both official SDKs document), for the SDK
 * servers only.
 */
import { z } from 'zod';
import { CHOICES, fieldsOf, type Field } from './fixtures.js';

export const echoZodSchema = () =>
  z
    .object({
      a: z.string(),
      b: z.number().int().min(0),
      c: z.boolean().optional(),
    })
    .strict();

function zodOf(field: Field): z.ZodType {
  let schema: z.ZodType;
  switch (field.kind) {
    case 'string':
      schema = z.string().max(200);
      break;
    case 'integer':
      schema = z.number().int().min(0).max(1000);
      break;
    case 'number':
      schema = z.number();
      break;
    case 'boolean':
      schema = z.boolean();
      break;
    case 'enum':
      schema = z.enum(CHOICES);
      break;
    case 'array':
      schema = z.array(z.string()).max(10);
      break;
  }
  schema = schema.describe(field.description);
  return field.required ? schema : schema.optional();
}

/** The same schema as a zod object, for the official SDKs. */
export function catalogZodSchema(tool: number): z.ZodObject {
  const fields = fieldsOf(tool);
  return z.object(Object.fromEntries(fields.map((f) => [f.name, zodOf(f)]))).strict();
}
