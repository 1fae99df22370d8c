/**
 * Reading a paginated list to the end, keeping every page as evidence and noting what pagination got wrong.
 */
import { brief, callEvidence } from '../evidence.js';
import { isObject, resultOf, type CallResult, type JsonObject } from '@mcpengine/wire';
import type { ProbeContext } from './context.js';
import { isResult } from './expect.js';
import { defineCheck } from './registry.js';

export const PAGINATION_CURSORS = defineCheck(
  'pagination.cursors',
  'pagination',
  'Following nextCursor reaches the end of a list without repeating a cursor or an item',
);
/** The operations whose complete results carry caching hints (caching.mdx). */
const CACHEABLE_METHODS = [
  'server/discover',
  'tools/list',
  'prompts/list',
  'resources/list',
  'resources/templates/list',
  'resources/read',
];

export const CACHING_HINTS = defineCheck(
  'caching.hints',
  'caching',
  'Cacheable results carry ttlMs (an integer ≥ 0) and cacheScope, the same cacheScope on every page of a list',
  { facets: [...CACHEABLE_METHODS, 'ttl', 'scope-pages'] },
);

/**
 * 2026-07-28: the caching hints of one result of `method`; problems, or an empty list. A missing hint breaks the
 * rule for that operation; a bad ttlMs also the rule on its value.
 */
export function cachingProblems(
  method: string,
  result: JsonObject | undefined,
): { text: string; facets: string[] }[] {
  if (result === undefined || result['resultType'] !== 'complete') return [];
  const problems: { text: string; facets: string[] }[] = [];
  const ttl = result['ttlMs'];
  if (typeof ttl !== 'number' || !Number.isInteger(ttl) || ttl < 0) {
    problems.push({
      text: `ttlMs is ${brief(ttl)}, not an integer ≥ 0`,
      facets: [...(ttl === undefined ? [method] : []), 'ttl'],
    });
  }
  if (result['cacheScope'] !== 'public' && result['cacheScope'] !== 'private')
    problems.push({ text: `cacheScope is ${brief(result['cacheScope'])}`, facets: [method] });
  return problems;
}

function expectCaching(
  ctx: ProbeContext,
  method: string,
  label: string,
  call: CallResult,
  result: JsonObject,
): void {
  const problems = cachingProblems(method, result);
  ctx.expect(
    CACHING_HINTS,
    problems.length === 0,
    `${label}: ttlMs ${brief(result['ttlMs'])}, cacheScope ${brief(result['cacheScope'])}`,
    `${label}: ${problems.map((p) => p.text).join('; ')}`,
    [callEvidence(call, label)],
    problems.flatMap((p) => p.facets),
  );
}

/** Records the caching check for a single cacheable result (2026-07-28). */
export function judgeCaching(ctx: ProbeContext, call: CallResult, method: string, label = method): void {
  if (ctx.era !== 'modern') return;
  const result = resultOf(call);
  if (result === undefined || result['resultType'] !== 'complete') return;
  expectCaching(ctx, method, label, call, result);
}

/** Records the pagination and caching checks for a listing. */
export function judgeListing(ctx: ProbeContext, method: string, listing: Listing, key: string): void {
  if (listing.failure === undefined) {
    const repeated = duplicates(
      listing.items,
      key === 'resourceTemplates' ? 'uriTemplate' : key === 'resources' ? 'uri' : 'name',
    );
    const problems = [
      ...listing.paginationProblems,
      ...(listing.pages.length > 1 && repeated.length > 0
        ? [`items repeated across pages: ${repeated.join(', ')}`]
        : []),
    ];
    if (listing.pages.length > 1 || problems.length > 0) {
      ctx.expect(
        PAGINATION_CURSORS,
        problems.length === 0,
        `${method}: ${listing.pages.length} pages read to the end`,
        `${method}: ${problems.join('; ')}`,
        listing.pages.slice(-2).map((c) => callEvidence(c, method)),
      );
    } else {
      ctx.notApplicable(PAGINATION_CURSORS, `${method} fits in one page`);
    }
  }
  if (ctx.era !== 'modern') return;
  const scopes = new Set<unknown>();
  for (const page of listing.pages) {
    const result = resultOf(page);
    if (result === undefined || result['resultType'] !== 'complete') continue;
    scopes.add(result['cacheScope']);
    expectCaching(ctx, method, method, page, result);
  }
  if (scopes.size > 1) {
    ctx.fail(
      CACHING_HINTS,
      `${method}: pages disagree on cacheScope (${brief([...scopes])})`,
      listing.pages.map((c) => callEvidence(c, method)).slice(0, 3),
      ['scope-pages'],
    );
  }
}

