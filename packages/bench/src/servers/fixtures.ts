/**
 * What every server under test offers, defined once so that all implementations serve the same thing:
 *
 * - `echo`: a small tool with a validated 3-field input (`a` string, `b` integer ≥ 0, `c` boolean; `a` and `b`
 *   required; nothing else allowed), answering one text block;
 * - the catalogue: 53 tools of 25 described fields each, for `tools/list`.
 *
 * JSON Schema for MCPEngine; the zod forms for the official SDKs are in `fixtures-zod.ts`, so that only the servers
 * that use zod load it.
 */
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
export const CHOICES = ['low', 'medium', 'high', 'critical'] as const;

export interface Field {
  name: string;
  kind: FieldKind;
  description: string;
  required: boolean;
}

export const catalogToolName = (index: number): string => `catalog_tool_${String(index).padStart(2, '0')}`;

export function fieldsOf(tool: number): Field[] {
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
