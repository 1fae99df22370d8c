/**
 * Search Console insights computed on the server from Search Analytics rows: period comparisons, top movers and
 * quick wins. Everything here is pure (dates in, rows in, numbers out) so it is tested without any API.
 *
 * Dates are calendar days in UTC, as `YYYY-MM-DD` strings: Search Console reports days in Pacific time, but a
 * model asks in days ("the last 28 days"), and day arithmetic in UTC has no daylight-saving gaps.
 */

/** Search Console needs about two days to finalise a day's data; periods end before that by default. */
export const DATA_DELAY_DAYS = 2;
/** The API keeps 16 months of data. */
export const MAX_HISTORY_DAYS = 486;

const DAY_MS = 86_400_000;
const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;

export function parseDay(day: string): number {
  if (!ISO_DAY.test(day)) throw new RangeError(`"${day}" is not a date in the form YYYY-MM-DD`);
  const ms = Date.parse(`${day}T00:00:00Z`);
  if (Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 10) !== day)
    throw new RangeError(`"${day}" is not a calendar date`);
  return ms;
}

export function formatDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

export function addDays(day: string, days: number): string {
  return formatDay(parseDay(day) + days * DAY_MS);
}

export interface Period {
  readonly startDate: string;
  readonly endDate: string;
  readonly days: number;
}

export interface PeriodPair {
  readonly current: Period;
  readonly previous: Period;
}

export type Comparison = 'previous_period' | 'previous_year';

/**
 * The current period of `days` days ending on `endDate` (default: today minus the data delay) and the period
 * it is compared with: the `days` days just before it, or the same days one year earlier (52 weeks, so
 * weekdays line up).
 */
export function periods(options: {
  readonly days: number;
  readonly endDate?: string;
  readonly compareTo?: Comparison;
  readonly today?: string;
}): PeriodPair {
  const { days } = options;
  if (!Number.isInteger(days) || days < 1 || days > 180)
    throw new RangeError(`days must be a whole number from 1 to 180 (got ${days})`);
  const today = options.today ?? formatDay(Date.now());
  const end = options.endDate ?? addDays(today, -DATA_DELAY_DAYS);
  if (parseDay(end) > parseDay(today))
    throw new RangeError(`endDate ${end} is in the future (today is ${today})`);
  const start = addDays(end, -(days - 1));
  const shift = options.compareTo === 'previous_year' ? 364 : days;
  const previous = { startDate: addDays(start, -shift), endDate: addDays(end, -shift), days };
  if (parseDay(previous.startDate) < parseDay(today) - MAX_HISTORY_DAYS * DAY_MS)
    throw new RangeError(
      `the comparison period starts ${previous.startDate}, beyond the 16 months Search Console keeps`,
    );
  return { current: { startDate: start, endDate: end, days }, previous };
}

export interface AnalyticsRow {
  readonly keys?: readonly unknown[] | null;
  readonly clicks?: number | null;
  readonly impressions?: number | null;
  readonly ctr?: number | null;
  readonly position?: number | null;
}

export interface Metrics {
  readonly clicks: number;
  readonly impressions: number;
  /** clicks / impressions, 0 to 1. */
  readonly ctr: number;
  /** Impression-weighted average position (1 is the top). */
  readonly position: number;
}

export const round = (value: number, digits = 4): number => {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
};

/** Counts and positions are finite and ≥ 0; anything else from the API (null, negative, huge) counts as 0. */
const LARGEST_COUNT = 1e12;
function count(value: number | null | undefined): number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 && value <= LARGEST_COUNT
    ? value
    : 0;
}

/** Totals of rows: clicks and impressions add up; CTR is recomputed; position is weighted by impressions. */
export function totals(rows: readonly AnalyticsRow[]): Metrics {
  let clicks = 0;
  let impressions = 0;
  let weightedPosition = 0;
  for (const row of rows) {
    const rowImpressions = count(row.impressions);
    clicks += count(row.clicks);
    impressions += rowImpressions;
    weightedPosition += count(row.position) * rowImpressions;
  }
  return {
    clicks,
    impressions,
    ctr: impressions === 0 ? 0 : round(clicks / impressions),
    position: impressions === 0 ? 0 : round(weightedPosition / impressions, 2),
  };
}

export function metricsOf(row: AnalyticsRow | undefined): Metrics {
  return row === undefined ? { clicks: 0, impressions: 0, ctr: 0, position: 0 } : totals([row]);
}

export interface Change {
  readonly current: number;
  readonly previous: number;
  readonly change: number;
  /** Relative change in percent; null when the previous value was 0. */
  readonly changePercent: number | null;
}

export function change(current: number, previous: number, digits = 4): Change {
  return {
    current: round(current, digits),
    previous: round(previous, digits),
    change: round(current - previous, digits),
    changePercent: previous === 0 ? null : round(((current - previous) / previous) * 100, 1),
  };
}

