/**
 * The curated Google Search Console server. `mcpengine generate` wrote the operations (src/tools/); this file
 * renames them for models, rewrites their descriptions (what, when, when not), fixes annotations where the HTTP
 * method misleads (Search Analytics queries are read-only POSTs), drops Google's transport parameters and the
 * retired Mobile-Friendly Test, and adds three insight tools computed on the server (src/custom/insights.ts),
 * linked to a performance dashboard view (an MCP App: src/custom/view.ts, src/custom/dashboard.ts, view/).
 * Never overwritten by regeneration.
 */
import type { McpServer } from 'mcpengine/server';
import type { OperationCaller } from '../runtime/call.js';
import type { RuntimeOptions } from '../runtime/config.js';
import type { OperationTool } from '../runtime/model.js';
import type { Exposure } from '../runtime/register.js';
import { registerDashboardTool } from './dashboard.js';
import { registerInsightTools } from './insight-tools.js';

export interface Customization {
  /** Adjust or drop (return undefined) a generated tool: rename it, rewrite its description, … */
  readonly tool?: (tool: OperationTool) => OperationTool | undefined;
  /** Register hand-written tools, resources or prompts next to the generated ones. */
  readonly extend?: (server: McpServer, caller: OperationCaller) => void;
  /** Timeouts, retries, size limits (see RuntimeOptions). */
  readonly runtime?: RuntimeOptions;
  /** List every operation, or groups behind a discovery tool (default: groups above 40 operations). */
  readonly expose?: Exposure;
  readonly instructions?: string;
}

/** Google's parameters for every API (format, callbacks, legacy keys): noise for a model, never needed. */
const TRANSPORT_PARAMS = new Set([
  '$.xgafv',
  'access_token',
  'alt',
  'callback',
  'fields',
  'key',
  'oauth_token',
  'prettyPrint',
  'quotaUser',
  'upload_protocol',
  'uploadType',
]);

const SITE_URL =
  'The property as Search Console names it: "https://www.example.com/" for a URL-prefix property (with the ' +
  'trailing slash) or "sc-domain:example.com" for a domain property. list_sites gives the exact values.';

interface Curation {
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly annotations?: OperationTool['annotations'];
  readonly argumentDescriptions?: Readonly<Record<string, string>>;
}

const READ_ONLY = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true };

