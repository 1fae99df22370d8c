/**
 * Paginated list results, assembled from per-item JSON that was serialized once at registration. When nothing in
 * a list depends on the caller, whole pages are cached per definition version and revision.
 */
import type { RevisionSpec } from '../protocol/revisions.js';
import type { CacheScope } from '../protocol/types.js';
import type { Caller } from './context.js';
import { decodeCursor, encodeCursor, type ListKind } from './cursor.js';
import { isVisible, type ServerDefinition } from './definition.js';
import type { ServerSecret } from './secret.js';

/** A result that is already final JSON (envelope fields included). */
export class RawResult {
  #bytes: Uint8Array | undefined;

  constructor(readonly json: string) {}

  /**
   * The JSON as UTF-8, encoded on first use and kept: a cached list page (hundreds of kilobytes for a large
   * catalogue) then goes to a socket without being copied and re-encoded for every request.
   */
  get bytes(): Uint8Array {
    return (this.#bytes ??= utf8.encode(this.json));
  }
}

const utf8 = new TextEncoder();

export interface ListItem {
  json(revision: RevisionSpec): string;
  readonly visible?: ((caller: Caller) => boolean) | undefined;
  readonly config?: { visible?: ((caller: Caller) => boolean) | undefined };
}

export interface ListRequest {
  kind: ListKind;
  /** The result's array field: tools, prompts, resources, resourceTemplates. */
  field: string;
  items: readonly ListItem[];
  /** Extra items computed per request (e.g. resources enumerated by templates), already serialized. */
  dynamic?: readonly string[];
  cursor: unknown;
  caller: Caller;
  revision: RevisionSpec;
  pageSize: number;
  secret: ServerSecret;
  /** JSON text appended to the result object (modern envelope), per cache scope. */
  envelope: (scope: CacheScope) => string;
  definition: ServerDefinition;
}

const pageCache = new WeakMap<ServerDefinition, Map<string, RawResult>>();

function filterOf(item: ListItem): ((caller: Caller) => boolean) | undefined {
  return item.visible ?? item.config?.visible;
}

export function listPage(request: ListRequest): RawResult {
  const offset = decodeCursor(request.secret, request.kind, request.cursor);
  const callerDependent =
    request.dynamic !== undefined || request.items.some((item) => filterOf(item) !== undefined);

  let cacheKey: string | undefined;
  let cache: Map<string, RawResult> | undefined;
  if (!callerDependent) {
    cache = pageCache.get(request.definition);
    if (!cache) pageCache.set(request.definition, (cache = new Map()));
    cacheKey = `${request.kind}|${request.revision.id}|${offset}`;
    const hit = cache.get(cacheKey);
    if (hit !== undefined) return hit;
  }

  const all: string[] = [];
  for (const item of request.items) {
    const filter = filterOf(item);
    if (filter && !isVisible({ visible: filter }, request.caller)) continue;
    all.push(item.json(request.revision));
  }
  if (request.dynamic) all.push(...request.dynamic);

  const page = all.slice(offset, offset + request.pageSize);
  let json = `{"${request.field}":[${page.join(',')}]`;
  if (offset + request.pageSize < all.length) {
    json += `,"nextCursor":${JSON.stringify(encodeCursor(request.secret, request.kind, offset + request.pageSize))}`;
  }
  json += `${request.envelope(callerDependent ? 'private' : 'public')}}`;
  const result = new RawResult(json);
  if (cache && cacheKey !== undefined) cache.set(cacheKey, result);
  return result;
}
