/**
 * Recognises how a GET operation pages, from its query parameters, its 2xx response schema and headers:
 * `starting_after` + `has_more` (Stripe), a cursor parameter with a next-cursor field (Slack's
 * `response_metadata.next_cursor`, `next_cursor`, `nextPageToken`…), a next-page URL field (Twilio's
 * `next_page_uri`), a `Link` response header (GitHub), or a `page` number.
 */
import type { Pagination } from '../runtime/model.js';

type Raw = Record<string, unknown>;

function isObject(value: unknown): value is Raw {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const CURSOR_PARAMS =
  /^(cursor|page_?token|next_?token|next_?cursor|continuation_?token|pagination_?token|after|marker|next_page_token)$/i;
const NEXT_FIELDS =
  /^(next_?cursor|next_?page_?token|next_?token|next_?marker|cursor|continuation_?token|after)$/i;
const NEXT_URL_FIELDS = /^(next_?page_?(uri|url)|next_?(uri|url|link)|next)$/i;

function properties(schema: unknown): Raw {
  if (!isObject(schema)) return {};
  const own = isObject(schema['properties']) ? schema['properties'] : {};
  const merged: Raw = { ...own };
  if (Array.isArray(schema['allOf']))
    for (const part of schema['allOf']) Object.assign(merged, properties(part));
  return merged;
}

/** Paths (up to two levels deep) to properties whose names match. */
function findField(schema: unknown, pattern: RegExp, depth = 0): string[] | undefined {
  const props = properties(schema);
  for (const [name, sub] of Object.entries(props)) {
    if (
      pattern.test(name) &&
      isObject(sub) &&
      (sub['type'] === undefined ||
        sub['type'] === 'string' ||
        (Array.isArray(sub['type']) && sub['type'].includes('string')))
    )
      return [name];
  }
  if (depth >= 1) return undefined;
  for (const [name, sub] of Object.entries(props)) {
    if (/^(response_metadata|meta|metadata|pagination|paging|links|_links|page_info|pageinfo)$/i.test(name)) {
      const inner = findField(sub, pattern, depth + 1);
      if (inner) return [name, ...inner];
    }
  }
  return undefined;
}

export function detectPagination(
  query: readonly { arg: string; name: string; integer: boolean }[],
  response: unknown,
  headers: readonly string[],
  arg: string,
): Pagination | undefined {
  const props = properties(response);
  const hasArray =
    Array.isArray(isObject(response) ? undefined : response) ||
    Object.values(props).some((p) => isObject(p) && p['type'] === 'array') ||
    (isObject(response) && response['type'] === 'array');
  const after = query.find((q) => /^starting_after$/i.test(q.name));
  if (after && 'has_more' in props) {
    const items = Object.entries(props).find(([, p]) => isObject(p) && p['type'] === 'array')?.[0] ?? 'data';
    return { arg, kind: 'after-last', param: after.arg, items, more: 'has_more' };
  }
  const cursor = query.find((q) => CURSOR_PARAMS.test(q.name));
  if (cursor) {
    const next = findField(response, NEXT_FIELDS);
    if (next) return { arg, kind: 'cursor', param: cursor.arg, next };
  }
  const nextUrl = findField(response, NEXT_URL_FIELDS);
  if (nextUrl && hasArray) return { arg, kind: 'next-url', next: nextUrl };
  if (headers.some((h) => h.toLowerCase() === 'link')) return { arg, kind: 'link' };
  const page = query.find((q) => /^page$/i.test(q.name) && q.integer);
  if (page && hasArray) return { arg, kind: 'page', param: page.arg };
  return undefined;
}
