import type { Cell, Check, ScopeEntry } from './context.js';
import { appendPointer } from './pointer.js';
import type { Location, Resource, SchemaIndex } from './registry.js';
import type { Dialect, JsonSchema, SchemaObject } from './types.js';

/**
 * What node and keyword compilers may ask of the document compiler (`DocumentCompiler` in document.ts
 * implements it). Declared here, not imported from there, because the document compiler calls the keyword
 * compilers: importing it back would make an import cycle.
 */
export interface SubschemaCompiler {
  readonly index: SchemaIndex;
  readonly assertFormats: boolean;
  /** The compiled check for the subschema at `docPath` (a JSON Pointer into the document). */
  compileAt(docPath: string): Check;
  /** A cell that will hold the check for `docPath` once every `$ref` target is compiled. */
  cell(docPath: string): Cell;
  /** The dynamic-scope entry of a resource, mapping its `$dynamicAnchor`s to cells. */
  scopeEntry(resource: Resource): ScopeEntry;
  /** The location at `docPath`, even one the index did not visit. */
  location(docPath: string): Location;
}

/** What a keyword compiler sees: the subschema being compiled and ways to compile its children. */
export interface KeywordContext {
  readonly schema: SchemaObject;
  readonly location: Location;
  readonly dialect: Dialect;
  readonly doc: SubschemaCompiler;
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
  doc: SubschemaCompiler,
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
