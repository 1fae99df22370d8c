import type { Check } from './context.js';
import type { DocumentCompiler } from './document.js';
import { appendPointer } from './pointer.js';
import type { Location } from './registry.js';
import type { Dialect, JsonSchema, SchemaObject } from './types.js';

/** What a keyword compiler sees: the subschema being compiled and ways to compile its children. */
export interface KeywordContext {
  readonly schema: SchemaObject;
  readonly location: Location;
  readonly dialect: Dialect;
  readonly doc: DocumentCompiler;
  /** The schema path of a keyword (or a token under it), e.g. `#/properties/a/minLength`. */
  at(...tokens: (string | number)[]): string;
  /** Compiles the subschema found under `tokens`. */
  sub(...tokens: (string | number)[]): Check;
  /** Whether the subschema under `tokens` can never fail (so callers may skip calling it). */
  trivial(...tokens: (string | number)[]): boolean;
}

/** Compiles the keywords of one family (e.g. string keywords), appending their checks to `out`. */
export type KeywordCompiler = (cx: KeywordContext, out: Check[]) => void;

/** Keywords that never assert anything, so a subschema made only of them always passes. */
const ANNOTATION_ONLY = new Set([
  'title',
  'description',
  'default',
  'examples',
  '$comment',
  'deprecated',
  'readOnly',
  'writeOnly',
  '$defs',
  'definitions',
  '$anchor',
  '$dynamicAnchor',
  '$id',
  '$schema',
  'contentMediaType',
  'contentEncoding',
  'contentSchema',
]);

export function isTrivial(schema: unknown): boolean {
  if (schema === true) return true;
  if (typeof schema !== 'object' || schema === null) return false;
  for (const key in schema) if (!ANNOTATION_ONLY.has(key)) return false;
  return true;
}

export function keywordContext(
  doc: DocumentCompiler,
  location: Location,
  schema: SchemaObject,
): KeywordContext {
  const docPath = location.docPath;
  const valueAt = (tokens: (string | number)[]): JsonSchema | undefined => {
    let cur: unknown = schema;
    for (const t of tokens) cur = (cur as Record<string | number, unknown> | undefined)?.[t];
    return cur as JsonSchema | undefined;
  };
  return {
    schema,
    location,
    dialect: location.dialect,
    doc,
    at: (...tokens) => '#' + appendPointer(docPath, ...tokens),
    sub: (...tokens) => doc.compileAt(appendPointer(docPath, ...tokens)),
    trivial: (...tokens) => isTrivial(valueAt(tokens)),
  };
}
