/**
 * What every server under test offers, defined once so that all implementations serve the same thing:
 *
 * - `echo`: a small tool with a validated 3-field input (`a` string, `b` integer ≥ 0, `c` boolean; `a` and `b`
 *   required; nothing else allowed), answering one text block;
 * - the catalogue: 53 tools of 25 described fields each, for `tools/list`.
 *
 * JSON Schema for MCPEngine, zod (the schema library both official SDKs document) for the peers.
 */
import { z } from 'zod';

export const SERVER_INFO = { name: 'bench-server', version: '1.0.0' } as const;

export const ECHO_DESCRIPTION = 'Echoes its three validated arguments';

export const ECHO_INPUT_SCHEMA = {
  type: 'object',
  properties: {
    a: { type: 'string' },
    b: { type: 'integer', minimum: 0 },
    c: { type: 'boolean' },
  },
  required: ['a', 'b'],
  additionalProperties: false,
} as const;

export const echoZodSchema = () =>
  z
    .object({
      a: z.string(),
      b: z.number().int().min(0),
      c: z.boolean().optional(),
    })
    .strict();

export interface EchoArgs {
  a: string;
  b: number;
  c?: boolean | undefined;
}

export const echoText = (args: EchoArgs): string => `${args.a} ${args.b} ${args.c ?? false}`;

/** The arguments every benchmark call sends, and the text the tool must answer. */
export const ECHO_ARGS = { a: 'hello', b: 42, c: true } as const;
export const ECHO_EXPECTED = echoText(ECHO_ARGS);

export const CATALOG_TOOLS = 53;
export const CATALOG_FIELDS = 25;

type FieldKind = 'string' | 'integer' | 'number' | 'boolean' | 'enum' | 'array';
const KINDS: readonly FieldKind[] = ['string', 'integer', 'number', 'boolean', 'enum', 'array'];
const CHOICES = ['low', 'medium', 'high', 'critical'] as const;

interface Field {
  name: string;
  kind: FieldKind;
  description: string;
  required: boolean;
}

export const catalogToolName = (index: number): string => `catalog_tool_${String(index).padStart(2, '0')}`;

function fieldsOf(tool: number): Field[] {
  const fields: Field[] = [];
  for (let i = 0; i < CATALOG_FIELDS; i++) {
    const kind = KINDS[(i + tool) % KINDS.length]!;
    fields.push({
      name: `field_${String(i).padStart(2, '0')}`,
      kind,
      description: `Field ${i} of tool ${tool}: a ${kind} parameter that the tool uses to filter its results`,
      required: i < 5,
    });
  }
  return fields;
}

export const catalogDescription = (tool: number): string =>
  `Catalogue tool ${tool}: searches the catalogue with up to ${CATALOG_FIELDS} filters and returns matching entries`;

function jsonSchemaOf(field: Field): Record<string, unknown> {
  switch (field.kind) {
    case 'string':
      return { type: 'string', maxLength: 200, description: field.description };
    case 'integer':
      return { type: 'integer', minimum: 0, maximum: 1000, description: field.description };
    case 'number':
      return { type: 'number', description: field.description };
    case 'boolean':
      return { type: 'boolean', description: field.description };
    case 'enum':
      return { type: 'string', enum: [...CHOICES], description: field.description };
    case 'array':
      return { type: 'array', items: { type: 'string' }, maxItems: 10, description: field.description };
  }
}

/** The JSON Schema of catalogue tool `tool` (MCPEngine's native form). */
export function catalogJsonSchema(tool: number): Record<string, unknown> {
  const fields = fieldsOf(tool);
  return {
    type: 'object',
    properties: Object.fromEntries(fields.map((f) => [f.name, jsonSchemaOf(f)])),
    required: fields.filter((f) => f.required).map((f) => f.name),
    additionalProperties: false,
  };
}

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