export interface MetricsComparison {
  readonly clicks: Change;
  readonly impressions: Change;
  readonly ctr: Change;
  /** A negative change is an improvement (closer to the top). */
  readonly position: Change;
}

export function compareMetrics(current: Metrics, previous: Metrics): MetricsComparison {
  return {
    clicks: change(current.clicks, previous.clicks),
    impressions: change(current.impressions, previous.impressions),
    ctr: change(current.ctr, previous.ctr),
    position: change(current.position, previous.position, 2),
  };
}

const keyOf = (row: AnalyticsRow): string => (row.keys ?? []).map(String).join(' | ');

export interface Mover {
  readonly key: string;
  readonly current: Metrics;
  readonly previous: Metrics;
  readonly clicksChange: number;
  readonly impressionsChange: number;
  readonly positionChange: number;
}

/**
 * Keys (queries, pages, …) whose clicks rose or fell most between two periods. A key present in one period only
 * counts as 0 in the other, so new and vanished queries are movers too. Ties are broken by impressions change,
 * then by key, so the answer does not depend on the API's row order.
 */
export function topMovers(
  currentRows: readonly AnalyticsRow[],
  previousRows: readonly AnalyticsRow[],
  limit: number,
): { gainers: Mover[]; losers: Mover[] } {
  const current = new Map(currentRows.map((row) => [keyOf(row), row]));
  const previous = new Map(previousRows.map((row) => [keyOf(row), row]));
  const movers: Mover[] = [];
  for (const key of new Set([...current.keys(), ...previous.keys()])) {
    const now = metricsOf(current.get(key));
    const before = metricsOf(previous.get(key));
    movers.push({
      key,
      current: now,
      previous: before,
      clicksChange: now.clicks - before.clicks,
      impressionsChange: now.impressions - before.impressions,
      positionChange: round(now.position - before.position, 2),
    });
  }
  const order = (a: Mover, b: Mover) =>
    b.clicksChange - a.clicksChange ||
    b.impressionsChange - a.impressionsChange ||
    a.key.localeCompare(b.key);
  const sorted = movers.sort(order);
  return {
    gainers: sorted.filter((m) => m.clicksChange > 0).slice(0, limit),
    losers: sorted
      .filter((m) => m.clicksChange < 0)
      .reverse()
      .slice(0, limit),
  };
}

/**
 * Expected organic CTR by rounded position (1–20): a conservative curve close to published industry studies of
 * Google results. Used only to estimate the clicks a row could win; the estimate says so.
 */
export const EXPECTED_CTR: readonly number[] = [
  0.28, 0.15, 0.1, 0.07, 0.05, 0.04, 0.03, 0.025, 0.02, 0.018, 0.015, 0.013, 0.012, 0.011, 0.01, 0.009, 0.008,
  0.007, 0.006, 0.005,
];

export function expectedCtr(position: number): number {
  const index = Math.min(Math.max(Math.round(position), 1), EXPECTED_CTR.length) - 1;
  return EXPECTED_CTR[index]!;
}

export interface QuickWin {
  readonly key: string;
  readonly clicks: number;
  readonly impressions: number;
  readonly ctr: number;
  readonly position: number;
  /** Why this row is a quick win. */
  readonly reason: 'near_first_page' | 'low_ctr_on_page_one';
  /** Extra clicks per period if the row reached position 3 (near first page) or the expected CTR of its position. */
  readonly potentialExtraClicks: number;
}

export interface QuickWinOptions {
  readonly minImpressions: number;
  /** Rows ranked 4 to this position are "near the first page" or "low CTR" candidates. */
  readonly maxPosition: number;
  readonly limit: number;
}

/**
 * Rows worth working on: ranked between 4 and `maxPosition` with enough impressions (a small ranking gain moves
 * them up the page), or on page one (position ≤ 10) with a CTR under half the expected one (a better title or
 * snippet may win clicks). Sorted by the clicks they could win.
 */
export function quickWins(rows: readonly AnalyticsRow[], options: QuickWinOptions): QuickWin[] {
  const wins: QuickWin[] = [];
  for (const row of rows) {
    const m = metricsOf(row);
    if (m.impressions < options.minImpressions || m.position < 1) continue;
    const lowCtr = m.position <= 10 && m.ctr < expectedCtr(m.position) / 2;
    const nearFirstPage = m.position >= 4 && m.position <= options.maxPosition;
    if (!lowCtr && !nearFirstPage) continue;
    const targetCtr = lowCtr ? expectedCtr(m.position) : expectedCtr(3);
    const potential = Math.max(0, Math.round(m.impressions * targetCtr - m.clicks));
    wins.push({
      key: keyOf(row),
      ...m,
      reason: lowCtr ? 'low_ctr_on_page_one' : 'near_first_page',
      potentialExtraClicks: potential,
    });
  }
  return wins
    .sort((a, b) => b.potentialExtraClicks - a.potentialExtraClicks || a.key.localeCompare(b.key))
    .slice(0, options.limit);
}
