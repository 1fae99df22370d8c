import { dialectOf } from './dialect.js';
import { SchemaError } from './errors.js';
import { appendPointer } from './pointer.js';
import type { Dialect, JsonSchema } from './types.js';
import { resolveUri, splitFragment } from './uri.js';
import { forEachSubschema } from './vocabulary.js';

/**
 * The identifiers of one schema document: every subschema location, every embedded resource (`$id`) and every
 * anchor. Built in one pass before compiling, so `$ref`s can be resolved without ever fetching anything. The
 * same pass enforces the resource bounds, before any expensive work.
 */

/** Base URI for documents without `$id`. Hierarchical, so relative `$id`s inside still resolve. */
export const DEFAULT_BASE = 'mcpengine:/schema';

export interface Resource {
  /** Absolute URI without fragment. */
  readonly uri: string;
  /** JSON Pointer of the resource root within the document. */
  readonly docPath: string;
  readonly dialect: Dialect;
  /** `$dynamicAnchor` name → JSON Pointer of the subschema declaring it. */
  readonly dynamicAnchors: Map<string, string>;
}

export interface Location {
  readonly schema: JsonSchema;
  readonly docPath: string;
  readonly baseUri: string;
  readonly dialect: Dialect;
  readonly resource: Resource;
  /** Whether this subschema starts its resource (it is the document root or has `$id`). */
  readonly isResourceRoot: boolean;
}

export interface SchemaIndex {
  readonly root: JsonSchema;
  readonly locations: Map<string, Location>;
  readonly resources: Map<string, Resource>;
  /** `uri#name` → JSON Pointer, for `$anchor`, `$dynamicAnchor` and draft-07 `$id: "#name"`. */
  readonly anchors: Map<string, string>;
  /** Whether any `$dynamicRef` appears; only then is the dynamic scope tracked at run time. */
  usesDynamicRef: boolean;
  /** Whether any `unevaluatedProperties`/`unevaluatedItems` appears; only then do annotations matter. */
  usesUnevaluated: boolean;
}

export interface IndexLimits {
  maxDepth: number;
  maxSubschemas: number;
}

export function buildIndex(root: JsonSchema, rootDialect: Dialect, limits: IndexLimits): SchemaIndex {
  const index: SchemaIndex = {
    root,
    locations: new Map(),
    resources: new Map(),
    anchors: new Map(),
    usesDynamicRef: false,
    usesUnevaluated: false,
  };
  let count = 0;

  const addResource = (uri: string, docPath: string, dialect: Dialect): Resource => {
    if (index.resources.has(uri)) {
      throw new SchemaError('invalid-schema', `Duplicate schema resource "${uri}" (at #${docPath})`);
    }
    const resource: Resource = { uri, docPath, dialect, dynamicAnchors: new Map() };
    index.resources.set(uri, resource);
    return resource;
  };
  const addAnchor = (uri: string, name: string, docPath: string): void => {
    const key = uri + '#' + name;
    const existing = index.anchors.get(key);
    if (existing !== undefined && existing !== docPath) {
      throw new SchemaError('invalid-schema', `Duplicate anchor "${key}" (at #${existing} and #${docPath})`);
    }
    index.anchors.set(key, docPath);
  };

  const visit = (
    schema: JsonSchema,
    docPath: string,
    base: string,
    dialect: Dialect,
    resource: Resource | undefined,
    depth: number,
  ): void => {
    if (++count > limits.maxSubschemas) {
      throw new SchemaError('too-complex', `Schema has more than ${limits.maxSubschemas} subschemas`);
    }
    if (depth > limits.maxDepth) {
      throw new SchemaError(
        'too-complex',
        `Schema nesting exceeds ${limits.maxDepth} levels (at #${docPath})`,
      );
    }
    if (typeof schema === 'boolean') {
      // Only the root can be reached here without a resource; give it one so refs to it work.
      const res = resource ?? addResource(base, docPath, dialect);
      index.locations.set(docPath, {
        schema,
        docPath,
        baseUri: base,
        dialect,
        resource: res,
        isResourceRoot: !resource,
      });
      return;
    }
    const id = schema['$id'];
    const hasId = typeof id === 'string';
    if (schema['$schema'] !== undefined && (resource === undefined || hasId))
      dialect = dialectOf(schema['$schema']);

    let isResourceRoot = resource === undefined;
    let newResourceUri: string | undefined = isResourceRoot ? base : undefined;
    let anchorFromId: string | undefined;
    if (hasId) {
      // draft-07 ignores every sibling of `$ref`, `$id` included.
      const ignored = dialect === 'draft-07' && schema['$ref'] !== undefined;
      if (!ignored) {
        const [uri, fragment] = splitFragment(resolveUri(base, id));
        // An `$id` naming the enclosing resource again (such as "" or "#") starts nothing new.
        if (dialect === 'draft-07' && id.startsWith('#')) {
          anchorFromId = fragment;
        } else if (uri !== base || resource === undefined) {
          newResourceUri = uri;
          isResourceRoot = true;
          if (dialect === 'draft-07' && fragment !== '' && !fragment.startsWith('/')) anchorFromId = fragment;
        }
      }
    }
    let res = resource;
    if (isResourceRoot && newResourceUri !== undefined) {
      base = newResourceUri;
      res = addResource(newResourceUri, docPath, dialect);
    }
    if (res === undefined) throw new Error('unreachable: subschema without resource');
    if (anchorFromId !== undefined) addAnchor(base, anchorFromId, docPath);
    if (dialect === '2020-12') {
      const anchor = schema['$anchor'];
      if (typeof anchor === 'string') addAnchor(base, anchor, docPath);
      const dynamicAnchor = schema['$dynamicAnchor'];
      if (typeof dynamicAnchor === 'string') {
        // A dynamic anchor is also an ordinary anchor for plain `$ref`.
        addAnchor(base, dynamicAnchor, docPath);
        if (!res.dynamicAnchors.has(dynamicAnchor)) res.dynamicAnchors.set(dynamicAnchor, docPath);
      }
      if (schema['$dynamicRef'] !== undefined) index.usesDynamicRef = true;
      if (schema['unevaluatedProperties'] !== undefined || schema['unevaluatedItems'] !== undefined) {
        index.usesUnevaluated = true;
      }
    }
    index.locations.set(docPath, { schema, docPath, baseUri: base, dialect, resource: res, isResourceRoot });
    const childBase = base;
    const childDialect = dialect;
    const childResource = res;
    forEachSubschema(schema, dialect, (sub, tokens) =>
      visit(sub, appendPointer(docPath, ...tokens), childBase, childDialect, childResource, depth + 1),
    );
  };

  visit(root, '', DEFAULT_BASE, rootDialect, undefined, 0);
  return index;
}
