/**
 * The insight tools: each one picks its date ranges on the server, calls Search Analytics (through the generated
 * search_analytics_query operation, so credentials, retries and rate limits are the runtime's), and returns
 * computed numbers as `structuredContent` with a short text summary. All three are linked to the performance
 * dashboard (an MCP App, src/custom/dashboard.ts): hosts with Apps show it under their result, the others read
 * the text.
 */
import type { CallToolResult } from 'mcpengine/protocol';
import { apps } from 'mcpengine/apps';
import type { JsonSchema } from 'mcpengine/schema';
import type { McpServer } from 'mcpengine/server';
import type { OperationCaller } from '../runtime/call.js';
import type { OperationTool } from '../runtime/model.js';
import { PERFORMANCE_VIEW_URI, registerPerformanceView } from './view.js';
import {
  compareMetrics,
  periods,
  quickWins,
  topMovers,
  totals,
  type AnalyticsRow,
  type Comparison,
  type Period,
} from './insights.js';

const QUERY_TOOL = 'search_analytics_query';
const ROW_LIMIT = 25_000;

export const INSIGHT_ANNOTATIONS = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: true,
};

export const siteUrl = {
  type: 'string',
  minLength: 1,
  maxLength: 2048,
  description:
    'The property: "https://www.example.com/" (URL prefix, with the trailing slash) or "sc-domain:example.com". ' +
    'list_sites gives the exact values.',
} as const;
export const days = {
  type: 'integer',
  minimum: 1,
  maximum: 180,
  default: 28,
  description: 'Length of each period in days (default 28).',
} as const;
export const endDate = {
  type: 'string',
  pattern: '^\\d{4}-\\d{2}-\\d{2}$',
  description:
    'Last day of the current period, YYYY-MM-DD. Default: two days ago (the newest complete data). ' +
    'Leave it out unless the user names a date.',
} as const;
export const compareTo = {
  type: 'string',
  enum: ['previous_period', 'previous_year'],
  default: 'previous_period',
  description:
    'previous_period: the same number of days just before; previous_year: the same days 52 weeks earlier ' +
    '(removes seasonality).',
} as const;
export const searchType = {
  type: 'string',
  enum: ['web', 'image', 'video', 'news', 'discover', 'googleNews'],
  default: 'web',
  description: 'Which Google surface (default web search).',
} as const;

export const periodSchema = {
  type: 'object',
  properties: { startDate: { type: 'string' }, endDate: { type: 'string' }, days: { type: 'integer' } },
  required: ['startDate', 'endDate', 'days'],
} as const;
const changeSchema = {
  type: 'object',
  properties: {
    current: { type: 'number' },
    previous: { type: 'number' },
    change: { type: 'number' },
    changePercent: { type: ['number', 'null'] },
  },
  required: ['current', 'previous', 'change', 'changePercent'],
} as const;
export const metricsSchema = {
  type: 'object',
  properties: {
    clicks: { type: 'number' },
    impressions: { type: 'number' },
    ctr: { type: 'number' },
    position: { type: 'number' },
  },
  required: ['clicks', 'impressions', 'ctr', 'position'],
} as const;
export const comparisonSchema = {
  type: 'object',
  properties: { clicks: changeSchema, impressions: changeSchema, ctr: changeSchema, position: changeSchema },
  required: ['clicks', 'impressions', 'ctr', 'position'],
} as const;
export const moverSchema = {
  type: 'object',
  properties: {
    key: { type: 'string' },
    current: metricsSchema,
    previous: metricsSchema,
    clicksChange: { type: 'number' },
    impressionsChange: { type: 'number' },
    positionChange: { type: 'number' },
  },
  required: ['key', 'current', 'previous', 'clicksChange', 'impressionsChange', 'positionChange'],
} as const;

interface QueryOptions {
  readonly siteUrl: string;
  readonly period: Period;
  readonly dimensions: readonly string[];
  readonly searchType: string;
}