export interface Listing {
  readonly items: JsonObject[];
  readonly pages: CallResult[];
  /** Set when the listing failed (first page or a later one). */
  readonly failure?: string;
  /** Pagination problems: a repeated cursor, more pages than the limit, items repeated across pages. */
  readonly paginationProblems: readonly string[];
}

const MAX_PAGES = 50;

export async function listAll(ctx: ProbeContext, method: string, key: string): Promise<Listing> {
  const items: JsonObject[] = [];
  const pages: CallResult[] = [];
  const problems: string[] = [];
  const cursors = new Set<string>();
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const call = await ctx.rpc(method, cursor === undefined ? {} : { cursor });
    pages.push(call);
    const result = resultOf(call);
    if (result === undefined) {
      const why = isResult(call).detail;
      return {
        items,
        pages,
        failure: page === 0 ? why : `page ${page + 1} (cursor ${brief(cursor)}): ${why}`,
        paginationProblems: problems,
      };
    }
    const list = result[key];
    if (!Array.isArray(list)) {
      return { items, pages, failure: `the result has no ${key} array`, paginationProblems: problems };
    }
    items.push(...list.filter(isObject));
    const next = result['nextCursor'];
    if (next === undefined || next === null) return { items, pages, paginationProblems: problems };
    if (typeof next !== 'string') {
      problems.push(`nextCursor is ${brief(next)}, not a string`);
      return { items, pages, paginationProblems: problems };
    }
    if (cursors.has(next)) {
      problems.push(`nextCursor ${brief(next)} was returned twice (the listing would loop)`);
      return { items, pages, paginationProblems: problems };
    }
    cursors.add(next);
    cursor = next;
  }
  problems.push(`more than ${MAX_PAGES} pages; reading stopped`);
  return { items, pages, paginationProblems: problems };
}

/** Items whose `key` value appears more than once. */
export function duplicates(items: readonly JsonObject[], key: string): string[] {
  const seen = new Set<unknown>();
  const repeated = new Set<string>();
  for (const item of items) {
    const value = item[key];
    if (seen.has(value)) repeated.add(String(value));
    seen.add(value);
  }
  return [...repeated];
}

/** The identities of a list's first page (names or URIs), sorted; `undefined` when the call failed. */
function identities(call: CallResult, key: string): string[] | undefined {
  const list = resultOf(call)?.[key];
  if (!Array.isArray(list)) return undefined;
  return list
    .filter(isObject)
    .map((item) => JSON.stringify(item['name'] ?? item['uri'] ?? item['uriTemplate']))
    .sort();
}

/**
 * Compares a list as the main connection sees it with the list another viewpoint gets (another connection, or
 * another self-reported client), asking the main connection once more afterwards: a difference counts only if
 * the main connection saw the same list both times (otherwise the list changed over time, which is allowed).
 */
export async function compareViewpoints(
  ctx: ProbeContext,
  check: string,
  method: string,
  key: string,
  other: () => Promise<CallResult>,
  labels: { same: string; other: string },
  otherProcess = false,
): Promise<void> {
  // On stdio another connection is another server process: once the validator has called a tool that may change
  // state, the two processes may hold different state without any per-connection behaviour.
  if (otherProcess && ctx.state.mutated) {
    ctx.notRun(
      check,
      'on stdio the other viewpoint is another process, and tools that may change state were called',
    );
    return;
  }
  const before = await ctx.rpc(method, {});
  const elsewhere = await other();
  const after = await ctx.rpc(method, {});
  const [a, b, c] = [identities(before, key), identities(elsewhere, key), identities(after, key)];
  const evidence = [callEvidence(before, method), callEvidence(elsewhere, `${method} ${labels.other}`)];
  if (a === undefined || b === undefined || c === undefined) {
    ctx.notRun(
      check,
      `${method} failed: ${[before, elsewhere, after].map((call) => isResult(call).detail).join('; ')}`,
      evidence,
    );
    return;
  }
  if (JSON.stringify(a) !== JSON.stringify(c)) {
    ctx.notRun(
      check,
      `the list changed while it was being compared (${a.length} then ${c.length} item(s))`,
      evidence,
    );
    return;
  }
  ctx.expect(
    check,
    JSON.stringify(a) === JSON.stringify(b),
    labels.same,
    `${method} ${labels.other} lists ${brief(b)}, while the main connection lists ${brief(a)}`,
    evidence,
  );
}
