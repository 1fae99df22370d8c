import { SchemaError } from './errors.js';
import type { Dialect, JsonSchema } from './types.js';

export const DIALECT_URIS: Readonly<Record<Dialect, string>> = {
  '2020-12': 'https://json-schema.org/draft/2020-12/schema',
  'draft-07': 'http://json-schema.org/draft-07/schema#',
};

/** Maps a `$schema` value to a dialect, or `undefined` when we do not support it. */
export function dialectOfUri(uri: string): Dialect | undefined {
  // Accept http/https, with or without the empty fragment: generators disagree on both.
  const m = /^https?:\/\/json-schema\.org\/(draft-07\/schema|draft\/2020-12\/schema)#?$/.exec(uri);
  if (m === null) return undefined;
  return m[1] === 'draft-07/schema' ? 'draft-07' : '2020-12';
}

/** The dialect a schema declares through `$schema`, or `defaultDialect` when it declares none. */
export function detectDialect(schema: JsonSchema, defaultDialect: Dialect = '2020-12'): Dialect {
  if (typeof schema !== 'object' || schema === null || !('$schema' in schema)) return defaultDialect;
  return dialectOf(schema['$schema']);
}

/** Resolves a present `$schema` value; unknown dialects are an error per the MCP spec, never a fallback. */
export function dialectOf(value: unknown): Dialect {
  const dialect = typeof value === 'string' ? dialectOfUri(value) : undefined;
  if (dialect === undefined) {
    throw new SchemaError(
      'unsupported-dialect',
      `Unsupported JSON Schema dialect ${JSON.stringify(value)}: MCPEngine supports ` +
        `${DIALECT_URIS['2020-12']} (the default) and ${DIALECT_URIS['draft-07']}`,
    );
  }
  return dialect;
}