type Rows = { rows: AnalyticsRow[] } | { error: CallToolResult };

export async function queryRows(
  caller: OperationCaller,
  tool: OperationTool,
  options: QueryOptions,
  signal: AbortSignal,
): Promise<Rows> {
  const result = await caller.call(
    tool,
    {
      siteUrl: options.siteUrl,
      startDate: options.period.startDate,
      endDate: options.period.endDate,
      // The description spells enum values in capitals (QUERY, GOOGLE_NEWS); models are asked in plain words.
      dimensions: options.dimensions.map((dimension) => dimension.toUpperCase()),
      type: options.searchType.replace(/([a-z])([A-Z])/g, '$1_$2').toUpperCase(),
      rowLimit: ROW_LIMIT,
    },
    signal,
  );
  if (result.isError === true) return { error: result };
  const structured = result.structuredContent as { rows?: AnalyticsRow[] | null } | undefined;
  const rows = (structured?.rows ?? []).filter(
    (row): row is AnalyticsRow => typeof row === 'object' && row !== null,
  );
  return { rows };
}

function failure(message: string): CallToolResult {
  return { content: [{ type: 'text', text: message }], isError: true };
}

/** Runs the date maths, turning a bad date into a tool error the model can correct. */
export function periodsOrError(args: { days?: number; endDate?: string; compareTo?: Comparison }) {
  try {
    return periods({
      days: args.days ?? 28,
      ...(args.endDate === undefined ? {} : { endDate: args.endDate }),
      ...(args.compareTo === undefined ? {} : { compareTo: args.compareTo }),
    });
  } catch (error) {
    return failure(`Invalid dates: ${(error as Error).message}`);
  }
}

const signed = (value: number) => (value > 0 ? `+${value}` : String(value));

