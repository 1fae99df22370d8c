/**
 * The app-only tool of the performance dashboard: `load_performance_dashboard` (visibility `["app"]`: hosts give
 * it to the view, never to their model; clients without Apps neither list nor call it). The view calls it
 * through the host to draw the daily chart and to change the period, the comparison or the dimension of the top
 * movers. Four Search Analytics queries (by date and by the dimension, for both periods), the same date maths
 * and movers as compare_periods and top_movers.
 */
import { apps } from 'mcpengine/apps';
import type { JsonSchema } from 'mcpengine/schema';
import type { McpServer } from 'mcpengine/server';
import type { OperationCaller } from '../runtime/call.js';
import {
  compareTo,
  comparisonSchema,
  days,
  endDate,
  INSIGHT_ANNOTATIONS,
  metricsSchema,
  moverSchema,
  periodSchema,
  periodsOrError,
  queryRows,
  searchType,
  siteUrl,
} from './insight-tools.js';
import {
  compareMetrics,
  metricsOf,
  topMovers,
  totals,
  type AnalyticsRow,
  type Comparison,
} from './insights.js';
import { PERFORMANCE_VIEW_URI } from './view.js';

export const DASHBOARD_TOOL = 'load_performance_dashboard';

export interface DailyMetrics {
  readonly date: string;
  readonly clicks: number;
  readonly impressions: number;
  readonly ctr: number;
  readonly position: number;
}

/** Rows grouped by date → one point a day, in date order (the API does not promise an order). */
export function dailySeries(rows: readonly AnalyticsRow[]): DailyMetrics[] {
  return rows
    .map((row) => ({ date: String(row.keys?.[0] ?? ''), ...metricsOf(row) }))
    .sort((a, b) => a.date.localeCompare(b.date));
}

const dailySchema = {
  type: 'array',
  items: {
    type: 'object',
    properties: { date: { type: 'string' }, ...metricsSchema.properties },
    required: ['date', ...metricsSchema.required],
  },
} as const;

export function registerDashboardTool(server: McpServer, caller: OperationCaller): void {
  const query = caller.api.tools.find((tool) => tool.name === 'search_analytics_query');
  if (query === undefined) throw new Error('the search_analytics_query operation is missing');
  apps(server).tool<{
    siteUrl: string;
    days?: number;
    endDate?: string;
    compareTo?: Comparison;
    dimension?: 'query' | 'page';
    limit?: number;
    searchType?: string;
  }>({
    name: DASHBOARD_TOOL,
    title: 'Load the performance dashboard',
    description:
      'Called by the performance dashboard view: the daily clicks, impressions, CTR and position of a period ' +
      'and of the period it is compared with, their totals and changes, and the top movers by query or page.',
    inputSchema: {
      type: 'object',
      properties: {
        siteUrl,
        days,
        endDate,
        compareTo,
        dimension: { type: 'string', enum: ['query', 'page'], default: 'query' },
        limit: { type: 'integer', minimum: 1, maximum: 50, default: 10 },
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
        daily: dailySchema,
        previousDaily: dailySchema,
        currentTotals: metricsSchema,
        previousTotals: metricsSchema,
        comparison: comparisonSchema,
        gainers: { type: 'array', items: moverSchema },
        losers: { type: 'array', items: moverSchema },
      },
      required: [
        'siteUrl',
        'dimension',
        'current',
        'previous',
        'daily',
        'previousDaily',
        'currentTotals',
        'previousTotals',
        'comparison',
        'gainers',
        'losers',
      ],
    } as JsonSchema,
    annotations: { title: 'Load the performance dashboard', ...INSIGHT_ANNOTATIONS },
    ui: { resourceUri: PERFORMANCE_VIEW_URI, visibility: ['app'] },
    handler: async (args, ctx) => {
      const pair = periodsOrError(args);
      if ('content' in pair) return pair;
      const dimension = args.dimension ?? 'query';
      const common = { siteUrl: args.siteUrl, searchType: args.searchType ?? 'web' };
      const rows = [];
      for (const [period, dimensions] of [
        [pair.current, ['date']],
        [pair.previous, ['date']],
        [pair.current, [dimension]],
        [pair.previous, [dimension]],
      ] as const) {
        const answer = await queryRows(caller, query, { ...common, period, dimensions }, ctx.signal);
        if ('error' in answer) return answer.error;
        rows.push(answer.rows);
      }
      const [nowDaily, beforeDaily, nowKeys, beforeKeys] = rows as [
        AnalyticsRow[],
        AnalyticsRow[],
        AnalyticsRow[],
        AnalyticsRow[],
      ];
      const currentTotals = totals(nowDaily);
      const previousTotals = totals(beforeDaily);
      const { gainers, losers } = topMovers(nowKeys, beforeKeys, args.limit ?? 10);
      const daily = dailySeries(nowDaily);
      return {
        structuredContent: {
          siteUrl: args.siteUrl,
          dimension,
          current: pair.current,
          previous: pair.previous,
          daily,
          previousDaily: dailySeries(beforeDaily),
          currentTotals,
          previousTotals,
          comparison: compareMetrics(currentTotals, previousTotals),
          gainers,
          losers,
        },
        content: [
          {
            type: 'text',
            text:
              `Dashboard of ${args.siteUrl}, ${pair.current.startDate}..${pair.current.endDate} vs ` +
              `${pair.previous.startDate}..${pair.previous.endDate}: ${daily.length} days of data, ` +
              `${currentTotals.clicks} clicks, ${currentTotals.impressions} impressions; ` +
              `${gainers.length} ${dimension} gainers, ${losers.length} losers.`,
          },
        ],
      };
    },
  });
}
