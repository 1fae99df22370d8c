/**
 * `server.json` checked against the MCP Registry's own schema, vendored in `registry/server.schema.json`
 * (see the `$comment` there for its origin). The `$schema` URL a file declares may name a later schema date;
 * the structure is checked against the vendored one and the date is reported, not rejected.
 */
import { readFileSync } from 'node:fs';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';

const SCHEMA_URL = new URL('../registry/server.schema.json', import.meta.url);
export const SERVER_SCHEMA_PREFIX = 'https://static.modelcontextprotocol.io/schemas/';

let validator: ValidateFunction | undefined;

function compile(): ValidateFunction {
  const ajv = new Ajv({ allErrors: true, strict: false });
  addFormats.default(ajv);
  return ajv.compile(JSON.parse(readFileSync(SCHEMA_URL, 'utf8')) as object);
}

const describe = (error: ErrorObject): string =>
  `${error.instancePath || '/'} ${error.message ?? 'is invalid'}`;

/** The schema errors of a server.json document, one line each; empty when valid. */
export function validateServerJson(document: unknown): string[] {
  validator ??= compile();
  const problems: string[] = [];
  if (!validator(document)) problems.push(...new Set((validator.errors ?? []).map(describe)));
  const declared = (document as { $schema?: unknown } | null)?.$schema;
  if (typeof declared === 'string' && !declared.startsWith(SERVER_SCHEMA_PREFIX))
    problems.push(`/$schema ${declared} is not an MCP Registry schema URL`);
  return problems;
}