const CURATED: Readonly<Record<string, Curation | null>> = {
  'webmasters.sites.list': {
    name: 'list_sites',
    title: 'List Search Console properties',
    description:
      'Lists the Search Console properties (sites) the signed-in user can see, with their permission level. ' +
      'Use it first to learn the exact siteUrl every other tool needs. Not for adding or removing properties.',
    annotations: READ_ONLY,
  },
  'webmasters.sites.get': {
    name: 'get_site',
    title: 'Get one property',
    description:
      "Returns one property's permission level for the signed-in user. Use it to check access to a single " +
      'property; to see every property use list_sites instead.',
    annotations: READ_ONLY,
    argumentDescriptions: { siteUrl: SITE_URL },
  },
  'webmasters.sites.add': {
    name: 'add_site',
    title: 'Add a property',
    description:
      "Adds a property to the user's Search Console account (it still has to be verified in the Search " +
      'Console UI). Only when the user asks to add a site; never to look one up.',
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
    argumentDescriptions: { siteUrl: SITE_URL },
  },
  'webmasters.sites.delete': {
    name: 'remove_site',
    title: 'Remove a property',
    description:
      "Removes a property from the user's Search Console account. Destructive: only when the user explicitly " +
      'asks to remove that property. Do NOT use to clean up or to hide data.',
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true },
    argumentDescriptions: { siteUrl: SITE_URL },
  },
  'webmasters.searchanalytics.query': {
    name: 'search_analytics_query',
    title: 'Query search performance (raw rows)',
    description:
      'Raw Search Analytics rows: clicks, impressions, CTR and average position for a date range, grouped by ' +
      'dimensions (query, page, country, device, date, searchAppearance) and filtered by dimensionFilterGroups. ' +
      'Use it for custom breakdowns. For "how did we do versus last period", "what went up or down" or "what ' +
      'to improve", prefer compare_periods, top_movers and quick_wins: they pick the dates and do the maths. ' +
      'Dates are YYYY-MM-DD (Pacific time); the last two days are usually incomplete. rowLimit ≤ 25,000; page ' +
      'with startRow.',
    annotations: READ_ONLY,
    argumentDescriptions: { siteUrl: SITE_URL },
  },
  'webmasters.sitemaps.list': {
    name: 'list_sitemaps',
    title: 'List sitemaps',
    description:
      'Lists the sitemaps submitted for a property (or the entries of one sitemap index with sitemapIndex), ' +
      'with last download, errors and warnings. Use it to check sitemap health. Not for submitting one.',
    annotations: READ_ONLY,
    argumentDescriptions: { siteUrl: SITE_URL },
  },
  'webmasters.sitemaps.get': {
    name: 'get_sitemap',
    title: 'Get one sitemap',
    description:
      'Details of one submitted sitemap (feedpath = its full URL): status, last download, errors, warnings, ' +
      'indexed content counts. Use list_sitemaps to find feedpaths.',
    annotations: READ_ONLY,
    argumentDescriptions: { siteUrl: SITE_URL, feedpath: 'The full URL of the sitemap.' },
  },
  'webmasters.sitemaps.submit': {
    name: 'submit_sitemap',
    title: 'Submit a sitemap',
    description:
      'Submits (or resubmits) a sitemap URL for a property so Google fetches it. Only when the user asks to ' +
      'submit a sitemap; resubmitting an existing one is harmless.',
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
    argumentDescriptions: { siteUrl: SITE_URL, feedpath: 'The full URL of the sitemap.' },
  },
  'webmasters.sitemaps.delete': {
    name: 'delete_sitemap',
    title: 'Delete a sitemap',
    description:
      'Removes a sitemap from a property in Search Console (the file on the site is not touched). ' +
      'Destructive: only when the user explicitly asks. Do NOT use to refresh a sitemap: use submit_sitemap.',
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true },
    argumentDescriptions: { siteUrl: SITE_URL, feedpath: 'The full URL of the sitemap.' },
  },
  'searchconsole.urlInspection.index.inspect': {
    name: 'inspect_url',
    title: 'Inspect a URL in the Google index',
    description:
      "Google's index status of one URL of a property: whether it is indexed, coverage state, last crawl, " +
      'canonical chosen by Google, mobile usability and rich results. Use it to explain why a page is missing ' +
      'from search. One URL per call (quota: 2,000 a day per property); not for site-wide statistics.',
    annotations: READ_ONLY,
    argumentDescriptions: {
      inspectionUrl: 'The fully-qualified URL to inspect; it must belong to siteUrl.',
      siteUrl: SITE_URL,
    },
  },
  // Google retired the Mobile-Friendly Test API in December 2023; the description still lists it.
  'searchconsole.urlTestingTools.mobileFriendlyTest.run': null,
};

function curate(tool: OperationTool): OperationTool | undefined {
  const curation = CURATED[tool.name];
  if (curation === null) return undefined;
  if (curation === undefined) return tool;
  const properties = { ...(tool.inputSchema['properties'] as Record<string, Record<string, unknown>>) };
  for (const param of tool.params) if (TRANSPORT_PARAMS.has(param.name)) delete properties[param.arg];
  for (const [arg, description] of Object.entries(curation.argumentDescriptions ?? {}))
    if (properties[arg] !== undefined) properties[arg] = { ...properties[arg], description };
  return {
    ...tool,
    name: curation.name,
    title: curation.title,
    description: curation.description,
    inputSchema: { ...tool.inputSchema, properties } as OperationTool['inputSchema'],
    params: tool.params.filter((param) => !TRANSPORT_PARAMS.has(param.name)),
    annotations: { title: curation.title, ...(curation.annotations ?? tool.annotations) },
    // The description asks for both of Google's OAuth schemes at once; either one alone is enough: a ready
    // access token (Oauth2) or a client id, secret and refresh token (Oauth2c, authorization code).
    security: [['Oauth2'], ['Oauth2c']],
  };
}

export const customize: Customization = {
  tool: curate,
  extend: (server, caller) => {
    registerInsightTools(server, caller);
    registerDashboardTool(server, caller);
  },
  // Every POST of this API is a read-only query, so retrying one after a 429 or 5xx is safe.
  runtime: { retryNonIdempotent: true },
  expose: 'all',
  instructions:
    'Google Search Console: search performance (clicks, impressions, CTR, position), URL index status and ' +
    'sitemaps. Start with list_sites for the exact siteUrl. For performance questions use compare_periods ' +
    '(totals versus a previous period), top_movers (what went up or down) and quick_wins (what to improve ' +
    'first); search_analytics_query is for custom breakdowns.',
};
