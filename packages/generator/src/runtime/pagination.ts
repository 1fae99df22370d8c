/**
 * Following pages: cursor fields, "after the last item" (Stripe's `starting_after` + `has_more`), next-page
 * URLs in the body (Twilio's `next_page_uri`), page numbers, and RFC 8288 `Link: <…>; rel="next"` headers. Pages
 * are merged by concatenating the list they carry; the caller caps the number of pages.
 */
import type { Pagination } from './model.js';

type JsonObject = Record<string, unknown>;

function at(value: unknown, path: readonly string[]): unknown {
  let node = value;
  for (const key of path) {
    if (typeof node !== 'object' || node === null || Array.isArray(node)) return undefined;
    node = (node as JsonObject)[key];
  }
  return node;
}

/** The `rel="next"` target of a Link header. */
export function nextLink(header: string | null): string | undefined {
  if (header === null) return undefined;
  for (const part of header.split(/,(?=\s*<)/)) {
    const match = /^\s*<([^>]*)>(.*)$/.exec(part);
    if (match && /;\s*rel\s*=\s*"?([^";]*\s)?next(\s[^";]*)?"?/i.test(match[2]!)) return match[1];
  }
  return undefined;
}

/** The list a page carries: the page itself, the named property, or the longest array property. */
export function listKey(page: unknown, named?: string): string | undefined | null {
  if (Array.isArray(page)) return null;
  if (typeof page !== 'object' || page === null) return undefined;
  if (named !== undefined && Array.isArray((page as JsonObject)[named])) return named;
  let best: string | undefined;
  let length = -1;
  for (const [key, value] of Object.entries(page as JsonObject)) {
    if (Array.isArray(value) && value.length > length) {
      best = key;
      length = value.length;
    }
  }
  return best;
}

function listOf(page: unknown, named?: string): unknown[] {
  const key = listKey(page, named);
  if (key === null) return page as unknown[];
  return key === undefined ? [] : ((page as JsonObject)[key] as unknown[]);
}

/** What to ask next: new arguments, or a URL; undefined when this was the last page. */
export type NextStep = { args: Record<string, unknown> } | { url: string } | undefined;

export function nextStep(
  pagination: Pagination,
  page: unknown,
  args: Readonly<Record<string, unknown>>,
  linkHeader: string | null,
): NextStep {
  switch (pagination.kind) {
    case 'cursor': {
      const cursor = at(page, pagination.next);
      if (typeof cursor !== 'string' && typeof cursor !== 'number') return undefined;
      if (cursor === '' || cursor === args[pagination.param]) return undefined;
      return { args: { ...args, [pagination.param]: cursor } };
    }
    case 'after-last': {
      if (at(page, [pagination.more]) !== true) return undefined;
      const items = listOf(page, pagination.items);
      const last = items.at(-1) as JsonObject | undefined;
      const id = last?.['id'];
      return typeof id === 'string' || typeof id === 'number'
        ? { args: { ...args, [pagination.param]: id } }
        : undefined;
    }
    case 'next-url': {
      const next = at(page, pagination.next);
      return typeof next === 'string' && next !== '' ? { url: next } : undefined;
    }
    case 'page': {
      if (listOf(page).length === 0) return undefined;
      const current = Number(args[pagination.param] ?? 1);
      return Number.isFinite(current) ? { args: { ...args, [pagination.param]: current + 1 } } : undefined;
    }
    case 'link': {
      const next = nextLink(linkHeader);
      return next === undefined ? undefined : { url: next };
    }
  }
}

/** Concatenates the lists of later pages into the first; the other fields come from the last page. */
export function mergePages(pages: readonly unknown[], pagination: Pagination): unknown {
  if (pages.length === 1) return pages[0];
  const named = pagination.kind === 'after-last' ? pagination.items : undefined;
  const key = listKey(pages[0], named);
  if (key === undefined) return pages.at(-1);
  const items = pages.flatMap((page) => listOf(page, named));
  if (key === null) return items;
  return { ...(pages.at(-1) as JsonObject), [key]: items };
}
