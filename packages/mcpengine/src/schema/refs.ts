import { SchemaError } from './errors.js';
import { appendPointer, getByPointer, parsePointer } from './pointer.js';
import { DEFAULT_BASE, type Location, type SchemaIndex } from './registry.js';
import { resolveUri, splitFragment } from './uri.js';
import { isSchema } from './vocabulary.js';

export interface ResolvedRef {
  /** JSON Pointer of the target within the document. */
  readonly docPath: string;
  /** The fragment when it is a plain name (an anchor), for `$dynamicRef`. */
  readonly anchor: string | undefined;
}

/**
 * Resolves a `$ref`/`$dynamicRef` value against the base URI of the subschema holding it. Only the document
 * itself is searched: MCP forbids fetching, and an unresolvable reference must fail rather than pass silently.
 */
export function resolveRef(index: SchemaIndex, from: Location, ref: string, keyword: string): ResolvedRef {
  const where = `${keyword} ${JSON.stringify(ref)} at #${appendPointer(from.docPath, keyword)}`;
  const [uri, fragment] = splitFragment(resolveUri(from.baseUri, ref));
  const resource = index.resources.get(uri);
  if (resource === undefined) {
    const target = uri.startsWith(DEFAULT_BASE) || uri.startsWith('mcpengine:') ? 'a document' : `"${uri}"`;
    throw new SchemaError(
      'external-ref',
      `${where} refers to ${target} that is not embedded in this schema; MCPEngine never fetches schemas. ` +
        'Embed the referenced schema (e.g. under $defs with a matching $id) or inline it.',
    );
  }
  let decoded: string;
  try {
    decoded = decodeURIComponent(fragment);
  } catch {
    throw new SchemaError('unresolved-ref', `${where}: malformed percent-encoding in fragment`);
  }
  if (decoded === '' || decoded.startsWith('/')) {
    const tokens = parsePointer(decoded) ?? [];
    const resourceSchema = index.locations.get(resource.docPath)?.schema;
    if (!isSchema(getByPointer(resourceSchema, tokens))) {
      throw new SchemaError('unresolved-ref', `${where}: no schema at JSON Pointer "${decoded}" in "${uri}"`);
    }
    return { docPath: appendPointer(resource.docPath, ...tokens), anchor: undefined };
  }
  const docPath = index.anchors.get(uri + '#' + decoded);
  if (docPath === undefined) {
    throw new SchemaError('unresolved-ref', `${where}: no anchor named "${decoded}" in "${uri}"`);
  }
  return { docPath, anchor: decoded };
}
