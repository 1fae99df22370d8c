import { describe, expect, it } from 'vitest';
import { addDays, compareMetrics, expectedCtr, periods, quickWins, topMovers, totals } from './insights.js';

describe('date maths', () => {
  it('adds days across month, year and leap-day boundaries', () => {
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
    expect(addDays('2024-03-01', -1)).toBe('2024-02-29');
    expect(addDays('2025-12-31', 1)).toBe('2026-01-01');
  });

  it('ends the current period two days before today by default and puts the previous one just before it', () => {
    const pair = periods({ days: 28, today: '2026-11-26' });
    expect(pair.current).toEqual({ startDate: '2026-10-28', endDate: '2026-11-24', days: 28 });
    expect(pair.previous).toEqual({ startDate: '2026-09-30', endDate: '2026-10-27', days: 28 });
  });

  it('compares with the same weekdays 52 weeks earlier', () => {
    const pair = periods({ days: 7, endDate: '2026-10-28', compareTo: 'previous_year', today: '2026-11-26' });
    expect(pair.previous).toEqual({ startDate: '2025-10-23', endDate: '2025-10-29', days: 7 });
    expect(new Date('2025-10-29').getUTCDay()).toBe(new Date('2026-10-28').getUTCDay());
  });

  it('refuses impossible dates, future ends and periods beyond the 16 months of history', () => {
    expect(() => periods({ days: 28, endDate: '2026-02-30', today: '2026-11-26' })).toThrow(/calendar date/);
    expect(() => periods({ days: 28, endDate: '2026-12-01', today: '2026-11-26' })).toThrow(/future/);
    expect(() => periods({ days: 0, today: '2026-11-26' })).toThrow(/days/);
    expect(() => periods({ days: 180, endDate: '2025-10-01', today: '2026-11-26' })).toThrow(/16 months/);
  });
});

describe('metrics', () => {
  it('weights the average position by impressions and recomputes the CTR', () => {
    const sum = totals([
      { clicks: 10, impressions: 100, ctr: 0.1, position: 2 },
      { clicks: 0, impressions: 300, ctr: 0, position: 10 },
    ]);
    expect(sum).toEqual({ clicks: 10, impressions: 400, ctr: 0.025, position: 8 });
  });

  it('counts values that cannot be counts (negative, infinite, missing) as zero', () => {
    expect(totals([{ clicks: -1.7976931348623157e308, impressions: null, position: Infinity }])).toEqual({
      clicks: 0,
      impressions: 0,
      ctr: 0,
      position: 0,
    });
  });

  it('gives changes in absolute and percent terms, null percent from zero', () => {
    const c = compareMetrics(
      { clicks: 150, impressions: 1000, ctr: 0.15, position: 4 },
      { clicks: 100, impressions: 0, ctr: 0, position: 5 },
    );
    expect(c.clicks).toEqual({ current: 150, previous: 100, change: 50, changePercent: 50 });
    expect(c.impressions.changePercent).toBeNull();
    expect(c.position.change).toBe(-1);
  });
});

describe('top movers', () => {
  it('ranks gainers and losers by clicks change (ties: impressions change), counting new and vanished keys', () => {
    const { gainers, losers } = topMovers(
      [
        { keys: ['shoes'], clicks: 50, impressions: 500, position: 3 },
        { keys: ['boots'], clicks: 5, impressions: 100, position: 8 },
        { keys: ['new query'], clicks: 20, impressions: 90, position: 4 },
      ],
      [
        { keys: ['shoes'], clicks: 30, impressions: 400, position: 4 },
        { keys: ['boots'], clicks: 25, impressions: 300, position: 5 },
        { keys: ['gone'], clicks: 7, impressions: 70, position: 6 },
      ],
      10,
    );
    expect(gainers.map((m) => [m.key, m.clicksChange])).toEqual([
      ['shoes', 20],
      ['new query', 20],
    ]);
    expect(losers.map((m) => [m.key, m.clicksChange])).toEqual([
      ['boots', -20],
      ['gone', -7],
    ]);
    expect(losers[0]!.positionChange).toBe(3);
  });
});

describe('quick wins', () => {
  it('finds rows near the first page and page-one rows with a weak CTR, sorted by clicks to gain', () => {
    const wins = quickWins(
      [
        { keys: ['near'], clicks: 10, impressions: 2000, position: 11 },
        { keys: ['weak snippet'], clicks: 5, impressions: 1000, position: 2 },
        { keys: ['fine'], clicks: 300, impressions: 1000, position: 1 },
        { keys: ['too few'], clicks: 0, impressions: 20, position: 6 },
        { keys: ['too far'], clicks: 0, impressions: 5000, position: 35 },
      ],
      { minImpressions: 100, maxPosition: 20, limit: 10 },
    );
    expect(wins.map((w) => [w.key, w.reason, w.potentialExtraClicks])).toEqual([
      ['near', 'near_first_page', Math.round(2000 * expectedCtr(3) - 10)],
      ['weak snippet', 'low_ctr_on_page_one', Math.round(1000 * expectedCtr(2) - 5)],
    ]);
  });
});