export function registerInsightTools(server: McpServer, caller: OperationCaller): void {
  const query = caller.api.tools.find((tool) => tool.name === QUERY_TOOL);
  if (query === undefined) throw new Error(`the ${QUERY_TOOL} operation is missing`);
  const app = apps(server);
  registerPerformanceView(app);
  // Visible to the model and to the view (the default): the dashboard opens under their results.
  const ui = { resourceUri: PERFORMANCE_VIEW_URI };

  app.tool<{
    siteUrl: string;
    days?: number;
    endDate?: string;
    compareTo?: Comparison;
    searchType?: string;
  }>({
    name: 'compare_periods',
    ui,
    title: 'Compare search performance between two periods',
    description:
      "A property's total clicks, impressions, CTR and average position for a period against the previous " +
      'period or the same period a year earlier, with absolute and percent changes. Dates are computed on the ' +
      'server (default: the last 28 complete days). Use it for "how are we doing", "did traffic drop". Not for ' +
      'which queries or pages changed (top_movers) or per-day charts (search_analytics_query by date).',
    inputSchema: {
      type: 'object',
      properties: { siteUrl, days, endDate, compareTo, searchType },
      required: ['siteUrl'],
      additionalProperties: false,
    },
    outputSchema: {
      type: 'object',
      properties: {
        siteUrl: { type: 'string' },
        current: periodSchema,
        previous: periodSchema,
        currentTotals: metricsSchema,
        previousTotals: metricsSchema,
        comparison: comparisonSchema,
      },
      required: ['siteUrl', 'current', 'previous', 'currentTotals', 'previousTotals', 'comparison'],
    } as JsonSchema,
    annotations: { title: 'Compare periods', ...INSIGHT_ANNOTATIONS },
    handler: async (args, ctx) => {
      const pair = periodsOrError(args);
      if ('content' in pair) return pair;
      const common = { siteUrl: args.siteUrl, dimensions: [], searchType: args.searchType ?? 'web' };
      const now = await queryRows(caller, query, { ...common, period: pair.current }, ctx.signal);
      if ('error' in now) return now.error;
      const before = await queryRows(caller, query, { ...common, period: pair.previous }, ctx.signal);
      if ('error' in before) return before.error;
      const currentTotals = totals(now.rows);
      const previousTotals = totals(before.rows);
      const comparison = compareMetrics(currentTotals, previousTotals);
      const percent = (p: number | null) => (p === null ? 'n/a' : `${signed(p)}%`);
      return {
        structuredContent: {
          siteUrl: args.siteUrl,
          current: pair.current,
          previous: pair.previous,
          currentTotals,
          previousTotals,
          comparison,
        },
        content: [
          {
            type: 'text',
            text:
              `${args.siteUrl}, ${pair.current.startDate}..${pair.current.endDate} vs ` +
              `${pair.previous.startDate}..${pair.previous.endDate}: clicks ${currentTotals.clicks} ` +
              `(${percent(comparison.clicks.changePercent)}), impressions ${currentTotals.impressions} ` +
              `(${percent(comparison.impressions.changePercent)}), CTR ${currentTotals.ctr}, position ` +
              `${currentTotals.position} (${signed(comparison.position.change)}; lower is better).`,
          },
        ],
      };
    },
  });

  app.tool<{
    siteUrl: string;
    dimension?: 'query' | 'page';
    days?: number;
    endDate?: string;
    compareTo?: Comparison;
    limit?: number;
    searchType?: string;
  }>({
    name: 'top_movers',
    ui,
    title: 'Queries or pages that gained or lost the most clicks',
    description:
      'The queries (or pages) whose clicks rose and fell most between a period and the previous one (or a ' +
      'year earlier), new and vanished ones included, with both periods\u2019 metrics. Use it to explain a ' +
      'traffic change or find what is trending. Not for totals (compare_periods) or optimisation ideas ' +
      '(quick_wins).',
    inputSchema: {
      type: 'object',
      properties: {
        siteUrl,
        dimension: {
          type: 'string',
          enum: ['query', 'page'],
          default: 'query',
          description: 'Compare search queries (default) or landing pages.',
        },
        days,
        endDate,
        compareTo,
        limit: {
          type: 'integer',
          minimum: 1,
          maximum: 100,
          default: 10,
          description: 'How many gainers and how many losers (default 10 each).',
        },
        searchType,
      },
      required: ['siteUrl'],
      additionalProperties: false,
    },
    outputSchema: {
      type: 'object',
      properties: {
        siteUrl: { type: 'string' },
        dimension: { type: 'string' },
        current: periodSchema,
        previous: periodSchema,
        gainers: { type: 'array', items: moverSchema },
        losers: { type: 'array', items: moverSchema },
      },
      required: ['siteUrl', 'dimension', 'current', 'previous', 'gainers', 'losers'],
    } as JsonSchema,
    annotations: { title: 'Top movers', ...INSIGHT_ANNOTATIONS },
    handler: async (args, ctx) => {
      const pair = periodsOrError(args);
      if ('content' in pair) return pair;
      const dimension = args.dimension ?? 'query';
      const common = { siteUrl: args.siteUrl, dimensions: [dimension], searchType: args.searchType ?? 'web' };
      const now = await queryRows(caller, query, { ...common, period: pair.current }, ctx.signal);
      if ('error' in now) return now.error;
      const before = await queryRows(caller, query, { ...common, period: pair.previous }, ctx.signal);
      if ('error' in before) return before.error;
      const { gainers, losers } = topMovers(now.rows, before.rows, args.limit ?? 10);
      const line = (m: (typeof gainers)[number]) => `${m.key} (${signed(m.clicksChange)} clicks)`;
      return {
        structuredContent: {
          siteUrl: args.siteUrl,
          dimension,
          current: pair.current,
          previous: pair.previous,
          gainers,
          losers,
        },
        content: [
          {
            type: 'text',
            text:
              `Top ${dimension} movers, ${pair.current.startDate}..${pair.current.endDate} vs ` +
              `${pair.previous.startDate}..${pair.previous.endDate}. Gainers: ` +
              `${gainers.length === 0 ? 'none' : gainers.map(line).join('; ')}. Losers: ` +
              `${losers.length === 0 ? 'none' : losers.map(line).join('; ')}.`,
          },
        ],
      };
    },
  });

  app.tool<{
    siteUrl: string;
    dimension?: 'query' | 'page';
    days?: number;
    endDate?: string;
    minImpressions?: number;
    maxPosition?: number;
    limit?: number;
    searchType?: string;
  }>({
    name: 'quick_wins',
    ui,
    title: 'Quick wins: rankings and snippets worth improving',
    description:
      'Queries (or pages) with the most clicks to gain: ranked 4 to 20 with real impressions (a small ranking ' +
      'gain reaches the top of page one), or on page one with a CTR under half of what the position usually ' +
      'gets (improve the title and snippet). Each comes with an estimate of the extra clicks per period. Use it ' +
      'for "what should we work on". Not for explaining changes (top_movers).',
    inputSchema: {
      type: 'object',
      properties: {
        siteUrl,
        dimension: {
          type: 'string',
          enum: ['query', 'page'],
          default: 'query',
          description: 'Search queries (default) or landing pages.',
        },
        days,
        endDate,
        minImpressions: {
          type: 'integer',
          minimum: 1,
          default: 100,
          description: 'Ignore rows with fewer impressions in the period (default 100).',
        },
        maxPosition: {
          type: 'number',
          minimum: 4,
          maximum: 50,
          default: 20,
          description: 'Worst average position still considered near the first page (default 20).',
        },
        limit: { type: 'integer', minimum: 1, maximum: 100, default: 20, description: 'At most this many.' },
        searchType,
      },
      required: ['siteUrl'],
      additionalProperties: false,
    },
    outputSchema: {
      type: 'object',
      properties: {
        siteUrl: { type: 'string' },
        dimension: { type: 'string' },
        period: periodSchema,
        wins: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              key: { type: 'string' },
              clicks: { type: 'number' },
              impressions: { type: 'number' },
              ctr: { type: 'number' },
              position: { type: 'number' },
              reason: { type: 'string', enum: ['near_first_page', 'low_ctr_on_page_one'] },
              potentialExtraClicks: { type: 'number' },
            },
            required: ['key', 'clicks', 'impressions', 'ctr', 'position', 'reason', 'potentialExtraClicks'],
          },
        },
        note: { type: 'string' },
      },
      required: ['siteUrl', 'dimension', 'period', 'wins', 'note'],
    } as JsonSchema,
    annotations: { title: 'Quick wins', ...INSIGHT_ANNOTATIONS },
    handler: async (args, ctx) => {
      const pair = periodsOrError(args);
      if ('content' in pair) return pair;
      const dimension = args.dimension ?? 'query';
      const rows = await queryRows(
        caller,
        query,
        {
          siteUrl: args.siteUrl,
          dimensions: [dimension],
          searchType: args.searchType ?? 'web',
          period: pair.current,
        },
        ctx.signal,
      );
      if ('error' in rows) return rows.error;
      const wins = quickWins(rows.rows, {
        minImpressions: args.minImpressions ?? 100,
        maxPosition: args.maxPosition ?? 20,
        limit: args.limit ?? 20,
      });
      const note =
        'potentialExtraClicks estimates clicks per period from a typical CTR curve by position; an ' +
        'indication for ranking the work, not a forecast.';
      return {
        structuredContent: { siteUrl: args.siteUrl, dimension, period: pair.current, wins, note },
        content: [
          {
            type: 'text',
            text:
              `${wins.length} quick wins for ${args.siteUrl} (${pair.current.startDate}..${pair.current.endDate})` +
              (wins.length === 0
                ? '.'
                : `: ${wins
                    .slice(0, 5)
                    .map(
                      (w) => `${w.key} (position ${w.position}, +${w.potentialExtraClicks} clicks possible)`,
                    )
                    .join('; ')}${wins.length > 5 ? '; …' : ''}. ${note}`),
          },
        ],
      };
    },
  });
}
